import Foundation

/// Where things are in a JSON text, for errors a person can act on and for reading large
/// files one row at a time: the line and column of a byte, the first syntax error, and the
/// byte ranges of an array's elements.
///
/// A scanner, not a parser: it validates the grammar (RFC 8259) and UTF-8 with an explicit
/// stack, so hostile nesting cannot exhaust the call stack, and it keeps no values. It is
/// stricter than Foundation's reader in one way: a trailing comma (`[1,]`) is an error, as
/// the RFC says and as the other platforms sharing the catalog format read it. A member
/// name twice in one object is an error too: Foundation keeps the first, Python,
/// JavaScript and Go keep the last, so a catalog with one would mean different zones to
/// nfcbench and to a backend that validates it in another language.
public struct JSONText: Sendable {
    public let data: Data

    public init(_ data: Data) { self.data = data }

    /// A syntax error: where it is and what was expected.
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let problem: String
        public var description: String { "line \(line), column \(column): \(problem)" }
    }

    /// Line and column (both from 1; columns count characters) of byte `offset`.
    public func position(of offset: Int) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), data.count)
        let lines = LineIndex(data)
        let line = lines.line(of: end)
        var column = 1
        for byte in data[(data.startIndex + lines.start(ofLine: line))..<(data.startIndex + end)] where byte & 0xC0 != 0x80 {
            column += 1  // continuation bytes belong to the character before
        }
        return (line, column)
    }

    /// The first syntax error, or `nil` for valid JSON.
    public func syntaxError() -> SyntaxError? { strictWalk().failure.map(locate) }

    /// The first member name that appears twice in one object, with where, or `nil`.
    /// Unlike `syntaxError()`, other syntax errors are not reported here (they are the
    /// decoder's to describe). The walk steps over trailing commas, which Foundation takes:
    /// a name given twice after one must not reach it unseen.
    public func duplicateMember() -> SyntaxError? {
        guard let failure = strictWalk(stepOverTrailingCommas: true).failure,
            failure.problem.hasPrefix(JSONScanner.duplicatePrefix)
        else { return nil }
        return locate(failure)
    }

    /// What one strict pass finds, for a reader deciding how to read the text.
    public enum StrictReading: Sendable, Equatable {
        /// RFC 8259 JSON, no member twice, and within Foundation's limits.
        case valid
        case duplicateMember(SyntaxError)
        /// Strict JSON but for a comma before a closing bracket, which Foundation's reader
        /// (and `CatalogHeader`) take: where the first one is.
        case trailingComma(SyntaxError)
        /// Not JSON. Foundation's reader takes some of it (a control character or a byte
        /// that is not UTF-8 inside a string) but no other platform's does, and the strict
        /// pass stopped there: a member named twice after it would go unseen.
        case syntaxError(SyntaxError)
        /// Valid JSON nested deeper than Foundation's reader takes, in words.
        case tooDeep(String)
    }

    /// `syntaxError()`, `duplicateMember()` and the nesting limit in one pass. A number
    /// no Double holds is not the text's problem but the field's that holds it.
    ///
    /// The pass steps over a trailing comma and goes on, so that what lies after one (a
    /// member named twice, nesting past the limit) is still found: Foundation's reader
    /// takes the comma, and would read such a text where the strict walk had stopped.
    public func strictReading() -> StrictReading {
        let (scanner, failure) = strictWalk(stepOverTrailingCommas: true)
        if let failure {
            let located = locate(failure)
            return failure.problem.hasPrefix(JSONScanner.duplicatePrefix) ? .duplicateMember(located) : .syntaxError(located)
        }
        if scanner.deepest > Self.foundationDepthLimit { return .tooDeep(depthWords(scanner.deepest)) }
        if let comma = scanner.trailingComma {
            return .trailingComma(locate(JSONScanner.Failure(offset: comma, problem: JSONScanner.trailingCommaProblem)))
        }
        return .valid
    }

    /// The whole text as one value and nothing after it: the scanner as it ended, and
    /// where it failed. `stepOverTrailingCommas`: a comma before `]` or `}` is noted in
    /// `trailingComma` rather than failing the walk.
    private func strictWalk(stepOverTrailingCommas: Bool = false) -> (scanner: JSONScanner, failure: JSONScanner.Failure?) {
        var scanner = JSONScanner(bytes: [UInt8](data))
        scanner.stepsOverTrailingCommas = stepOverTrailingCommas
        do throws(JSONScanner.Failure) {
            if scanner.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw scanner.fail("the file starts with a byte order mark, which JSON has none of; save it as UTF-8 without one")
            }
            scanner.skipSpace()
            try scanner.value(collect: nil)
            scanner.skipSpace()
            guard scanner.index == scanner.bytes.count else { throw scanner.fail("unexpected text after the JSON value") }
            return (scanner, nil)
        } catch {
            return (scanner, error)
        }
    }

    /// Why Foundation's JSON reader refuses text that is valid JSON, if it does: a number
    /// no Double can hold (`1e309`) or nesting deeper than its limit. `nil` otherwise.
    public func foundationLimit() -> String? {
        var scanner = JSONScanner(bytes: [UInt8](data))
        scanner.skipSpace()
        do throws(JSONScanner.Failure) { try scanner.value(collect: nil) } catch { return nil }
        if let (offset, literal) = scanner.hugeNumber {
            let (line, column) = position(of: offset)
            return "line \(line), column \(column): the number \(literal) is out of range"
        }
        if scanner.deepest > Self.foundationDepthLimit { return depthWords(scanner.deepest) }
        return nil
    }

    private func depthWords(_ depth: Int) -> String {
        "values nested \(depth) levels deep (the limit is \(Self.foundationDepthLimit))"
    }

    /// Foundation's JSON nesting limit.
    static let foundationDepthLimit = 512

    /// The elements of the top-level array (`key == nil`) or of the array under `key` in
    /// the top-level object, as byte ranges into `data`.
    public func arrayElements(under key: String? = nil) throws(SyntaxError) -> [Range<Int>] {
        var scanner = JSONScanner(bytes: [UInt8](data))
        do throws(JSONScanner.Failure) {
            scanner.skipSpace()
            var ranges: [Range<Int>] = []
            if let key {
                guard scanner.peek == UInt8(ascii: "{") else { throw scanner.fail("expected an object with \"\(key)\"") }
                try scanner.value(collect: (key, { ranges.append($0) }))
                if !scanner.foundKey { throw JSONScanner.Failure(offset: 0, problem: "no \"\(key)\" array in the object") }
            } else {
                guard scanner.peek == UInt8(ascii: "[") else { throw scanner.fail("expected an array of rows") }
                try scanner.value(collect: ("", { ranges.append($0) }))
            }
            scanner.skipSpace()
            guard scanner.index == scanner.bytes.count else { throw scanner.fail("unexpected text after the JSON value") }
            return ranges
        } catch {
            throw locate(error)
        }
    }

    private func locate(_ failure: JSONScanner.Failure) -> SyntaxError {
        let (line, column) = position(of: failure.offset)
        return SyntaxError(line: line, column: column, problem: failure.problem)
    }
}

