import Foundation
import NFCSystem
import NFCTestSupport
import Testing

/// The system calls other modules made themselves until issue 51 moved them here: each
/// through its public face, failures as `Errno`.
@Suite("Spawning, replacing, terminals, paths")
struct MovedSystemCallTests {
    @Test func aChildsStandardErrorAndExitStatusComeBack() throws {
        let child = try SpawnedProcess.start(["/bin/sh", "-c", "echo 'to stderr' >&2; echo 'to stdout'; exit 3"])
        var captured: [UInt8] = []
        while let chunk = try? child.standardError.descriptor.read(upTo: 256), !chunk.isEmpty { captured += chunk }
        #expect(String(decoding: captured, as: UTF8.self) == "to stderr\n")
        #expect(child.reap() == 3)
    }

    @Test func aMissingProgramIsNoSuchFile() {
        #expect(throws: Errno.noSuchFile) { try SpawnedProcess.start(["/nonexistent/program"]) }
    }

    /// The whole group goes: the shell's own child as well, so nothing holds the pipe.
    @Test func signallingTheGroupStopsTheShellsChildrenToo() throws {
        let child = try SpawnedProcess.start(["/bin/sh", "-c", "sleep 30 & echo started >&2; sleep 30; wait"])
        let clock = ContinuousClock()
        let started = clock.now
        var said: [UInt8] = []
        while !said.contains(UInt8(ascii: "\n")), let chunk = try? child.standardError.descriptor.read(upTo: 64), !chunk.isEmpty {
            said += chunk
        }
        #expect(String(decoding: said, as: UTF8.self) == "started\n")
        child.signalGroup(SIGTERM)
        // The pipe ends only once every process holding it, the background sleep too, is gone.
        while (try? child.standardError.descriptor.read(upTo: 64))?.isEmpty == false {}
        #expect(child.reap() == 128 + SIGTERM)
        #expect(clock.now - started < .seconds(10))
    }

    @Test func aReplacementChangesTheTargetOnlyWhenCommitted() throws {
        let folder = try TemporaryDirectory("atomic")
        let target = folder.file("report.csv")
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
        chmod(target, 0o640)
        let abandoned = try AtomicReplacement(targetPath: target)
        try abandoned.descriptor.writeAll(Array("half".utf8))
        abandoned.abandon()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old\n")
        #expect(!FileManager.default.fileExists(atPath: abandoned.temporaryPath))
        let replacement = try AtomicReplacement(targetPath: target)
        #expect(replacement.temporaryPath.hasPrefix(folder.path + "/.report.csv."))
        try replacement.descriptor.writeAll(Array("new\n".utf8))
        try replacement.commit()
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new\n")
        #expect(try FileStatus.of(target).permissions == 0o640)
        #expect(throws: Errno.noSuchFile) { try AtomicReplacement(targetPath: folder.path + "/missing/report.csv") }
    }

    @Test func aLongNameStaysWithinTheLimitWithItsTemporarySuffix() {
        let name = String(repeating: "é", count: 125)  // 250 bytes
        let temporary = AtomicReplacement.temporaryName(for: name)
        #expect(temporary.utf8.count <= 255 && temporary.hasSuffix(".XXXXXX") && temporary.hasPrefix("."))
    }

    @Test func filesAreToldByKindAndIdentity() throws {
        let folder = try TemporaryDirectory("status")
        let file = folder.file("a")
        try Data().write(to: URL(fileURLWithPath: file))
        try FileManager.default.linkItem(atPath: file, toPath: folder.file("b"))
        #expect(try FileStatus.of(file).kind == .regular)
        #expect(try FileStatus.of(folder.path).kind == .folder)
        #expect(try FileStatus.of("/dev/null").kind == .special)
        #expect(try FileStatus.of(file).inode == FileStatus.of(folder.file("b")).inode)
        #expect(throws: Errno.noSuchFile) { try FileStatus.of(folder.file("none")) }
        try FileSystemCalls.replaceLink(folder.file("link"), to: file)
        try FileSystemCalls.replaceLink(folder.file("link"), to: folder.file("b"))
        #expect(PathLinks.target(of: folder.file("link")) == folder.file("b"))
        #expect(PathLinks.target(of: file) == nil)
        #expect(PathLinks.realPath(folder.path + "/./") == PathLinks.realPath(folder.path))
        try FileSystemCalls.makeFolder(folder.file("new"), mode: 0o700)
        try FileSystemCalls.makeFolder(folder.file("new"), mode: 0o700)  // there already: no error
        #expect(try FileStatus.of(folder.file("new")).permissions == 0o700)
    }

    /// On a pseudo-terminal, as the operator's terminal: single keys and no echo, and the
    /// settings read first put it back.
    @Test func aTerminalTakesSingleKeysAndIsRestored() throws {
        let pair = try SerialPort.pseudoTerminal()
        let terminal = pair.slave.descriptor
        #expect(TerminalSettings.isTerminal(terminal))
        let saved = try TerminalSettings.current(of: terminal)
        try saved.singleKeys.apply(to: terminal)
        let keys = try TerminalSettings.current(of: terminal)
        #expect(!keys.echoes && !keys.readsLines)
        try saved.withoutEcho.apply(to: terminal, discardingInput: true)
        let password = try TerminalSettings.current(of: terminal)
        #expect(!password.echoes && password.readsLines == saved.readsLines)
        try saved.apply(to: terminal)
        let restored = try TerminalSettings.current(of: terminal)
        #expect(restored.echoes == saved.echoes && restored.readsLines == saved.readsLines)
    }

    @Test func aPipeIsNoTerminal() throws {
        let pipe = Pipe()
        let end = FileDescriptor(rawValue: pipe.fileHandleForReading.fileDescriptor)
        #expect(!TerminalSettings.isTerminal(end))
        #expect(throws: Errno.self) { try TerminalSettings.current(of: end) }
    }
}
