import Foundation
import Testing

@testable import NFCBench

/// The export writes numbers and timestamps digit by digit into its sink; they must read
/// exactly as the String forms the rest of the program prints.
@Suite("CSV cells written digit by digit")
struct CSVDigitsTests {
    @Test func timestampsMatchTheirStringForm() throws {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [
            0, -0.0004, -1, 0.9995, 1_764_000_000, 1_764_000_000.0005, 253_402_300_799.999, -62_135_596_800, 1e15, -1e12,
        ]
        let samples = edges + (0..<5000).map { _ in Double.random(in: -4e10...4e11, using: &generator) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: seconds)
            var bytes: [UInt8] = []
            CSVFormat.appendMilliseconds(date, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == CSVFormat.iso8601Milliseconds(date), "\(seconds)")
        }
    }

    @Test func integersMatchTheirStringForm() {
        for value in [0, 7, 10, 99, 1000, -1, -305, Int.max, Int.min + 1]
            + (0..<2000).map({ _ in Int.random(in: -1_000_000...1_000_000) })
        {
            var bytes: [UInt8] = []
            CSVFormat.appendDecimal(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }

    @Test func fixedPointMatchesItsStringForm() {
        let edges: [Double] = [0, -0, 0.5, 0.00005, -0.00005, 0.12345, 0.99995, 1.25, -1.25, 1e16, -3.14159, 42.05, 0.1 + 0.2]
        for value in edges + (0..<3000).map({ _ in Double.random(in: -2000...2000) }) {
            for digits in [1, 3, 4] {
                var bytes: [UInt8] = []
                FixedPoint.append(value, digits, to: &bytes)
                #expect(String(decoding: bytes, as: UTF8.self) == FixedPoint.format(value, digits), "\(value) \(digits)")
            }
        }
    }

    /// Text cells: neutralised and quoted byte by byte exactly as `quote(text(_:))` does
    /// with Strings, hostile ones included.
    @Test func textCellsMatchTheirStringForm() {
        let hostile = [
            "", "04A2", "=1+1", " \t=cmd", "\n@x", "\tab", "-5", "+", "a,b", "say \"hi\"", "line\r\nbreak", "\"\u{301}",
            "é=", " é", "@", "plain", "\u{1B}[31mred", "💳,\"", "\r", " \n ",
        ]
        for value in hostile {
            var bytes: [UInt8] = []
            CSVFormat.appendQuoted(value, neutralising: true, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == CSVFormat.quote(CSVFormat.text(value)), "\(value.debugDescription)")
            var plain: [UInt8] = []
            CSVFormat.appendQuoted(value, neutralising: false, to: &plain)
            #expect(String(decoding: plain, as: UTF8.self) == CSVFormat.quote(value), "\(value.debugDescription)")
        }
    }
}