/// Line numbers of byte offsets, from one pass over the input.
struct LineIndex {
    private let newlines: [Int]

    init(_ data: Data) {
        var offsets: [Int] = []
        for (i, byte) in data.enumerated() where byte == 0x0A { offsets.append(i) }
        newlines = offsets
    }

    /// The byte offset where `line` (from 1) starts.
    func start(ofLine line: Int) -> Int { line <= 1 ? 0 : newlines[line - 2] + 1 }

    /// The line (from 1) holding byte `offset`.
    func line(of offset: Int) -> Int {
        var low = 0, high = newlines.count
        while low < high {
            let mid = (low + high) / 2
            if newlines[mid] < offset { low = mid + 1 } else { high = mid }
        }
        return low + 1
    }
}

/// The grammar walk behind `JSONText`: containers on an explicit stack.
private struct JSONScanner {
    struct Failure: Error { let offset: Int; let problem: String }

    let bytes: [UInt8]
    var index = 0
    var foundKey = false
    /// The first number no Double holds, and the deepest nesting seen.
    var hugeNumber: (offset: Int, literal: String)?
    var deepest = 0
    /// The member names of each open object, innermost last.
    var memberNames: [[String: Int]] = []
    static let duplicatePrefix = "the member name"
    /// Whether a comma before `]` or `}` is stepped over, and where the first one was.
    var stepsOverTrailingCommas = false
    var trailingComma: Int?
    static let trailingCommaProblem = "a comma before the closing bracket (JSON has none there; remove it)"

