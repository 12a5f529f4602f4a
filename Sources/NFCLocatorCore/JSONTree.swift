import Foundation

/// A JSON document as a tree of values, for the documents every `resolve` reads (the
/// catalogs and the strings file).
///
/// Why not `JSONDecoder`: a static binary's Codable decoding instantiates a generic
/// container type for every `CodingKeys`, and each costs the Swift runtime a linear scan
/// of the whole binary's protocol conformances. That was a fifth of a `resolve`'s start-up
/// (docs/performance.md). Reading a tree and picking fields by hand costs none of it.
///
/// Numbers are kept as written and converted when a field is read, so a number no Double
/// holds (`1e309`) fails only the field that holds it, as with Foundation's decoder.
public enum JSONTree: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONTree])
    case object(JSONTreeObject)

    /// Containers nested deeper than this are refused: Foundation's reader has the same
    /// limit, and a tree this shallow cannot exhaust the stack when it is compared or freed.
    public static let depthLimit = JSONText.foundationDepthLimit

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let problem: String
        public var description: String { "at byte \(offset): \(problem)" }
    }

    /// Parses a whole document as strictly as `JSONText` checks one: RFC 8259 grammar,
    /// well-formed UTF-8, no member named twice in one object, and the depth limit. What
    /// is wrong is said only roughly; `JSONText.strictReading()` gives the line and
    /// column a person needs, and is asked only when this fails.
    public static func parse(_ data: Data) throws(ParseError) -> JSONTree {
        var parser = JSONTreeParser(bytes: [UInt8](data))
        return try parser.document()
    }
}

extension JSONTree {
    /// The member `name` of an object; `nil` for a missing member or a value that is no object.
    public func member(_ name: String) -> JSONTree? {
        guard case .object(let object) = self else { return nil }
        return object[name]
    }
}

/// A JSON object's members in document order. Lookups scan: the objects read this way have
/// a few dozen members at most, and a scan builds no hash table.
public struct JSONTreeObject: Sendable, Equatable {
    public struct Member: Sendable, Equatable {
        public let name: String
        public let value: JSONTree
    }

    public let members: [Member]

    public init(members: [Member]) { self.members = members }

    /// The first member called `name`. `JSONText` refuses a catalog that names one twice.
    public subscript(name: String) -> JSONTree? {
        for member in members where member.name == name { return member.value }
        return nil
    }
}

/// The parse behind `JSONTree.parse`: containers on an explicit stack, so nesting depth
/// costs heap, never call stack.
private struct JSONTreeParser {
    typealias Failure = JSONTree.ParseError

    /// A container still open. Its contents grow in place (`open[top].elements.append`):
    /// an enum popped off the stack and bound with `var` shared its array with the popped
    /// value, so every append copied the container whole, and a 100,000-entry catalog took
    /// 105 s (issue 49, F9).
    private struct Open {
        let isObject: Bool
        var elements: [JSONTree] = []
        var members: [JSONTreeObject.Member] = []
        /// The name of the member whose value is being read.
        var name = ""
        /// Kept once an object is large enough that a scan for a repeated name would cost
        /// more than hashing.
        var names: Set<String>?
    }
    private static let scanLimit = 32

