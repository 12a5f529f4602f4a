import Foundation

/// Reads an object's fields from a `JSONTree` tree with the semantics, and the errors, of
/// Foundation's `JSONDecoder` for a synthesized `Decodable`: a missing required field is
/// `keyNotFound`, a `null` one `valueNotFound`, a wrong kind `typeMismatch`, and a number
/// no Double holds `dataCorrupted`. So `DecodingErrorWords` words a row's reason the same
/// whichever reader found it, and `CatalogTreeParityTests` holds the two to that.
///
/// Doubles follow the catalogs' strategy: `"NaN"`, `"Infinity"` and `"-Infinity"` written
/// as text are numbers, so such rows reach validation and are skipped with a reason.
struct JSONFields {
    let object: JSONTreeObject
    let path: [JSONPathKey]

    /// The object at `path`, or the `DecodingError` that `container(keyedBy:)` would throw.
    init(_ value: JSONTree, at path: [JSONPathKey]) throws(DecodingError) {
        switch value {
        case .object(let object): self.object = object
        case .null: throw .valueNotFound([String: Any].self, Self.context(path))
        default: throw .typeMismatch([String: Any].self, Self.context(path))
        }
        self.path = path
    }

    func string(_ name: String) throws(DecodingError) -> String {
        guard let value = try optionalString(name) else { throw missingOrNull(name, String.self) }
        return value
    }

    func optionalString(_ name: String) throws(DecodingError) -> String? {
        switch object[name] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .typeMismatch(String.self, context(name))
        }
    }

    func double(_ name: String) throws(DecodingError) -> Double {
        guard let value = try optionalDouble(name) else { throw missingOrNull(name, Double.self) }
        return value
    }

    func optionalDouble(_ name: String) throws(DecodingError) -> Double? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let literal)?:
            guard let number = Double(literal), number.isFinite else {
                throw .dataCorrupted(
                    DecodingError.Context(
                        codingPath: path + [JSONPathKey(name)],
                        debugDescription: "Number \(literal) is not representable in Swift."))
            }
            return number
        case .string("NaN")?: return .nan
        case .string("Infinity")?: return .infinity
        case .string("-Infinity")?: return -.infinity
        default: throw .typeMismatch(Double.self, context(name))
        }
    }

    func optionalBool(_ name: String) throws(DecodingError) -> Bool? {
        switch object[name] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw .typeMismatch(Bool.self, context(name))
        }
    }

    /// A whole number written as any JSON number (`4`, `4.0`), as
    /// `KeyedDecodingContainer.wholeNumber` reads one: a fraction, or a number no Double
    /// holds, is `dataCorrupted` in the same words.
    func optionalInt(_ name: String) throws(DecodingError) -> Int? {
        switch object[name] {
        case nil, .null?: return nil
        case .number(let literal)?:
            if let whole = Int(literal) { return whole }
            guard let number = Double(literal).flatMap({ $0.isFinite ? Int(exactly: $0) : nil }) else {
                throw .dataCorrupted(
                    DecodingError.Context(
                        codingPath: path + [JSONPathKey(name)],
                        debugDescription: "Number \(literal) is not representable in Swift."))
            }
            return number
        default: throw .typeMismatch(Double.self, context(name))
        }
    }

    /// The object under `name`, `nil` when absent or `null`.
    func optionalFields(_ name: String) throws(DecodingError) -> JSONFields? {
        switch object[name] {
        case nil, .null?: return nil
        case let value?: return try JSONFields(value, at: path + [JSONPathKey(name)])
        }
    }

    /// The elements of the array under `name`, `nil` when absent or `null`.
    func optionalArray(_ name: String) throws(DecodingError) -> [(value: JSONTree, path: [JSONPathKey])]? {
        switch object[name] {
        case nil, .null?: return nil
        default: return try array(name)
        }
    }

    /// The elements of the array under `name`, each with its path.
    func array(_ name: String) throws(DecodingError) -> [(value: JSONTree, path: [JSONPathKey])] {
        switch object[name] {
        case .array(let elements)?:
            let base = path + [JSONPathKey(name)]
            return elements.enumerated().map { ($0.element, base + [JSONPathKey(index: $0.offset)]) }
        case nil: throw .keyNotFound(JSONPathKey(name), Self.context(path))
        case .null?: throw .valueNotFound([Any].self, context(name))
        default: throw .typeMismatch([Any].self, context(name))
        }
    }

    private func missingOrNull(_ name: String, _ type: Any.Type) -> DecodingError {
        object[name] == nil
            ? .keyNotFound(JSONPathKey(name), Self.context(path))
            : .valueNotFound(type, context(name))
    }

    private func context(_ name: String) -> DecodingError.Context { Self.context(path + [JSONPathKey(name)]) }

    private static func context(_ path: [JSONPathKey]) -> DecodingError.Context {
        DecodingError.Context(codingPath: path, debugDescription: "")
    }
}

/// One step of a path into a document: a member name or an array index.
struct JSONPathKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ name: String) {
        stringValue = name
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
