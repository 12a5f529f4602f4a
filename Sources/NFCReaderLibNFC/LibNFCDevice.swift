import CLibNFC
import NFCReaders

/// Owns a libnfc context and one open device. The only type that holds libnfc
/// pointers; they never leave it. Not Sendable: `LibNFCReader` confines it to one
/// serial queue, except `abort()`, which libnfc allows from any thread.
final class LibNFCDevice {
    private let context: OpaquePointer
    /// The open device; only this type and its extensions touch it.
    let handle: OpaquePointer
    let name: String
    let firmware: String?

    /// Opens `connstring`; `nil` when libnfc could not (it gives no reason: see
    /// `LibNFCDiagnosis`).
    init?(connstring: String) {
        var ctx: OpaquePointer?
        LibNFCLog.willInitialise()
        nfc_init(&ctx)
        guard let ctx else { return nil }
        guard let dev = nfc_open(ctx, connstring) else {
            nfc_exit(ctx)
            return nil
        }
        context = ctx
        handle = dev
        name = String(cString: nfc_device_get_name(dev))
        var info: UnsafeMutablePointer<CChar>?
        if nfc_device_get_information_about(dev, &info) >= 0, let info {
            // First line: "chip: PN532 v1.6"
            let text = String(cString: info)
            firmware = text.split(separator: "\n").first.map { String($0.dropFirst("chip: ".count)) }
            nfc_free(info)
        } else {
            firmware = nil
        }
    }

    deinit {
        nfc_close(handle)
        nfc_exit(context)
    }

    func initiatorInit() -> LibNFCStatus? {
        let res = nfc_initiator_init(handle)
        return res < 0 ? LibNFCStatus(rawValue: res) : nil
    }

    /// One InAutoPoll round over ISO 14443 A and B at 106 kbps: a target, `nil` for
    /// none, or a status for an error. libnfc reports "no target" as `NFC_ECHIP`.
    func pollOnce(pollNr: UInt8, period: UInt8) -> Result<nfc_target?, LibNFCStatus> {
        var modulations = [
            nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106),
            nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106),
        ]
        var target = nfc_target()
        let res = nfc_initiator_poll_target(handle, &modulations, modulations.count, pollNr, period, &target)
        if res > 0 { return .success(target) }
        if res == 0 || res == NFC_ECHIP { return .success(nil) }
        return .failure(LibNFCStatus(rawValue: res))
    }

    /// `nil` while the target is present, else the status that says why not.
    func presence(of target: nfc_target) -> LibNFCStatus? {
        var copy = target
        let res = nfc_initiator_target_is_present(handle, &copy)
        return res == NFC_SUCCESS ? nil : LibNFCStatus(rawValue: res)
    }

    func deselect() { _ = nfc_initiator_deselect_target(handle) }

    /// A PN53x command libnfc has no API for, through `pn53x_transceive`; its answer is
    /// not needed (RFConfiguration answers with none).
    func send(_ command: [UInt8]) -> LibNFCStatus? {
        let res = command.withUnsafeBufferPointer { pn53x_transceive(handle, $0.baseAddress, $0.count, nil, 0, -1) }
        return res < 0 ? LibNFCStatus(rawValue: res) : nil
    }

    /// One CIU register, read from the chip (ReadRegister).
    func register(_ address: UInt16) -> Result<UInt8, LibNFCStatus> {
        var value: UInt8 = 0
        let res = pn53x_read_register(handle, address, &value)
        return res < 0 ? .failure(LibNFCStatus(rawValue: res)) : .success(value)
    }

    /// Switches the RF field (`NP_ACTIVATE_FIELD`: RFConfiguration item 0x01 on a PN53x).
    func setField(on: Bool) -> LibNFCStatus? {
        let res = nfc_device_set_property_bool(handle, NP_ACTIVATE_FIELD, on)
        return res < 0 ? LibNFCStatus(rawValue: res) : nil
    }

    /// One APDU to the selected ISO-DEP target (InDataExchange): the answer, or `nil`
    /// when the target gave none within `timeoutMs` or the exchange failed.
    func exchange(_ apdu: [UInt8], timeoutMs: Int32) -> [UInt8]? {
        var answer = [UInt8](repeating: 0, count: 262)
        let count = answer.withUnsafeMutableBufferPointer { rx in
            apdu.withUnsafeBufferPointer { tx in
                nfc_initiator_transceive_bytes(handle, tx.baseAddress, tx.count, rx.baseAddress, rx.count, timeoutMs)
            }
        }
        return count > 0 ? Array(answer.prefix(Int(count))) : nil
    }

    /// Interrupts a blocking call from another thread (`nfc_abort_command`).
    func abort() { _ = nfc_abort_command(handle) }

    /// The detected-target value for a libnfc target.
    static func detected(_ t: nfc_target, latency: Duration, reader: String) -> DetectedTarget {
        func bytes<T>(_ tuple: T, count: Int) -> [UInt8] {
            withUnsafeBytes(of: tuple) { Array($0.prefix(count)) }
        }
        if t.nm.nmt == NMT_ISO14443B {
            let b = t.nti.nbi
            let pupi = bytes(b.abtPupi, count: 4)
            let atqb = [0x50] + pupi + bytes(b.abtApplicationData, count: 4) + bytes(b.abtProtocolInfo, count: 3)
            return DetectedTarget(technology: .iso14443B, uid: pupi, atqb: atqb, latency: latency, reader: reader)
        }
        let a = t.nti.nai
        let ats = bytes(a.abtAts, count: Int(a.szAtsLen))
        return DetectedTarget(
            technology: .iso14443A, uid: bytes(a.abtUid, count: Int(a.szUidLen)),
            atqa: bytes(a.abtAtqa, count: 2), sak: a.btSak, ats: ats.isEmpty ? nil : ats,
            latency: latency, reader: reader)
    }

    /// Connstrings libnfc finds (autoscan, `LIBNFC_DEVICE`, `/etc/nfc/devices.d`).
    static func listConnstrings(max: Int = 16) -> [String] {
        var ctx: OpaquePointer?
        LibNFCLog.willInitialise()
        nfc_init(&ctx)
        guard let ctx else { return [] }
        defer { nfc_exit(ctx) }
        let list = UnsafeMutablePointer<nfc_connstring>.allocate(capacity: max)
        defer { list.deallocate() }
        let found = nfc_list_devices(ctx, list, max)
        return (0..<found).map { String(cString: nfcbench_connstring_at(list, $0)) }
    }

    static var libraryVersion: String { String(cString: nfc_version()) }
}
