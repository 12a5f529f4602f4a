import Foundation
import Testing

@testable import NFCBench

@Suite("CSV cell formatting")
struct CSVFormatTests {
    @Test(arguments: [0.0, 1, 59, 86_399, 86_400, 951_782_400, 1_709_164_800, 1_764_433_220, 4_102_444_799, 253_402_300_799])
    func iso8601MatchesFoundation(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(CSVFormat.iso8601(date) == date.formatted(.iso8601))
    }

    @Test(arguments: [
        (0.0, 4, "0.0000"), (0.5, 4, "0.5000"), (0.16666, 4, "0.1667"), (1, 4, "1.0000"),
        (42.55, 1, "42.5"), (0.125, 2, "0.12"), (2.675, 2, "2.67"), (0.04, 1, "0.0"), (123.0, 1, "123.0"), (0.99996, 4, "1.0000"),
    ])
    func fixedPoint(value: Double, digits: Int, text: String) {
        #expect(FixedPoint.format(value, digits) == text)
        #expect(FixedPoint.format(value, digits) == String(format: "%.\(digits)f", value))
    }

    @Test(arguments: [
        ("=1+1", "'=1+1"), ("+49", "'+49"), ("-x", "'-x"), ("@a", "'@a"), ("\tx", "'\tx"), ("\rx", "'\rx"),
        (" =1+1", "' =1+1"), ("\n=cmd", "'\n=cmd"), ("  \r\n@SUM(A1)", "'  \r\n@SUM(A1)"), ("\nplain", "'\nplain"),
        ("a=b", "a=b"), ("  ok", "  ok"), ("ok", "ok"), ("", ""),
    ])
    func formulaPrefixesAreNeutralised(input: String, output: String) {
        #expect(CSVFormat.text(input) == output)
    }

    @Test(arguments: [
        ("a,b", "\"a,b\""), ("say \"hi\"", "\"say \"\"hi\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("cr\r", "\"cr\r\""), ("plain", "plain"),
    ])
    func rfc4180Quoting(input: String, output: String) {
        #expect(CSVFormat.quote(input) == output)
    }

    /// Found by fuzzing (Fuzz/corpus/csv-cell/regression-combining-quote): a quote followed
    /// by a combining mark is one Character, and Character-level replacement left it
    /// single, ending the cell's quoting early.
    @Test func aQuoteWithACombiningMarkIsDoubled() {
        let value = "\"\u{07A8}x,\"y"
        #expect(CSVFormat.quote(value) == "\"\"\"\u{07A8}x,\"\"y\"")
        #expect(CSVFormat.quote(value).unicodeScalars.filter { $0 == "\"" }.count == 6)
    }
}
