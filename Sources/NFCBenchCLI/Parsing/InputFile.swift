import Foundation

/// Files a command reads whole, refused over a stated size before any byte is read, so a
/// wrong path (a disk image, a log) never takes the machine's memory.
enum InputFile {
    static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw CommandFailure(
                "Cannot read '\(url.path)': \((error as NSError).localizedFailureReason ?? "no such file")",
                hint: "Check the path.")
        }
        defer { try? handle.close() }
        // Read one byte past the limit: pipes and devices have no size to ask first.
        let data: Data
        do { data = try handle.read(upToCount: limit + 1) ?? Data() } catch {
            throw CommandFailure("Cannot read '\(url.path)': \(error.localizedDescription)", hint: "Check the path.")
        }
        guard data.count <= limit else {
            throw CommandFailure(
                "'\(url.path)' is larger than \(InputFile.size(limit)), the limit for \(what) files; it was not used.",
                hint: "Check the path; split a larger file.")
        }
        return data
    }

    /// A limit in words: "64 MiB", "64 KiB", never "0 MB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}