    init(bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func fail(_ problem: String) -> Failure { Failure(offset: index, problem: problem) }

    mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { index += 1 }
    }

    enum Container { case array, object }

    /// One value. `collect`: report the ranges of the elements of the array found at
    /// depth 1 under key `name` ("" for the top-level array itself).
    mutating func value(collect: (name: String, report: (Range<Int>) -> Void)?) throws(Failure) {
        var stack: [Container] = []
        // Depth at which the elements are reported, once the array is entered.
        var collectDepth: Int?
        if let collect, collect.name.isEmpty { collectDepth = 1 }
        var pendingKey: String?
        var elementStart: Int?
        while true {
            skipSpace()
            // At the start of a value: one of the collected array's elements begins here.
            if let depth = collectDepth, stack.count == depth, elementStart == nil { elementStart = index }
            guard let b = peek else { throw fail("the text ends inside a value") }
            switch b {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let container: Container = b == UInt8(ascii: "{") ? .object : .array
                if container == .array, let collect, stack.count == 1, stack[0] == .object, pendingKey == collect.name {
                    collectDepth = 2
                    foundKey = true
                }
                stack.append(container)
                if container == .object { memberNames.append([:]) }
                deepest = max(deepest, stack.count)
                index += 1
                skipSpace()
                if peek == (container == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    if stack.removeLast() == .object { memberNames.removeLast() }
                    if collectDepth == stack.count + 1 { collectDepth = nil }  // the collected array was empty
                } else {
                    if container == .object { pendingKey = try key() }
                    continue
                }
            case UInt8(ascii: "\""): _ = try string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: throw fail("expected a value (object, array, text, number, true, false or null)")
            }
            // After a complete value: close containers or move to the next member.
            while true {
                if let depth = collectDepth, stack.count == depth, let start = elementStart {
                    collect?.report(start..<index)
                    elementStart = nil
                }
                guard let top = stack.last else { return }
                skipSpace()
                guard let next = peek else { throw fail("the text ends inside an \(top == .object ? "object" : "array")") }
                let close = top == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if next == UInt8(ascii: ",") {
                    let comma = index
                    index += 1
                    skipSpace()
                    if stepsOverTrailingCommas, peek == close {
                        trailingComma = trailingComma ?? comma
                        continue  // closes the container on the next turn
                    }
                    if top == .object { pendingKey = try key() }
                    break
                }
                guard next == close else {
                    throw fail(top == .object ? "expected , or } after a member" : "expected , or ] after an element")
                }
                index += 1
                if stack.removeLast() == .object { memberNames.removeLast() }
                if collectDepth == stack.count + 1 { collectDepth = nil }  // the collected array is done
                pendingKey = nil
            }
        }
    }

