import Foundation
import NFCLocatorCore
import Testing

@Suite("JSON text: positions, syntax errors and rows")
struct JSONTextTests {
    func error(_ text: String) -> JSONText.SyntaxError? { JSONText(Data(text.utf8)).syntaxError() }

    @Test(arguments: [
        #"{"a": [1, -2.5e3, 0, true, false, null, "x\"\\\/\b\f\n\r\t\u00e9"]}"#, #""\ud83d\ude00""#, "[]", "{}", " 0 ", #""é€😀""#,
        "[[[[]]]]",
    ])
    func validJSONHasNoError(_ text: String) {
        #expect(error(text) == nil, "\(text)")
    }

    @Test(arguments: [
        ("{\n  \"a\": 1,,\n}", 2, 10, "expected a member name"),
        ("[1, 2", 1, 6, "the text ends inside an array"),
        ("[01]", 1, 3, "expected , or ] after an element"),
        ("{\"a\" 1}", 1, 6, "expected : after a member name"),
        ("[1.]", 1, 4, "digits after its decimal point"),
        ("[\"tab\there\"]", 1, 6, "control character"),
        ("[\"\\x\"]", 1, 4, "unknown escape"),
        ("[1] [2]", 1, 5, "unexpected text after the JSON value"),
        ("[tru]", 1, 2, "expected true"),
        ("\"never closed", 1, 1, "never closed"),
        // Found by fuzzing: a lone surrogate is no character (Foundation refuses it too).
        ("\"\\ud800\"", 1, 8, "an unpaired surrogate \\ud800"),
        ("[\"\\udc00\"]", 1, 9, "an unpaired surrogate \\udc00"),
    ])
    func errorsSayWhereAndWhat(_ text: String, line: Int, column: Int, problem: String) throws {
        let e = try #require(error(text), "\(text)")
        #expect(e.line == line && e.column == column && e.problem.contains(problem), "\(text): \(e)")
    }

    /// Foundation keeps the first of two equal member names, Python, JavaScript and Go the
    /// last: a catalog with both means two zones.
    @Test func aMemberNameTwiceInOneObjectIsAnErrorWithBothLines() throws {
        let text = "{\"entries\": [{\"zoneX\": 0.1,\n \"zoneY\": 0.2,\n \"zoneX\": 0.5}]}"
        let e = try #require(JSONText(Data(text.utf8)).duplicateMember())
        #expect(e.line == 3 && e.column == 2 && e.problem.contains("\"zoneX\" appears twice") && e.problem.contains("line 1"))
        // The same name in sibling or nested objects is fine; other syntax errors are not duplicates.
        #expect(JSONText(Data(#"[{"a": 1}, {"a": 2, "b": {"a": 3}}]"#.utf8)).duplicateMember() == nil)
        #expect(JSONText(Data(#"[{"a": 1},]"#.utf8)).duplicateMember() == nil)
        // A trailing comma, which Foundation takes, does not hide one after it.
        #expect(JSONText(Data(#"{"x": [1,], "a": 1, "a": 2}"#.utf8)).duplicateMember() != nil)
        guard case .trailingComma(let comma) = JSONText(Data(#"{"x": [1,], "a": 1}"#.utf8)).strictReading() else {
            Issue.record("a trailing comma reads otherwise")
            return
        }
        #expect(comma.line == 1 && comma.column == 9 && comma.problem.contains("comma before the closing bracket"))
        // An escaped spelling of the same name is the same name.
        #expect(JSONText(Data(#"{"a": 1, "\u0061": 2}"#.utf8)).duplicateMember() != nil)
    }

    @Test func invalidUTF8IsAnError() throws {
        let e = try #require(JSONText(Data([0x5B, 0x22, 0xC3, 0x28, 0x22, 0x5D])).syntaxError())
        #expect(e.problem.contains("not UTF-8") && e.column == 3)
    }

    /// Nesting a million levels deep is reported, not a crash: the scanner keeps its own stack.
    @Test func hostileNestingDoesNotExhaustTheStack() {
        let deep = String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000)
        #expect(error(deep) == nil)
        #expect(JSONText(Data(deep.utf8)).foundationLimit() == "values nested 1000000 levels deep (the limit is 512)")
        #expect(error(String(repeating: "[", count: 1_000_000)) != nil)
    }

    @Test func rowsAreTheArrayElementsExactly() throws {
        let text = "[ {\"a\": [1, 2]}, 3 , \"x,]\" ,[[]] ]"
        let data = Data(text.utf8)
        let rows = try JSONText(data).arrayElements().map { String(decoding: data.subdata(in: $0), as: UTF8.self) }
        #expect(rows == ["{\"a\": [1, 2]}", "3", "\"x,]\"", "[[]]"])
        let keyed = Data("{\"other\": [9], \"devices\": [{\"m\": 1}, {}], \"after\": [7]}".utf8)
        let devices = try JSONText(keyed).arrayElements(under: "devices").map {
            String(decoding: keyed.subdata(in: $0), as: UTF8.self)
        }
        #expect(devices == ["{\"m\": 1}", "{}"])
        #expect(try JSONText(Data("[]".utf8)).arrayElements().isEmpty)
        #expect(throws: JSONText.SyntaxError.self) { try JSONText(Data("{\"x\": []}".utf8)).arrayElements(under: "devices") }
        #expect(throws: JSONText.SyntaxError.self) { try JSONText(Data("{}".utf8)).arrayElements() }
    }

    /// Differential check against Foundation's reader on mutated documents: where
    /// Foundation has no extra limit, both accept or both refuse, except that Foundation
    /// also accepts a trailing comma, which the RFC (and this scanner) refuses, and a member
    /// name twice in one object, which readers in other languages read differently.
    @Test func agreesWithFoundationOnMutatedDocuments() {
        let base = Array(#"{"entries": [{"x": 0.5, "y": -1e-3, "s": "a\u00e9\n", "ok": true}, [null, 12]], "n": 0}"#.utf8)
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-tfnulrs"#.utf8)
        var disagreements: [String] = []
        for bytes in SplitMix.mutations(of: base, alphabet: alphabet, seed: 2026, count: 20_000) {
            let data = Data(bytes)
            let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
            let ours = JSONText(data).syntaxError() == nil && JSONText(data).foundationLimit() == nil
            let squeezed = String(decoding: bytes.filter { $0 != 0x20 }, as: UTF8.self)
            let trailingComma = squeezed.contains(",]") || squeezed.contains(",}")
            let duplicate = JSONText(data).duplicateMember() != nil
            if foundation != ours && !(foundation && (trailingComma || duplicate)) {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}

/// A fixed-seed generator, so the mutated documents are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix {
    /// `count` copies of `base`, each with one to three bytes replaced, removed or
    /// inserted (from `alphabet`), the same on every run for one `seed`.
    static func mutations(of base: [UInt8], alphabet: [UInt8], seed: UInt64, count: Int) -> [[UInt8]] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let i = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[i] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &generator)!, at: i)
                }
            }
            return bytes
        }
    }
}
