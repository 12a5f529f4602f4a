/// The room a session was taken in, as the operator read it from the lab's instruments
/// (`run --temperature-c`, `--humidity-pct`): ISO/IEC 17025 §6.3.3 and §7.8.2 ask a
/// filed record for the environmental conditions where they can influence the result, and
/// a phone's NFC controller and battery do drift with temperature. Each figure is `nil`
/// when not given, as for every session from before migration 020.
public struct BenchConditions: Sendable, Equatable {
    /// Air temperature at the bench, °C.
    public var temperatureC: Double?
    /// Relative humidity at the bench, %.
    public var humidityPct: Double?

    public init(temperatureC: Double? = nil, humidityPct: Double? = nil) {
        precondition(temperatureC.map(Self.temperatures.contains) ?? true, "a temperature within BenchConditions.temperatures")
        precondition(humidityPct.map(Self.humidities.contains) ?? true, "a humidity within BenchConditions.humidities")
        self.temperatureC = temperatureC
        self.humidityPct = humidityPct
    }

    /// Temperatures a bench may report, °C: a cold room to a hot one, with margin; a
    /// figure outside is a typing error (a Fahrenheit reading, a missing point).
    public static let temperatures: ClosedRange<Double> = -20...60
    /// Relative humidity, %.
    public static let humidities: ClosedRange<Double> = 0...100

    /// A figure exactly as recorded, the shortest decimal that reads back as the same
    /// number ("22.5", "61.25", "-4"): the words, the CSV and JUnit give one figure, never
    /// one rounded where another is not.
    public static func figure(_ v: Double) -> String {
        let text = "\(v)"
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    public var isEmpty: Bool { temperatureC == nil && humidityPct == nil }

    /// "22.5 °C, 45 % RH", or the one figure given; `nil` when neither was.
    public var words: String? {
        let parts = [temperatureC.map { Self.figure($0) + " °C" }, humidityPct.map { Self.figure($0) + " % RH" }]
            .compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
