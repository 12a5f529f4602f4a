import Foundation

/// What a client needs to know of a signed catalog to trust it, read without decoding
/// its entries: its `catalogVersion` (for the rollback rule), who approved it
/// (`publication`), and how many entries it holds.
///
/// `catalog verify` answers "is this the lab's document, and which version" at the speed
/// of the signature check: a full decode of 10,000 entries costs several times the
/// hash of the file, and proves nothing the signature does not. The pass follows only
/// strings and brackets. It refuses what the decoder would read differently: a top-level
/// member given twice, a body that is not one JSON object.
public struct CatalogHeader: Sendable, Equatable {
    public let catalogVersion: Int?
    public let publication: CatalogPublicationDTO?
    /// `nil` when the document has no `entries` array.
    public let entryCount: Int?

    /// Why the header could not be read.
    public struct Unreadable: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let problem: String
        public var description: String { "byte \(offset): \(problem)" }
    }

    public static func read(_ data: Data) throws(Unreadable) -> CatalogHeader {
        let result: Result<CatalogHeader, Unreadable> = data.withUnsafeBytes { raw in
            var skim = Skim(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Unreadable) { return .success(try skim.header()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// One pass over a JSON text that finds where each value ends without building it.
private struct Skim {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func fail(_ problem: String) -> CatalogHeader.Unreadable { .init(offset: index, problem: problem) }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    mutating func space() {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws(CatalogHeader.Unreadable) {
        space()
        guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(what)") }
        index += 1
    }

    mutating func header() throws(CatalogHeader.Unreadable) -> CatalogHeader {
        try expect(UInt8(ascii: "{"), "a JSON object")
        var seen: Set<String> = []
        var version: Int?, publication: CatalogPublicationDTO?, count: Int?
        space()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                space()
                let keyStart = index
                let key = try string()
                guard seen.insert(key).inserted else {
                    index = keyStart
                    throw fail("the member \"\(key)\" is given twice")
                }
                try expect(UInt8(ascii: ":"), "':' after a member name")
                space()
                let start = index
                switch key {
                case "entries":
                    count = try arrayCount()
                case "catalogVersion":
                    try value()
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    if text != "null" {
                        guard let number = Self.wholeNumber(text) else {
                            index = start
                            throw fail("catalogVersion is not a whole number")
                        }
                        version = number
                    }
                case "publication":
                    try value()
                    let slice = Data(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    if slice.first != UInt8(ascii: "n") {
                        guard let decoded = try? JSONDecoder().decode(CatalogPublicationDTO.self, from: slice) else {
                            index = start
                            throw fail("publication is not {reviewer, approvedAt, source}")
                        }
                        publication = decoded
                    }
                default:
                    try value()
                }
                space()
                guard index < bytes.count else { throw fail("the object is not closed") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    space()
                    // A trailing comma, which the decoder takes.
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        break
                    }
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                break
            }
        }
        space()
        guard index == bytes.count else { throw fail("text after the catalog object") }
        return CatalogHeader(catalogVersion: version, publication: publication, entryCount: count)
    }

    /// A JSON number the decoder reads as an `Int`: `12`, and `12.0` or `1.2e1` too.
    static func wholeNumber(_ text: String) -> Int? {
        if let whole = Int(text) { return whole }
        guard text.first != "+", let value = Double(text), value.isFinite, value.rounded() == value,
            abs(value) < 9_007_199_254_740_992
        else { return nil }
        return Int(value)
    }

    /// A string's text; escapes are read by Foundation (member names rarely have any).
    mutating func string() throws(CatalogHeader.Unreadable) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        let start = index
        try skipString()
        let body = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<(index - 1)])
        guard body.contains(UInt8(ascii: "\\")) else { return String(decoding: body, as: UTF8.self) }
        let quoted = Data(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        guard let text = try? JSONDecoder().decode(String.self, from: quoted) else {
            index = start
            throw fail("a string with a bad escape")
        }
        return text
    }

    /// Past the closing quote. `memchr` finds the next quote, then the first backslash
    /// before it; an escape is stepped over as the decoder reads it (`\\u` takes four more
    /// bytes), so an escaped quote never ends the string and a quote after `\\\\` does.
    mutating func skipString() throws(CatalogHeader.Unreadable) {
        index += 1
        let base = UnsafeRawPointer(bytes.baseAddress!)
        var end = -1  // the next quote at or after `index`, searched again only once passed: linear
        while true {
            if end < index {
                guard index < bytes.count, let quote = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index)
                else { throw fail("a string is not closed") }
                end = UnsafeRawPointer(quote) - base
            }
            guard let slash = memchr(base + index, Int32(UInt8(ascii: "\\")), end - index) else {
                index = end + 1
                return
            }
            let escape = UnsafeRawPointer(slash) - base
            index = escape + 2
            if escape + 1 < bytes.count, bytes[escape + 1] == UInt8(ascii: "u") { index += 4 }
        }
    }

    /// Past one value of any kind.
    mutating func value() throws(CatalogHeader.Unreadable) {
        space()
        guard index < bytes.count else { throw fail("a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["): _ = try container()
        default:
            let start = index
            while index < bytes.count, !",}] \n\r\t".utf8.contains(bytes[index]) { index += 1 }
            if index == start { throw fail("a value is missing") }
        }
    }

    /// An array's element count, past its end.
    mutating func arrayCount() throws(CatalogHeader.Unreadable) -> Int {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { throw fail("entries is not an array") }
        return try container()
    }

    /// Past a whole object or array; the number of values at its own level (an array's
    /// elements). Values are counted where they start, so a trailing comma, which the
    /// decoder tolerates, adds none.
    mutating func container() throws(CatalogHeader.Unreadable) -> Int {
        var depth = 0
        var elements = 0
        var expectingValue = false
        while index < bytes.count {
            let byte = bytes[index]
            if depth == 1, expectingValue, !Self.isSpace(byte), byte != UInt8(ascii: ","), byte != UInt8(ascii: "]"),
                byte != UInt8(ascii: "}")
            {
                elements += 1
                expectingValue = false
            }
            switch byte {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                if depth == 1 { expectingValue = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    index += 1
                    return elements
                }
            case UInt8(ascii: ","):
                if depth == 1 { expectingValue = true }
            default: break
            }
            index += 1
        }
        throw fail("an object or array is not closed")
    }
}