    let bytes: [UInt8]
    private var index = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func fail(_ problem: String) -> Failure { Failure(offset: index, problem: problem) }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    mutating func document() throws(Failure) -> JSONTree {
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    private mutating func value() throws(Failure) -> JSONTree {
        var open: [Open] = []
        while true {
            skipSpace()
            guard let b = peek else { throw fail("the text ends inside a value") }
            var done: JSONTree
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = b == UInt8(ascii: "{")
                index += 1
                skipSpace()
                if peek == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    done = isObject ? .object(JSONTreeObject(members: [])) : .array([])
                } else {
                    guard open.count < JSONTree.depthLimit else {
                        throw fail("values nested more than \(JSONTree.depthLimit) levels deep")
                    }
                    open.append(isObject ? Open(isObject: true, name: try memberName()) : Open(isObject: false))
                    continue
                }
            case UInt8(ascii: "\""): done = .string(try string())
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): done = .number(try number())
            case UInt8(ascii: "t"): try literal("true"); done = .bool(true)
            case UInt8(ascii: "f"): try literal("false"); done = .bool(false)
            case UInt8(ascii: "n"): try literal("null"); done = .null
            default: throw fail("expected a value")
            }
            // A value is complete: add it to its container, and close every container it ends.
            closing: while true {
                guard let top = open.indices.last else { return done }
                skipSpace()
                if open[top].isObject {
                    let name = open[top].name
                    if open[top].members.count < Self.scanLimit {
                        if open[top].members.contains(where: { $0.name == name }) {
                            throw fail("the member name \"\(name)\" appears twice")
                        }
                    } else {
                        if open[top].names == nil { open[top].names = Set(open[top].members.map(\.name)) }
                        if open[top].names!.insert(name).inserted == false {
                            throw fail("the member name \"\(name)\" appears twice")
                        }
                    }
                    open[top].members.append(JSONTreeObject.Member(name: name, value: done))
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        open[top].name = try memberName()
                        break closing
                    }
                    guard peek == UInt8(ascii: "}") else { throw fail("expected , or } after a member") }
                    index += 1
                    done = .object(JSONTreeObject(members: open.removeLast().members))
                } else {
                    open[top].elements.append(done)
                    if peek == UInt8(ascii: ",") {
                        index += 1
                        break closing
                    }
                    guard peek == UInt8(ascii: "]") else { throw fail("expected , or ] after an element") }
                    index += 1
                    done = .array(open.removeLast().elements)
                }
            }
        }
    }

    private mutating func memberName() throws(Failure) -> String {
        skipSpace()
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name in double quotes") }
        let name = try string()
        skipSpace()
        guard peek == UInt8(ascii: ":") else { throw fail("expected : after a member name") }
        index += 1
        return name
    }

    /// Text between double quotes, escapes decoded: well-formed UTF-8 and no raw control
    /// characters, as RFC 8259 asks.
    private mutating func string() throws(Failure) -> String {
        let start = index + 1
        index = start
        while let b = peek, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"), b >= 0x20 { index += 1 }
        guard let stop = peek else { throw Failure(offset: start - 1, problem: "text starting here is never closed") }
        if stop == UInt8(ascii: "\"") {
            index += 1
            return try validated(bytes[start..<(index - 1)])
        }
        var decoded = Array(bytes[start..<index])
        while true {
            guard let b = peek else { throw Failure(offset: start - 1, problem: "text starting here is never closed") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                return try validated(decoded[...])
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &decoded)
            case 0..<0x20: throw fail("a control character inside text must be escaped")
            default:
                index += 1
                decoded.append(b)
            }
        }
    }

    private func validated(_ utf8: ArraySlice<UInt8>) throws(Failure) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw fail("bytes that are not UTF-8") }
        return text
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(Failure) {
        guard let e = peek else { throw fail("the text ends inside an escape") }
        index += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(e)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw fail("an unpaired surrogate") }
                index += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw fail("an unpaired surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(UInt32(scalar)) else { throw fail("an unpaired surrogate") }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default: throw fail("unknown escape")
        }
    }

    private mutating func hex4() throws(Failure) -> Int {
        let value = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.hex4(in: bytes, from: index) }
        index += 4
        return value
    }

    /// A step of the shared grammar, its mistake as this parser's failure.
    private func grammar<T>(_ step: () throws(JSONGrammar.Mistake) -> T) throws(Failure) -> T {
        do { return try step() } catch { throw Failure(offset: error.offset, problem: error.problem) }
    }

    /// A number's text as written.
    private mutating func number() throws(Failure) -> String {
        let start = index
        index = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.numberEnd(in: bytes, from: start) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let start = index
        index = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.literalEnd(word, in: bytes, from: start) }
    }
}
