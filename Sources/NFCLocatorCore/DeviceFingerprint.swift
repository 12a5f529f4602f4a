/// A device's identity, already normalized by its `DeviceFingerprintProvider`.
///
/// `lookupKeys()` deliberately does **not** normalize: it trusts the provider, which
/// applies `CatalogKey.normalize` to every field before building the value. That is
/// what makes a sysctl `iPhone15,2` and a catalog row authored as `iphone15,2` meet
/// at `iphone15_2`.
public struct DeviceFingerprint: Sendable, Hashable {
    /// Normalized manufacturer (`apple`, `samsung`, `google`), or empty when unknown.
    public let manufacturer: String
    /// Normalized model key (`iphone15_2`, `sm_s921u1`, `pixel_8`).
    public let model: String

    public init(manufacturer: String, model: String) {
        self.manufacturer = manufacturer
        self.model = model
    }

    /// Candidate catalog keys, most specific first: the exact key, then family keys.
    ///
    /// Samsung model codes are `SM-<series letter><3 digits><region suffix>`; the suffix
    /// (`B`, `U`, `U1`, `N`, `W`, `0`, ...) names the market, not a different phone, so
    /// `sm_s921u1`, `sm_s9210` and `sm_s921n` all fall back to the `sm_s921` family.
    public func lookupKeys() -> [LookupKey] {
        var keys = [LookupKey(key: model, matchedBy: .exact)]
        if let family = Self.samsungFamily(of: model), family != model {
            keys.append(LookupKey(key: family, matchedBy: .family))
        }
        return keys
    }

    /// `sm_s921u1` -> `sm_s921`. `nil` for keys that are not Samsung model codes.
    public static func samsungFamily(of key: String) -> String? {
        let bytes = Array(key.utf8)
        // "sm_" + letter + 3 digits, at least; the rest is the region suffix.
        guard bytes.count >= 7, bytes[0] == UInt8(ascii: "s"), bytes[1] == UInt8(ascii: "m"),
            bytes[2] == UInt8(ascii: "_"), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[3]),
            bytes[4...6].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return String(decoding: bytes[0..<7], as: UTF8.self)
    }
}

/// One candidate key and how it relates to the device.
public struct LookupKey: Sendable, Hashable {
    public let key: String
    public let matchedBy: MatchKind
}

/// How a catalog entry was found.
public enum MatchKind: String, Sendable, Codable {
    /// The entry's own key equals the device's.
    case exact
    /// The entry belongs to the device's model family (e.g. another Samsung region).
    case family
    /// No catalog entry; the heuristic answered.
    case none
}

/// Supplies the running (or described) device's fingerprint, already normalized.
public protocol DeviceFingerprintProvider: Sendable {
    func fingerprint() -> DeviceFingerprint
}

/// The bench's provider: the operator types the model identifier. It normalizes
/// once, here, and infers the manufacturer from well-known identifier shapes when
/// none is given.
public struct ModelIdentifierFingerprintProvider: DeviceFingerprintProvider {
    public let modelIdentifier: String
    public let manufacturer: String?

    public init(modelIdentifier: String, manufacturer: String? = nil) {
        self.modelIdentifier = modelIdentifier
        self.manufacturer = manufacturer
    }

    public func fingerprint() -> DeviceFingerprint {
        let model = CatalogKey.normalize(modelIdentifier)
        let maker = manufacturer.map(CatalogKey.normalize) ?? Self.inferManufacturer(fromKey: model) ?? ""
        return DeviceFingerprint(manufacturer: maker, model: model)
    }

    static func inferManufacturer(fromKey key: String) -> String? {
        if key.hasPrefix("iphone") || key.hasPrefix("ipad") { return "apple" }
        if key.hasPrefix("sm_") { return "samsung" }
        if key.hasPrefix("pixel") { return "google" }
        return nil
    }
}
