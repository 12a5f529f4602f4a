/// What is known about the device under test, beyond its model identifier.
///
/// It carries no antenna field: no platform this library targets can measure one.
public struct DeviceIdentitySignals: Sendable, Hashable {
    public var manufacturer: String?
    public var model: String
    public var formFactor: FormFactor?
    public var foldState: FoldState?
    public var screenSizeClass: ScreenSizeClass?

    public init(
        manufacturer: String? = nil, model: String, formFactor: FormFactor? = nil,
        foldState: FoldState? = nil, screenSizeClass: ScreenSizeClass? = nil
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.formFactor = formFactor
        self.foldState = foldState
        self.screenSizeClass = screenSizeClass
    }
}