    /// A member name and its colon; a name the enclosing object already has is an error.
    mutating func key() throws(Failure) -> String {
        guard peek == UInt8(ascii: "\"") else { throw fail("expected a member name in double quotes") }
        let start = index
        var name = try string()
        if name.isEmpty && index - start > 2 {
            // Escapes: `string()` keeps only plain names, so decode this one (`"\u0061"` is "a").
            let quoted = Data(bytes[start..<index])
            name = (try? JSONSerialization.jsonObject(with: quoted, options: .fragmentsAllowed)) as? String ?? ""
        }
        if let first = memberNames[memberNames.count - 1].updateValue(start, forKey: name) {
            let line = LineIndex(Data(bytes)).line(of: first)
            throw Failure(
                offset: start,
                problem: "\(Self.duplicatePrefix) \"\(name)\" appears twice in one object (first on line \(line)); "
                    + "readers disagree on which one counts, so remove one")
        }
        skipSpace()
        guard peek == UInt8(ascii: ":") else { throw fail("expected : after a member name") }
        index += 1
        return name
    }

    mutating func string() throws(Failure) -> String {
        let start = index
        index += 1
        var simple = true
        while true {
            guard let b = peek else { throw Failure(offset: start, problem: "text starting here is never closed") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                let body = bytes[(start + 1)..<(index - 1)]
                return simple ? String(decoding: body, as: UTF8.self) : ""
            case UInt8(ascii: "\\"):
                simple = false
                index += 1
                guard let e = peek else { continue }
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    let unit = try hex4()
                    // A UTF-16 surrogate must come in a high-low pair: alone it is no character
                    // (Foundation's reader refuses it too; found by fuzzing).
                    if (0xDC00...0xDFFF).contains(unit) { throw fail("an unpaired surrogate \\u\(String(unit, radix: 16))") }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("an unpaired surrogate \\u\(String(unit, radix: 16))") }
                        index += 2
                        guard (0xDC00...0xDFFF).contains(try hex4()) else {
                            throw fail("an unpaired surrogate \\u\(String(unit, radix: 16))")
                        }
                    }
                default: throw fail("unknown escape \\\(Character(UnicodeScalar(e)))")
                }
            case 0..<0x20: throw fail("a control character inside text must be escaped")
            case 0x80...:
                try utf8Sequence()
            default: index += 1
            }
        }
    }

    /// Four hexadecimal digits, as a UTF-16 code unit.
    mutating func hex4() throws(Failure) -> Int {
        let value = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.hex4(in: bytes, from: index) }
        index += 4
        return value
    }

    /// A step of the shared grammar, its mistake as this scanner's failure.
    func grammar<T>(_ step: () throws(JSONGrammar.Mistake) -> T) throws(Failure) -> T {
        do { return try step() } catch { throw Failure(offset: error.offset, problem: error.problem) }
    }

    /// One multi-byte UTF-8 character, well formed (no overlongs, surrogates or > U+10FFFF).
    mutating func utf8Sequence() throws(Failure) {
        let lead = bytes[index]
        let (count, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (1, 0x80, 0xBF)
            case 0xE0: (2, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (2, 0x80, 0xBF)
            case 0xED: (2, 0x80, 0x9F)
            case 0xF0: (3, 0x90, 0xBF)
            case 0xF1...0xF3: (3, 0x80, 0xBF)
            case 0xF4: (3, 0x80, 0x8F)
            default: throw fail("bytes that are not UTF-8")
            }
        for k in 1...count {
            let i = index + k
            guard i < bytes.count, bytes[i] >= (k == 1 ? low : 0x80), bytes[i] <= (k == 1 ? high : 0xBF) else {
                throw fail("bytes that are not UTF-8")
            }
        }
        index += count + 1
    }

    mutating func number() throws(Failure) {
        let start = index
        index = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.numberEnd(in: bytes, from: start) }
        if hugeNumber == nil {
            let literal = String(decoding: bytes[start..<index], as: UTF8.self)
            if !(Double(literal)?.isFinite ?? false) { hugeNumber = (start, literal) }
        }
    }

    mutating func literal(_ word: String) throws(Failure) {
        let start = index
        index = try grammar { () throws(JSONGrammar.Mistake) in try JSONGrammar.literalEnd(word, in: bytes, from: start) }
    }
}
