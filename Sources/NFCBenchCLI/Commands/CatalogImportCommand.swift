import Foundation
import NFCBench
import NFCLocatorCore

/// `nfcbench catalog import` and `nfcbench catalog diff`.
enum CatalogImportCommand {
    static let importSpec = CommandSpec(
        "import", abstract: "Turn third-party antenna data into a catalog patch (unverified rows with provenance).",
        discussion: """
            gematik: nfc_positions.json from gematik/NfcLocalization-Android (x0,y0,x1,y1 fractions; degenerate rows skipped).
            android-antenna-info: {"devices":[{"model","manufacturer","deviceWidthMm","deviceHeightMm","foldable","antennas":[{"xMm","yMm"}]}]},
            points facing the screen, mirrored to the back; --origin top-left (Android 14, default) or bottom-left.
            Use the patch with --catalog PATCH; it is laid over the seed catalog.
            """,
        arguments: [ArgumentSpec("file", help: "The third-party file.")],
        options: [format.spec, output.spec, origin.spec, pointSize.spec],
        handler: importFile)

    static let diffSpec = CommandSpec(
        "diff", abstract: "Compare two catalogs or patches per model: zone IoU and centre shift.",
        discussion: "Either argument may be 'seed' for the shipped seed catalog.",
        arguments: [
            ArgumentSpec("a", help: "First catalog file (or 'seed')."),
            ArgumentSpec("b", help: "Second catalog file (or 'seed')."),
        ],
        options: [diffJSON.spec],
        handler: diff)

    enum Format: String, Sendable { case gematik, androidAntennaInfo = "android-antenna-info" }

    static let format = Option<Format>(
        "--format", value: "gematik|android-antenna-info", help: "The file's format.", required: true,
        expected: "gematik or android-antenna-info", choices: ["gematik", "android-antenna-info"],
        convert: OptionValue.choice(Format.self))
    static let output = Option<String>(
        "--output", short: "o", value: "patch", help: "Write the patch here (default: standard output).")
    static let origin = Option<CatalogImport.AndroidOrigin>(
        "--origin", value: "top-left|bottom-left", help: "android-antenna-info: where (0,0) is, facing the screen.",
        expected: "top-left or bottom-left",
        choices: CatalogImport.AndroidOrigin.allCases.map(\.rawValue),
        convert: OptionValue.choice(CatalogImport.AndroidOrigin.self))
    static let pointSizes: ClosedRange<Double> = 1...100
    static let pointSize = Option<Double>(
        "--point-size-mm", value: "mm", help: "android-antenna-info: side of the square zone around a point (default 20).",
        expected: "millimetres in \(OptionValue.describe(pointSizes))", convert: OptionValue.number(in: pointSizes))
    static let diffJSON = Flag("--json", help: "Print one JSON object.")

    static func importFile(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        let path = invocation.positionals[0]
        let format = invocation.required(Self.format)
        let destination = try invocation[output].map { try OutputPath.check($0, invocation, context) }
        let data = try InputFile.read(context.url(forPath: path), limit: CatalogImport.maximumInputBytes, what: "import")
        let result: CatalogImport.Result
        do {
            switch format {
            case .gematik:
                var ratios: [String: Double] = [:]
                if let seed = try? CatalogDocumentDecoder.load(contentsOf: context.resources().seedCatalogURL) {
                    for e in seed.entries { ratios[e.lookupKey()] = e.aspectRatio }
                }
                result = try CatalogImport.gematik(
                    data, source: URL(fileURLWithPath: path).lastPathComponent, aspectRatios: ratios)
            case .androidAntennaInfo:
                let origin = invocation[Self.origin] ?? .topLeft
                let size = invocation[pointSize] ?? 20
                result = try CatalogImport.androidAntennaInfo(
                    data, source: URL(fileURLWithPath: path).lastPathComponent,
                    origin: origin, pointSizeMm: size)
            }
        } catch let error as CatalogImport.InputError {
            throw CommandFailure(
                "'\(path)' is \(error.description)", hint: "See 'nfcbench catalog import --help' for the expected layout.")
        }
        for row in result.skipped { context.errors.line("skipped row \(row.index + 1) (\(row.key ?? "?")): \(row.reason)") }
        context.errors.line("imported \(result.document.entries.count) model(s), skipped \(result.skipped.count) row(s)")
        if let destination {
            // A file is replaced only once complete: an old patch is never left half-replaced.
            try await OutputPath.write(destination) { try write(result.document, to: $0) }
        } else {
            try write(
                result.document, to: ExportSink(descriptor: FileHandle.standardOutput.fileDescriptor, name: "standard output"))
        }
        return ExitCode.success
    }

    /// The patch, one entry per line, encoded an entry at a time: a whole-document
    /// encoder would hold every entry's tree at once (gigabytes for a large import).
    static func write(_ document: CatalogResponseDTO, to sink: ExportSink) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        try sink.append("{\"version\": \(try json(document.version)),\n")
        if let generatedAt = document.generatedAt { try sink.append("\"generatedAt\": \(try json(generatedAt)),\n") }
        try sink.append("\"entries\": [\n")
        for (i, entry) in document.entries.enumerated() {
            try sink.append((i == 0 ? "" : ",\n") + (try json(entry)))
        }
        try sink.append("\n]}\n")
        try sink.flush()
    }

    static func diff(_ invocation: ParsedInvocation, _ context: CommandContext) async throws -> Int32 {
        func load(_ name: String) throws -> Catalog {
            let url = name == "seed" ? try context.resources().seedCatalogURL : context.url(forPath: name)
            do { return Catalog(document: try CatalogDocumentDecoder.load(contentsOf: url)) } catch {
                throw CommandFailure(error.description, hint: "Check the file with 'nfcbench catalog validate \(name)'.")
            }
        }
        let a = try load(invocation.positionals[0]), b = try load(invocation.positionals[1])
        let comparison = CatalogComparison(a, b)
        if invocation[diffJSON] {
            context.output.line(
                JSONValue.object([
                    ("a", .string(invocation.positionals[0])), ("b", .string(invocation.positionals[1])),
                    (
                        "models",
                        .array(
                            comparison.rows.map { r in
                                .object([
                                    ("key", .string(r.key)), ("iou", .number((r.iou * 1000).rounded() / 1000)),
                                    ("centreShift", .number((r.centreShift * 1000).rounded() / 1000)),
                                ])
                            })
                    ),
                    ("onlyInA", .array(comparison.onlyInFirst.map(JSONValue.string))),
                    ("onlyInB", .array(comparison.onlyInSecond.map(JSONValue.string))),
                ]).serialized(pretty: true))
        } else {
            context.output.line("KEY             IOU    CENTRE SHIFT (body heights)")
            for r in comparison.rows {
                context.output.line(
                    r.key.padding(toLength: 16, withPad: " ", startingAt: 0)
                        + String(format: "%.2f   %.3f", r.iou, r.centreShift))
            }
            context.output.line(
                "\(comparison.rows.count) in both, \(comparison.onlyInFirst.count) only in A, \(comparison.onlyInSecond.count) only in B"
            )
        }
        return ExitCode.success
    }
}
