// nfcbench-fetch: the HTTP half of nfcbench's remote catalog, in its own process so the
// main binary does not load libcurl at every start. See HelperProcessFetcher for the
// protocol. Not meant to be run by hand.
import Foundation
import NFCCatalogHTTP
import NFCCatalogRemote

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let key = arguments.popFirst() {
    guard key.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(
            Data("usage: nfcbench-fetch --url U [--etag E] --connect-timeout S --total-timeout S --max-bytes N\n".utf8))
        exit(64)
    }
    options[String(key.dropFirst(2))] = value
}
func header(_ object: [String: Any]) -> Data {
    (try! JSONSerialization.data(withJSONObject: object)) + Data("\n".utf8)
}
guard let url = options["url"] else { exit(64) }
let limits = FetchLimits(
    connectTimeout: options["connect-timeout"].flatMap(Double.init) ?? 2,
    totalTimeout: options["total-timeout"].flatMap(Double.init) ?? 3,
    maxBytes: options["max-bytes"].flatMap(Int.init) ?? 5 * 1_048_576)
var output = Data()
do {
    // The main process has already applied the HTTPS policy; the helper only fetches.
    let endpoint = try CatalogEndpoint(url.replacingOccurrences(of: "/v1/catalog", with: ""), allowInsecureHTTP: true)
    switch try await HTTPCatalogFetcher(limits: limits).fetch(endpoint, etag: options["etag"]) {
    case .fetched(let body, let etag):
        output = header(["status": "fetched", "etag": etag as Any]) + body
    case .notModified:
        output = header(["status": "notModified"])
    }
} catch {
    output = header(["status": "error", "kind": error.kind, "detail": error.detail])
}
FileHandle.standardOutput.write(output)
