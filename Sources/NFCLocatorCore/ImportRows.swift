import Foundation

/// The loop both importers share: rows decoded one at a time (memory stays proportional
/// to the input), each problem skipped with its row, line and reason, each model written
/// once, and only rows `catalog validate` accepts, so no import writes a patch it rejects.
final class ImportRows<Row: Decodable> {
    private(set) var entries: [CatalogEntryDTO] = []
    private(set) var skipped: [SkippedCatalogRow] = []
    private var firstRow: [String: Int] = [:]
    private var current = (index: 0, line: 1)

    /// Calls `body` with every row of `rows` (byte ranges of `data`) that decodes.
    func each(in data: Data, rows: [Range<Int>], _ body: (Row) -> Void) {
        let lines = LineIndex(data)
        let decoder = JSONDecoder()
        for (index, range) in rows.enumerated() {
            current = (index, lines.line(of: range.lowerBound))
            let slice = data.subdata(in: range)
            do { body(try decoder.decode(Row.self, from: slice)) } catch {
                skip(nil, CatalogImport.rowProblem(error, slice) + "; not imported")
            }
        }
    }

    /// Skips (part of) the current row.
    func skip(_ key: String?, _ reason: String) {
        skipped.append(SkippedCatalogRow(index: current.index, key: key, reason: "line \(current.line): \(reason)"))
    }

    /// `true` the first time a model's lookup key is seen; later rows are skipped.
    func claim(_ model: String, shownAs name: String) -> Bool {
        let key = CatalogKey.normalize(model)
        if let first = firstRow[key] {
            skip(name, "model '\(model)' was already imported from row \(first); the first is kept")
            return false
        }
        firstRow[key] = current.index + 1
        return true
    }

    func append(_ entry: CatalogEntryDTO) {
        do {
            _ = try DeviceAntennaProfile(entry: entry)
            entries.append(entry)
        } catch {
            skip(entry.modelIdentifier, "the imported row fails catalog validation: \(error.reason)")
        }
    }
}
