import Foundation
import NFCBenchUseCases

/// Files a command reads whole, refused over a stated size before any byte is read, so a
/// wrong path (a disk image, a log) never takes the machine's memory.
enum InputFile {
    static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        do throws(BoundedFileError) {
            return try BoundedFile.read(url, limit: limit)
        } catch  where error.tooLarge {
            throw CommandFailure(
                "'\(url.path)' is larger than \(InputFile.size(limit)), the limit for \(what) files; it was not used.",
                hint: "Check the path; split a larger file.")
        } catch {
            throw CommandFailure("Cannot read '\(url.path)': \(error.reason)", hint: "Check the path.")
        }
    }

    /// A limit in words: "64 MiB", "64 KiB", never "0 MB".
    static func size(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : bytes >= 1 << 10 ? "\(bytes >> 10) KiB" : "\(bytes) bytes"
    }
}
