/// What `--positioner gcode:DEVICE?baud=N&dialect=D` says of the machine: it overrides the
/// rig file's `device`, `baud` and `dialect`, so one rig file serves the same jig on
/// another port.
public struct MachineSpec: Sendable, Equatable {
    public var device: String?
    public var baud: Int?
    public var dialect: MachineDialect?

    /// The standard termios rates (`SerialPort`). Marlin's 250,000 needs a custom divisor
    /// (termios2), which the port does not set yet: such boards are flashed for 115,200.
    public static let baudRates = [9600, 19_200, 38_400, 57_600, 115_200, 230_400]

    public init(device: String? = nil, baud: Int? = nil, dialect: MachineDialect? = nil) {
        self.device = device
        self.baud = baud
        self.dialect = dialect
    }

    /// Reads the part after `gcode:`; an empty text takes everything from the rig file.
    /// A text that cannot name a machine is refused with the reason.
    public static func parse(_ text: String) -> Result<MachineSpec, RigFileError> {
        var spec = MachineSpec()
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        if !path.isEmpty {
            guard path.hasPrefix("/") else {
                return .failure(RigFileError(line: nil, "the device must be an absolute path such as /dev/ttyUSB0"))
            }
            spec.device = path
        }
        guard parts.count == 2 else { return .success(spec) }
        for pair in parts[1].split(separator: "&") {
            let keyValue = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard keyValue.count == 2 else {
                return .failure(
                    RigFileError(line: nil, "expected key=value after '?', found '\(RigConfiguration.printable(String(pair)))'"))
            }
            switch keyValue[0] {
            case "baud":
                guard let baud = Int(keyValue[1]), baudRates.contains(baud) else {
                    return .failure(
                        RigFileError(line: nil, "baud must be one of \(baudRates.map(String.init).joined(separator: ", "))"))
                }
                spec.baud = baud
            case "dialect":
                guard let dialect = MachineDialect(rawValue: keyValue[1].lowercased()) else {
                    return .failure(RigFileError(line: nil, "dialect must be grbl or marlin"))
                }
                spec.dialect = dialect
            default:
                return .failure(
                    RigFileError(
                        line: nil, "unknown setting '\(RigConfiguration.printable(keyValue[0]))'; use baud= or dialect="))
            }
        }
        return .success(spec)
    }

    /// The rig with this spec's overrides.
    public func applied(to rig: RigConfiguration) -> RigConfiguration {
        var rig = rig
        if let device { rig.device = device }
        if let baud { rig.baud = baud }
        if let dialect { rig.dialect = dialect }
        return rig
    }
}
