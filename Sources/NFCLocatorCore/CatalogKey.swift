/// The one normalization shared by the catalog side and fingerprint providers:
/// lowercase, and every run of characters that are not ASCII letters or digits
/// becomes a single `_`. Leading and trailing runs become `_` too, so the mapping
/// stays injective enough to tell `" x"` from `"x"`; real identifiers have none.
///
/// `iPhone15,2` -> `iphone15_2`, `SM-S921B` -> `sm_s921b`, `Pixel 8` -> `pixel_8`.
public enum CatalogKey {
    public static func normalize(_ raw: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(raw.utf8.count)
        var inSeparatorRun = false
        for byte in raw.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
                inSeparatorRun = false
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                out.append(byte | 0x20)
                inSeparatorRun = false
            default:
                // Multi-byte UTF-8 sequences are non-alphanumeric here, as a whole run.
                if !inSeparatorRun { out.append(UInt8(ascii: "_")) }
                inSeparatorRun = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
