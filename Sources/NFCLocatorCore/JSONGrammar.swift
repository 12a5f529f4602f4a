/// The pieces of RFC 8259's grammar `JSONText`'s scanner walks: what a number, a literal
/// or a `\u` escape is.
enum JSONGrammar {
    /// What is wrong, and at which byte.
    struct Mistake: Error {
        let offset: Int
        let problem: String
    }

    /// The end of the number that starts at `start`:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func numberEnd(in bytes: [UInt8], from start: Int) throws(Mistake) -> Int {
        var index = start
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        func next(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
        if next(UInt8(ascii: "-")) { index += 1 }
        if next(UInt8(ascii: "0")) {
            index += 1
        } else if digits() == 0 {
            throw Mistake(offset: start, problem: "a number needs digits")
        }
        if next(UInt8(ascii: ".")) {
            index += 1
            guard digits() > 0 else { throw Mistake(offset: index, problem: "a number needs digits after its decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if next(UInt8(ascii: "+")) || next(UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw Mistake(offset: index, problem: "a number needs digits in its exponent") }
        }
        return index
    }

    /// The end of `word` (`true`, `false`, `null`) written at `start`.
    static func literalEnd(_ word: String, in bytes: [UInt8], from start: Int) throws(Mistake) -> Int {
        var index = start
        for expected in word.utf8 {
            guard index < bytes.count, bytes[index] == expected else {
                throw Mistake(offset: start, problem: "expected \(word)")
            }
            index += 1
        }
        return index
    }

    /// The UTF-16 code unit written as four hexadecimal digits at `start` (after `\u`).
    static func hex4(in bytes: [UInt8], from start: Int) throws(Mistake) -> Int {
        var value = 0
        for index in start..<(start + 4) {
            let digit: UInt8
            switch index < bytes.count ? bytes[index] : 0 {
            case let h where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(h): digit = h - UInt8(ascii: "0")
            case let h where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(h): digit = h - UInt8(ascii: "a") + 10
            case let h where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(h): digit = h - UInt8(ascii: "A") + 10
            default: throw Mistake(offset: index, problem: "\\u needs four hexadecimal digits")
            }
            value = value << 4 | Int(digit)
        }
        return value
    }
}
