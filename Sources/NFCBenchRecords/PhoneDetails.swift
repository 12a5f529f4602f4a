/// What the operator says about the phone under test beyond its model and unit: its
/// software and whether it was in a case, which a filed record needs (a case moves the
/// phone's back away from the reader; an OS update can change the NFC stack).
public struct PhoneDetails: Sendable, Equatable {
    /// "Android 15", "iOS 18.1".
    public var os: String?
    /// The build number ("AP3A.240905.015", "22B83").
    public var build: String?
    /// "none", or the case ("Spigen Liquid Air").
    public var phoneCase: String?

    public init(os: String? = nil, build: String? = nil, phoneCase: String? = nil) {
        self.os = os
        self.build = build
        self.phoneCase = phoneCase
    }

    public var isEmpty: Bool { os == nil && build == nil && phoneCase == nil }
}
