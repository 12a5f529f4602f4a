import Foundation
import NFCReaders

/// What the emulated tag says in tag mode. By default a URI naming the session and the
/// position under `.invalid`, a top-level domain reserved never to resolve (RFC 2606), so
/// a phone that opens it goes nowhere; `--ndef-uri` / `--ndef-text` choose another.
public enum TagContent {
    public static func `default`(session: String, position: Int) -> NDEFMessage {
        NDEFMessage([.uri("https://nfcbench.invalid/\(session)/\(position + 1)")])
    }
}
