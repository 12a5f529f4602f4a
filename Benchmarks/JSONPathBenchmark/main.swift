// What a command reads at start, the way it reads it: the catalog decoded by one reader,
// validated into a Catalog and one model resolved, and the strings file read into a
// StringCatalog, then exit. bench/json-path times whole processes of each reader: the
// cost is mostly first-time generic instantiation, paid once per process, so only a
// fresh process measures it, and in a binary that links the CLI as nfcbench does, so
// that each instantiation scans as many protocol conformances as nfcbench's would.
//   JSONPathBenchmark tree|foundation|none CATALOG STRINGS
import Foundation
import NFCBenchCLI
@_spi(JSONPaths) import NFCLocatorCore

/// The strings file as `Decodable` would read it, were the hand-written reader deleted.
struct StringsFile: Decodable {
    struct Unit: Decodable { let value: String }
    struct Other: Decodable { let stringUnit: Unit? }
    struct Plural: Decodable { let other: Other? }
    struct Variations: Decodable { let plural: Plural? }
    struct Localization: Decodable {
        let stringUnit: Unit?
        let variations: Variations?
    }
    struct Entry: Decodable { let localizations: [String: Localization]? }
    let sourceLanguage: String
    let strings: [String: Entry]

    var catalog: StringCatalog {
        StringCatalog(
            table: strings.mapValues { entry in
                (entry.localizations ?? [:]).compactMapValues {
                    $0.stringUnit?.value ?? $0.variations?.plural?.other?.stringUnit?.value
                }
            }, sourceLanguage: sourceLanguage)
    }
}

func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else { fail("usage: JSONPathBenchmark tree|foundation|none CATALOG STRINGS", 64) }
guard let data = FileManager.default.contents(atPath: arguments[2]),
    let stringsData = FileManager.default.contents(atPath: arguments[3])
else { fail("cannot read \(arguments[2]) or \(arguments[3])", 1) }
let reader: CatalogDocumentDecoder.Reader
switch arguments[1] {
case "tree": reader = .tree
case "foundation": reader = .foundation
case "none":
    // The baseline: the same process reading the same bytes, decoding nothing.
    print(data.count + stringsData.count)
    exit(0)
default: fail("unknown reader \(arguments[1])", 64)
}
do {
    let catalog = Catalog(document: try CatalogDocumentDecoder.decode(data, origin: arguments[2], reader: reader))
    let resolver = AntennaZoneResolver(remote: nil, seed: catalog)
    let fingerprint = ModelIdentifierFingerprintProvider(modelIdentifier: "SM-S921B").fingerprint()
    let resolution = resolver.resolve(fingerprint, signals: .inferred(from: fingerprint, model: "SM-S921B"))
    let strings =
        reader == .tree
        ? try StringCatalog.parse(stringsData) : try JSONDecoder().decode(StringsFile.self, from: stringsData).catalog
    print(catalog.profiles.count, resolution.confidence, strings.keys.count, strings.string(strings.keys[0]))
    print(CommandLineTool.version)
} catch {
    fail("\(error)", 1)
}
