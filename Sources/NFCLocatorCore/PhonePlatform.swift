/// Which phone operating system a fingerprint's maker ships, for what the operator must
/// do to the phone (present a Wallet card, turn NFC on). Inferred from the manufacturer
/// the fingerprint carries, never from the spelling of a catalog key.
public enum PhonePlatform: String, Sendable, CaseIterable {
    case iOS = "ios"
    case android
    case unknown

    /// Makers that ship Android phones, by their normalized name.
    static let androidMakers: Set<String> = [
        "samsung", "google", "xiaomi", "oneplus", "oppo", "vivo", "motorola", "sony", "huawei", "honor", "nothing", "fairphone",
        "asus", "nokia", "realme",
    ]

    public init(manufacturer: String) {
        let maker = CatalogKey.normalize(manufacturer)
        if maker == "apple" {
            self = .iOS
        } else if Self.androidMakers.contains(maker) {
            self = .android
        } else {
            self = .unknown
        }
    }
}

extension PhonePlatform {
    /// The platform of the model an identifier or catalog key names (`iPhone15,2`,
    /// `sm_s921b`), through the fingerprint `NFCLocatorCore` infers for it.
    public init(modelIdentifier: String) {
        self = ModelIdentifierFingerprintProvider(modelIdentifier: modelIdentifier).fingerprint().platform
    }
}

extension DeviceFingerprint {
    public var platform: PhonePlatform { PhonePlatform(manufacturer: manufacturer) }
}
