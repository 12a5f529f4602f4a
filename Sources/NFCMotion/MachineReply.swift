import NFCRig

/// One line a G-code machine sends, as the positioner understands it.
public enum MachineReply: Sendable, Equatable {
    /// The line was accepted (GRBL: queued, not done; Marlin: likewise).
    case ok
    /// GRBL `error:N`: the line was refused.
    case error(code: Int)
    /// GRBL `ALARM:N`: motion stopped; G-code is locked out until `$X` or `$H`.
    case alarm(code: Int)
    /// GRBL `<State|MPos:x,y,z|...>`: `state` is the word before the first `|` or `:`
    /// (`Idle`, `Run`, `Hold`, `Alarm`, `Home`...), `position` the machine position.
    case status(state: String, position: [Double]?)
    /// The machine restarted: GRBL's `Grbl 1.1h ['$' for help]`, Marlin's `start`.
    case reset(banner: String)
    /// Marlin `echo:busy: processing` (host keepalive): alive, still working on the last line.
    case busy
    /// Marlin `Error:...`: the firmware stopped or refused something.
    case failure(String)
    /// Anything else: `[MSG:...]`, `echo:...`, `X:.. Y:.. Z:..`, settings.
    case message(String)

    /// Reads one line (without its line ending) in `dialect`'s terms.
    public init(_ raw: String, dialect: MachineDialect) {
        let line = raw.trimmingCharacters(in: [" ", "\r", "\n", "\t"])
        let lower = line.lowercased()
        if lower == "ok" || (dialect == .marlin && lower.hasPrefix("ok ")) {
            self = .ok
        } else if lower.hasPrefix("error:"), let code = Int(line.dropFirst(6)) {
            self = .error(code: code)
        } else if line.hasPrefix("ALARM:"), let code = Int(line.dropFirst(6)) {
            self = .alarm(code: code)
        } else if line.hasPrefix("<"), line.hasSuffix(">") {
            self = Self.status(String(line.dropFirst().dropLast()))
        } else if line.hasPrefix("Grbl ") && line.contains("for help") || (dialect == .marlin && lower == "start") {
            self = .reset(banner: line)
        } else if lower.hasPrefix("busy:") || lower.hasPrefix("echo:busy:") {
            self = .busy
        } else if dialect == .marlin && line.hasPrefix("Error:") {
            self = .failure(String(line.dropFirst(6)))
        } else {
            self = .message(line)
        }
    }

    /// `Idle|MPos:1.000,2.000,3.000|FS:0,0` -> `Idle` at (1, 2, 3); GRBL 0.9's `Idle,MPos:...` too.
    static func status(_ body: String) -> MachineReply {
        let fields = body.split(whereSeparator: { $0 == "|" })
        let state = String(fields.first?.split(whereSeparator: { $0 == ":" || $0 == "," }).first ?? "")
        var position: [Double]?
        for field in fields where field.hasPrefix("MPos:") || field.hasPrefix("WPos:") {
            let numbers = field.dropFirst(5).split(separator: ",").compactMap { Double($0) }
            if numbers.count >= 3 { position = Array(numbers.prefix(3)) }
        }
        return .status(state: state, position: position)
    }
}
