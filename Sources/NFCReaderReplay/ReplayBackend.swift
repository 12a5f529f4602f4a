import NFCReaders

extension ReaderBackend {
    public static let replay = ReaderBackend(rawValue: "replay")
}

extension ReplayReader {
    /// `replay:<session.json>`: a recorded session's taps, answered again in order.
    public static let registration = ReaderBackendRegistration(
        backend: .replay, syntax: "replay:<session.json>",
        check: ReaderBackendRegistration.argumentRequired(
            "'replay:' needs the file of a recorded session.",
            hint: "Write one with: nfcbench show SESSION --json > FILE, then --reader replay:FILE."),
        open: { spec, _ throws(ReaderError) in try ReplayReader.open(path: spec.argument ?? "") },
        tagMode: { _, _ in .unsupported("a replay answers card-mode sessions only") })
}
