import NFCReaders

/// The field switch through libnfc (`NP_ACTIVATE_FIELD`). A target selected before the
/// field went off is forgotten: it lost its power, and a presence check on it would only
/// send commands into a dead field.
extension LibNFCReader: FieldSwitching {
    public func switchField(on: Bool) async throws(ReaderError) {
        try await interruptible(timeout: Self.fieldSwitchTimeout) { _, _ in
            if !on { self.forgetTarget() }
            guard let status = self.device.setField(on: on) else { return .success(()) }
            return .failure(self.failure(status))
        }
    }

    /// One RFConfiguration exchange takes a PN532 a few milliseconds.
    static let fieldSwitchTimeout = Duration.seconds(2)
}
