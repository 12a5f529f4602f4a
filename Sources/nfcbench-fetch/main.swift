// nfcbench-fetch: the HTTP half of nfcbench's remote catalog, in its own process so the
// main binary does not load libcurl at every start. See HelperProcessFetcher for the
// protocol: the request arrives on standard input, never as arguments (a catalog URL may
// carry a token). Not meant to be run by hand.
import Foundation
import NFCCatalogHTTP
import NFCCatalogRemote

// At most 64 KiB of request: a URL and a few numbers.
let input = FileHandle.standardInput.readData(ofLength: 65_536)
guard CommandLine.arguments.count == 1, let request = HelperRequest.read(input) else {
    FileHandle.standardError.write(Data("usage: nfcbench-fetch < request (one JSON line; see HelperProcessFetcher)\n".utf8))
    exit(64)
}
func header(_ object: [String: Any]) -> Data {
    (try! JSONSerialization.data(withJSONObject: object)) + Data("\n".utf8)
}
let limits = FetchLimits(
    connectTimeout: request.connectTimeout, totalTimeout: request.totalTimeout, maxBytes: request.maxBytes)
var output = Data()
do throws(RemoteCatalogError) {
    // The main process has already applied the HTTPS policy; the helper only fetches.
    guard let url = URL(string: request.url) else { throw RemoteCatalogError.invalidURL(request.url) }
    switch try await HTTPCatalogFetcher(limits: limits).fetch(url, etag: request.etag) {
    case .fetched(let body, let etag):
        output = header(["status": "fetched", "etag": etag as Any]) + body
    case .notModified:
        output = header(["status": "notModified"])
    }
} catch {
    output = header(["status": "error", "kind": error.kind, "detail": error.detail])
}
FileHandle.standardOutput.write(output)
