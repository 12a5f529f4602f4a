import Foundation

/// A file read whole, refused past `limit` bytes counted as they are read (a device or pipe
/// has no size to ask first): keys, signatures, published catalogs, and every file a
/// command reads whole (the CLI's `InputFile` words its errors).
public enum BoundedFile {
    public static func read(_ url: URL, limit: Int) throws(BoundedFileError) -> Data {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw BoundedFileError(path: url.path, reason: (error as NSError).localizedFailureReason ?? "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw BoundedFileError(path: url.path, reason: error.localizedDescription)
        }
        guard data.count <= limit else {
            throw BoundedFileError(
                path: url.path, reason: "it is larger than \(limit) bytes, too large for what it should be", tooLarge: true)
        }
        return data
    }
}

public struct BoundedFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String
    /// It holds more than the limit; nothing of it was used.
    public var tooLarge = false
    public var description: String { "cannot read '\(path)': \(reason)" }
}
