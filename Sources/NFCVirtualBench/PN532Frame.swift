/// A frame on a PN532's host link (UART "HSU"), as in the PN532 User Manual §6.2.
public enum PN532Frame: Sendable, Hashable {
    /// `00 00 FF 00 FF 00`. From the host it also aborts the running command.
    case ack
    /// `00 00 FF FF 00 00`: "send that again".
    case nack
    /// `00 00 FF 01 FF 7F 81 00`: application-level error (syntax error).
    case applicationError
    /// TFI (`D4` host->chip, `D5` chip->host) and the data, whose first byte is the
    /// command code (response code = command + 1).
    case information(tfi: UInt8, data: [UInt8])

    public static let hostToChip: UInt8 = 0xD4
    public static let chipToHost: UInt8 = 0xD5

    public func encoded() -> [UInt8] {
        switch self {
        case .ack: return [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
        case .nack: return [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
        case .applicationError: return [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00]
        case .information(let tfi, let data):
            let length = data.count + 1
            var out: [UInt8] = [0x00, 0x00, 0xFF]
            if length <= 255 {
                out += [UInt8(length), UInt8((256 - length) & 0xFF)]
            } else {
                let hi = UInt8(length >> 8), lo = UInt8(length & 0xFF)
                out += [0xFF, 0xFF, hi, lo, UInt8((256 - Int(hi &+ lo)) & 0xFF)]
            }
            out.append(tfi)
            out += data
            let sum = data.reduce(tfi) { $0 &+ $1 }
            out += [0 &- sum, 0x00]
            return out
        }
    }
}

/// Splits a byte stream into frames. Bytes before a start code (wake-up `55 55 00 ...`,
/// line noise) are skipped; a frame with a bad checksum is reported and skipped, so
/// the stream resynchronises on the next start code.
public struct PN532FrameDecoder: Sendable {
    public enum Event: Sendable, Hashable {
        case frame(PN532Frame)
        case corrupt(String)
    }

    private var buffer: [UInt8] = []

    public init() {}

    public mutating func append(_ bytes: some Sequence<UInt8>) { buffer.append(contentsOf: bytes) }

    /// The next complete event, or `nil` until more bytes arrive.
    public mutating func next() -> Event? {
        while true {
            guard let start = startCode() else {
                // Keep a trailing 00 that may begin the next start code.
                buffer = buffer.last == 0x00 ? [0x00] : []
                return nil
            }
            if start > 0 { buffer.removeFirst(start) }
            // buffer: 00 FF LEN LCS ...
            guard buffer.count >= 4 else { return nil }
            let len = buffer[2], lcs = buffer[3]
            if len == 0x00 && lcs == 0xFF { consume(4, postamble: true); return .frame(.ack) }
            if len == 0xFF && lcs == 0x00 { consume(4, postamble: true); return .frame(.nack) }
            if len == 0x01 && lcs == 0xFF {
                guard buffer.count >= 6 else { return nil }
                consume(6, postamble: true)
                return .frame(.applicationError)
            }
            var header = 4, length = Int(len)
            if len == 0xFF && lcs == 0xFF {
                guard buffer.count >= 7 else { return nil }
                length = Int(buffer[4]) << 8 | Int(buffer[5])
                guard (Int(buffer[4]) + Int(buffer[5]) + Int(buffer[6])) & 0xFF == 0 else {
                    buffer.removeFirst(2)
                    return .corrupt("extended length checksum mismatch")
                }
                header = 7
            } else if (Int(len) + Int(lcs)) & 0xFF != 0 {
                buffer.removeFirst(2)
                return .corrupt("length checksum mismatch")
            }
            // An information frame carries at least its TFI and a command code; a shorter one
            // (an extended frame of length 1, found by fuzzing) would read back as the
            // application-error frame.
            guard length >= 2 else { buffer.removeFirst(2); return .corrupt("a frame without a TFI and command code") }
            guard buffer.count >= header + length + 1 else { return nil }
            let body = Array(buffer[header..<(header + length)])
            let dcs = buffer[header + length]
            consume(header + length + 1, postamble: true)
            guard body.reduce(dcs, &+) == 0 else { return .corrupt("data checksum mismatch") }
            return .frame(.information(tfi: body[0], data: Array(body.dropFirst())))
        }
    }

    private func startCode() -> Int? {
        guard buffer.count >= 2 else { return nil }
        for i in 0..<(buffer.count - 1) where buffer[i] == 0x00 && buffer[i + 1] == 0xFF { return i }
        return nil
    }

    private mutating func consume(_ count: Int, postamble: Bool) {
        buffer.removeFirst(min(count, buffer.count))
        if postamble, buffer.first == 0x00, !(buffer.count >= 2 && buffer[1] == 0xFF) { buffer.removeFirst() }
    }
}
