/// An NDEF message (NFC Forum NDEF 1.0) of well-known records, encoded for a Type 4 tag's
/// NDEF file: what a bench emulating a tag gives a phone's reader to read.
public struct NDEFMessage: Sendable, Equatable {
    public enum Record: Sendable, Equatable {
        /// RTD URI 1.0: the longest standard prefix becomes its one-byte code.
        case uri(String)
        /// RTD Text 1.0, UTF-8, with an IANA language code.
        case text(String, language: String)
    }

    public let records: [Record]

    public init(_ records: [Record]) {
        precondition(!records.isEmpty, "an NDEF message holds at least one record")
        self.records = records
    }

    /// The message's bytes: records in order, the first flagged MB and the last ME; short
    /// records (SR, one length byte) when the payload fits 255 bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        for (index, record) in records.enumerated() {
            let (type, payload) = Self.typeAndPayload(record)
            var header: UInt8 = 0x01  // TNF: NFC Forum well-known type
            if index == 0 { header |= 0x80 }  // MB
            if index == records.count - 1 { header |= 0x40 }  // ME
            let short = payload.count <= 255
            if short { header |= 0x10 }  // SR
            out.append(header)
            out.append(UInt8(type.count))
            if short {
                out.append(UInt8(payload.count))
            } else {
                let n = UInt32(payload.count)
                out += [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            }
            out += type
            out += payload
        }
        return out
    }

    static func typeAndPayload(_ record: Record) -> (type: [UInt8], payload: [UInt8]) {
        switch record {
        case .uri(let uri):
            let (code, rest) = uriPrefix(of: uri)
            return ([UInt8(ascii: "U")], [code] + Array(rest.utf8))
        case .text(let text, let language):
            let lang = Array(language.utf8)
            precondition(lang.count < 64, "a language code is shorter than 64 bytes")
            return ([UInt8(ascii: "T")], [UInt8(lang.count)] + lang + Array(text.utf8))
        }
    }

    /// RTD URI 1.0's abbreviation table; code 0 is no abbreviation.
    public static let uriPrefixes: [String] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:", "ftp://anonymous:anonymous@",
        "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://", "dav://", "news:", "telnet://", "imap:",
        "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://",
        "irdaobex://", "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The longest prefix of the table that `uri` starts with, and what follows it.
    static func uriPrefix(of uri: String) -> (code: UInt8, rest: Substring) {
        var best = 0
        for (code, prefix) in uriPrefixes.enumerated() where code > 0 && uri.hasPrefix(prefix) {
            if prefix.count > uriPrefixes[best].count { best = code }
        }
        return (UInt8(best), uri.dropFirst(uriPrefixes[best].count))
    }

    /// The URI a bench tag carries by default: the session and position, under the
    /// reserved `.invalid` domain (RFC 2606), so a phone that opens it reaches nothing.
    public static func benchURI(session: String, position: Int) -> String {
        let safe = session.unicodeScalars.filter {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
        }
        return "https://nfcbench.invalid/s/\(String(String.UnicodeScalarView(safe)))/p/\(position)"
    }
}
