import Testing

@testable import NFCBenchCLI

/// What the one reader of standard input makes of the bytes a terminal or a script sends.
@Suite("Keyboard decoding")
struct KeyboardDecodingTests {
    static func keys(_ bytes: [UInt8]) -> [Keyboard.Key] {
        var decoder = KeyDecoder()
        return bytes.compactMap { decoder.feed($0) }
    }

    @Test func arrowsAndPageKeysAreDecodedAndOtherBytesPassThrough() {
        let escape: UInt8 = 0x1B
        let bytes: [UInt8] =
            [escape] + Array("[A".utf8) + [escape] + Array("[B".utf8) + [escape] + Array("[C".utf8) + [escape]
            + Array("[D".utf8) + [escape] + Array("[5~".utf8) + [escape] + Array("[6~".utf8) + Array("a1q".utf8)
        #expect(
            Self.keys(bytes) == [
                .up, .down, .right, .left, .pageUp, .pageDown, .byte(UInt8(ascii: "a")), .byte(UInt8(ascii: "1")),
                .byte(UInt8(ascii: "q")),
            ])
    }

    /// A sequence no command uses (F5: ESC [ 1 5 ~) is dropped whole, not typed as keys.
    @Test func anUnusedSequenceIsDroppedWhole() {
        #expect(Self.keys([0x1B] + Array("[15~s".utf8)) == [.byte(UInt8(ascii: "s"))])
        #expect(Self.keys([0x1B] + Array("[1;5Ar".utf8)) == [.byte(UInt8(ascii: "r"))])
        #expect(Self.keys([0x1B] + Array("[Zs".utf8)) == [.byte(UInt8(ascii: "s"))])
        #expect(Self.keys([0x1B] + Array("xs".utf8)) == [.byte(UInt8(ascii: "x")), .byte(UInt8(ascii: "s"))])
    }

    @Test func linesEndAtLineFeedWithOrWithoutCarriageReturn() {
        var decoder = LineDecoder()
        let lines = Array("r\n\ns\r\nquit".utf8).compactMap { decoder.feed($0) }
        #expect(lines == ["r", "", "s"])
        #expect(decoder.finish() == "quit")
        #expect(decoder.finish() == nil)
    }

    @Test func typedWordsAreTheOperatorsCommands() {
        #expect(OperatorKeys.command("") == .proceed && OperatorKeys.command("R") == .retry)
        #expect(OperatorKeys.command(" skip ") == .skip && OperatorKeys.command("q") == .quit)
        #expect(OperatorKeys.command("x") == nil)
    }
}
