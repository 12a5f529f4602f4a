extension SimulatedReader {
    /// `sim`: the in-process simulated phone. Its sessions are marked simulated and are
    /// never bench evidence.
    public static let registration = ReaderBackendRegistration(
        backend: .sim, syntax: "sim",
        check: { text, spec throws(ReaderError) in
            guard spec.argument == nil else {
                throw ReaderError(.invalidSpec, "'\(text)': the simulated reader takes no argument.", hint: "Write --reader sim.")
            }
            return spec
        },
        open: { _, opening throws(ReaderError) in
            guard let phone = opening.simulatedPhone else {
                throw ReaderError(.invalidSpec, "The simulated reader needs a simulated phone.")
            }
            return SimulatedReader(bench: phone)
        },
        tagMode: { _, _ in .supported })
}
