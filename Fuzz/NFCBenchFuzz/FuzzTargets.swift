import Foundation
import NFCBench
import NFCLocatorCore
import NFCReaders
import NFCVirtualBench

/// What each fuzz target feeds and what it checks beyond "no crash": an invariant that
/// fails with `fatalError`, which libFuzzer records as a crash with its input.
enum FuzzTargets {
    /// The PN532 frame decoder, fed in chunks whose sizes come from the input: every
    /// information frame it yields encodes back to bytes that decode to the same frame.
    static func pn532Frames(_ bytes: [UInt8]) {
        var decoder = PN532FrameDecoder()
        var offset = 0
        var chunk = max(1, Int(bytes.first ?? 1) % 16)
        while offset < bytes.count {
            decoder.append(bytes[offset..<min(bytes.count, offset + chunk)])
            offset += chunk
            chunk = chunk % 7 + 1
            while let event = decoder.next() {
                guard case .frame(let frame) = event, case .information = frame else { continue }
                var again = PN532FrameDecoder()
                again.append(frame.encoded())
                guard again.next() == event else { fatalError("frame \(frame) does not survive encoding") }
            }
        }
    }

    /// PC/SC ATRs and ISO 14443-4 ATSs from readers and phones.
    static func atrAndATS(_ bytes: [UInt8]) {
        if let info = ATRInfo(atr: bytes) {
            _ = info.summary
            guard bytes.suffix(info.historicalBytes.count + 1).dropLast().elementsEqual(info.historicalBytes) else {
                fatalError("historical bytes are not where the ATR carries them")
            }
        }
        let historical = ATRInfo.historicalBytes(ofATS: bytes)
        guard bytes.suffix(historical.count).elementsEqual(historical) else { fatalError("ATS historical bytes not a suffix") }
        if historical.count <= 15 {
            guard let back = ATRInfo(atr: ATRInfo.atr(historicalBytes: historical)), back.historicalBytes == historical,
                back.checksumValid
            else { fatalError("the ATR built from an ATS does not read back") }
        }
    }

    /// Catalog documents: decoded, validated, and every accepted row encodes back to a
    /// document that yields the same profile.
    static func catalog(_ bytes: [UInt8]) {
        guard let document = try? CatalogDocumentDecoder.decode(Data(bytes), origin: "fuzz") else { return }
        // What `catalog verify` reads without decoding must agree with the decode.
        guard let header = try? CatalogHeader.read(Data(bytes)) else { fatalError("the header refuses a catalog") }
        guard header.catalogVersion == document.catalogVersion, header.publication == document.publication,
            header.entryCount.map({ $0 == document.entries.count + document.undecodableRows.count }) ?? true
        else { fatalError("the header reads a catalog otherwise: \(header)") }
        let catalog = Catalog(document: document)
        guard let encoded = try? JSONEncoder().encode(catalog.document),
            let again = try? CatalogDocumentDecoder.decode(encoded, origin: "fuzz again")
        else { fatalError("a validated catalog does not encode and decode") }
        guard Catalog(document: again).profiles.map(\.lookupKey) == catalog.profiles.map(\.lookupKey) else {
            fatalError("validated rows change through encoding")
        }
    }

    /// Both importers: whatever they write passes catalog validation.
    static func importGematik(_ bytes: [UInt8]) {
        guard let result = try? CatalogImport.gematik(Data(bytes), source: "fuzz") else { return }
        checkValid(result)
    }

    static func importAndroid(_ bytes: [UInt8]) {
        guard let result = try? CatalogImport.androidAntennaInfo(Data(bytes), source: "fuzz") else { return }
        checkValid(result)
    }

    static func checkValid(_ result: CatalogImport.Result) {
        let catalog = Catalog(document: result.document)
        guard catalog.skippedRows.isEmpty else { fatalError("an import wrote rows validation rejects: \(catalog.skippedRows)") }
    }

    /// The CSV cell rules, round-tripped through an RFC 4180 reader: the cell reads back
    /// as the neutralised value, and never as a formula.
    static func csvCell(_ bytes: [UInt8]) {
        let value = String(decoding: bytes, as: UTF8.self)
        let cell = CSVFormat.cell(value)
        guard let read = CSVReader.single(cell) else { fatalError("cell \(cell.debugDescription) is not one RFC 4180 field") }
        guard read == CSVFormat.neutralised(value) else { fatalError("cell reads back as \(read.debugDescription)") }
        let first = read.unicodeScalars.first { !" \t\r\n".unicodeScalars.contains($0) }
        if let first, "=+-@".unicodeScalars.contains(first), read.unicodeScalars.first != "'" {
            fatalError("cell \(read.debugDescription) starts a formula")
        }
    }

    /// The JSON scanner against Foundation's reader: both accept or both refuse, but for
    /// Foundation's extra limits, its leniency about trailing commas, and its reading of a
    /// NUL byte as the end of the text (`1<NUL><junk>` is valid to it; found by fuzzing),
    /// its acceptance of a member name twice in one object, which the scanner refuses, and
    /// of a UTF-8 byte order mark before the text (found by fuzzing), which RFC 8259 lets a
    /// reader take or refuse and the scanner refuses, naming it.
    static func jsonText(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let text = JSONText(data)
        let ours = text.syntaxError() == nil
        _ = try? text.arrayElements()
        if ours && text.foundationLimit() != nil { return }
        let foundation = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
        if foundation == ours { return }
        let squeezed = bytes.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
        let trailingComma = zip(squeezed, squeezed.dropFirst()).contains { $0 == 0x2C && ($1 == 0x5D || $1 == 0x7D) }
        if foundation && !ours && (trailingComma || bytes.contains(0) || text.duplicateMember() != nil || bytes.starts(with: [0xEF, 0xBB, 0xBF])) {
            return
        }
        fatalError("JSONText says \(ours ? "valid" : "invalid"), Foundation \(foundation ? "valid" : "invalid")")
    }
}

/// A strict reader of one RFC 4180 field, for the CSV target.
enum CSVReader {
    static func single(_ cell: String) -> String? {
        let scalars = Array(cell.unicodeScalars)
        guard scalars.first == "\"" else {
            return scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" } ? nil : cell
        }
        var out = String.UnicodeScalarView()
        var i = 1
        while i < scalars.count {
            if scalars[i] == "\"" {
                if i + 1 < scalars.count && scalars[i + 1] == "\"" {
                    out.append("\"")
                    i += 2
                    continue
                }
                return i == scalars.count - 1 ? String(out) : nil
            }
            out.append(scalars[i])
            i += 1
        }
        return nil
    }
}
