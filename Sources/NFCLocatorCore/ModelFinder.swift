import Foundation

/// Finds the catalog entry a person means by what they type: the identifier
/// (`SM-S921B`, `iPhone15,2`), a regional variant of it (its family), or the marketing name
/// (`Galaxy S24`, `iPhone 14 Pro`), in any case, spacing or hyphenation (`galaxy-s24`,
/// `pixel8`, `Samsung Galaxy S24`), with surrounding whitespace ignored.
///
/// Without this a session typed as "galaxy s24" was stored under an unknown key that
/// refine could never use. The finder never guesses between entries: several matches are
/// returned for the person to choose from, and near misses only as suggestions.
public struct ModelFinder: Sendable {
    public enum Reason: String, Sendable, Equatable {
        /// The catalog's own identifier, as typed.
        case identifier
        /// A regional variant of an identifier in the catalog (`SM-S921U1` -> `SM-S921B`'s family).
        case family
        /// The identifier typed another way (`pixel8`, `sm s921b`).
        case spelling
        /// The entry's marketing name (`displayName`), with or without the maker.
        case name
    }

    public struct Match: Sendable {
        public let profile: DeviceAntennaProfile
        public let reason: Reason
        /// What to hand the resolver and store with a session: the typed identifier when it
        /// resolves as typed (trimmed), else the entry's own identifier.
        public let identifier: String
    }

    public enum Outcome: Sendable {
        case found(Match)
        case ambiguous([DeviceAntennaProfile])
        /// No entry: the heuristic answers. `suggestions`: the closest entries, best first.
        case unknown(identifier: String, suggestions: [DeviceAntennaProfile])
    }

    public let resolver: AntennaZoneResolver
    /// Every entry the resolver can answer with, remote first, each key once.
    public let entries: [DeviceAntennaProfile]

    public init(resolver: AntennaZoneResolver) {
        self.resolver = resolver
        var seen = Set<String>()
        entries = ((resolver.remote?.profiles ?? []) + (resolver.seed?.profiles ?? [])).filter {
            seen.insert($0.lookupKey).inserted
        }
    }

    public func find(_ typed: String) -> Outcome {
        let trimmed = typed.trimmingWhitespace()
        let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: trimmed).fingerprint()
        if !trimmed.isEmpty,
            let profile = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: trimmed)).profile
        {
            let family = profile.lookupKey != fingerprint.model
            return .found(Match(profile: profile, reason: family ? .family : .identifier, identifier: trimmed))
        }
        let wanted = Self.compact(trimmed)
        let withoutMaker = Self.dropMaker(wanted)
        var matches = entries.filter { Self.compact($0.modelIdentifier) == wanted }
        var reason = Reason.spelling
        if matches.isEmpty {
            reason = .name
            matches = entries.filter { p in
                Self.names(p).contains { !$0.isEmpty && ($0 == wanted || $0 == withoutMaker) }
            }
        }
        if matches.count == 1 {
            return .found(Match(profile: matches[0], reason: reason, identifier: matches[0].modelIdentifier))
        }
        if matches.count > 1 { return .ambiguous(matches) }
        return .unknown(identifier: trimmed, suggestions: suggestions(for: withoutMaker.isEmpty ? wanted : withoutMaker))
    }

    /// Entries whose identifier, name or maker contains `text` (any spelling), for
    /// `catalog search`.
    public func search(_ text: String) -> [DeviceAntennaProfile] {
        let wanted = Self.compact(text)
        guard !wanted.isEmpty else { return entries }
        return entries.filter {
            Self.compact($0.modelIdentifier).contains(wanted) || Self.compact($0.displayName).contains(wanted)
                || (Self.compact($0.manufacturer) + Self.compact($0.displayName)).contains(wanted)
        }
    }

    /// Whether two names are one phone's as people write them: case, spacing, hyphens and a
    /// leading maker aside ("Samsung Galaxy S24" and "galaxy-s24"). For names stored with a
    /// session, when the catalog at hand no longer has the entry that gave them.
    public static func sameName(_ a: String, _ b: String) -> Bool {
        let x = dropMaker(compact(a))
        return !x.isEmpty && x == dropMaker(compact(b))
    }

    /// Up to three entries within a few typing mistakes of `wanted`, closest first.
    func suggestions(for wanted: String) -> [DeviceAntennaProfile] {
        guard wanted.count >= 2 else { return [] }
        let limit = max(2, wanted.count / 3)
        let scored = entries.compactMap { p -> (DeviceAntennaProfile, Int)? in
            let d = min(
                Self.distance(wanted, Self.compact(p.modelIdentifier)), Self.distance(wanted, Self.compact(p.displayName)))
            return d <= limit ? (p, d) : nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.modelIdentifier < $1.0.modelIdentifier }.prefix(3).map(\.0)
    }

    /// Lowercase ASCII letters and digits only: case, spaces, hyphens and commas vanish;
    /// `+` is spelled out, since "Galaxy S24+" is another phone than "Galaxy S24".
    static func compact(_ s: String) -> String {
        var out = ""
        for scalar in s.lowercased().unicodeScalars {
            if scalar == "+" {
                out += "plus"
            } else if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A name as people say it: the whole `displayName`, and without its parenthesis
    /// ("Galaxy Z Fold5" for "Galaxy Z Fold5 (unfolded)", which names both fold states).
    static func names(_ p: DeviceAntennaProfile) -> [String] {
        var names = [compact(p.displayName)]
        if let open = p.displayName.firstIndex(of: "(") { names.append(compact(String(p.displayName[..<open]))) }
        return names
    }

    static let makers = ["samsung", "google", "apple"]

    static func dropMaker(_ compact: String) -> String {
        for maker in makers where compact.hasPrefix(maker) { return String(compact.dropFirst(maker.count)) }
        return compact
    }

    static func distance(_ a: String, _ b: String) -> Int { EditDistance.levenshtein(a.utf8, b.utf8) }
}
