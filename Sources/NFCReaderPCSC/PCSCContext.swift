import CPCSCLite
import Foundation

/// Owns an `SCARDCONTEXT`. Only this file and `PCSCCard` call pcsc-lite.
/// Not Sendable: `PCSCReader` confines it to one queue, except `cancel()`
/// (`SCardCancel` is meant to be called from another thread).
final class PCSCContext {
    let handle: SCARDCONTEXT
    /// Released by `release()` (a reader's `close()`), so deinit, wherever the last
    /// reference happens to go, calls pcsc-lite no more.
    private(set) var isReleased = false

    init() throws(PCSCStatus) {
        var context: SCARDCONTEXT = 0
        let rv = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        handle = context
    }

    /// `SCardReleaseContext`, once, on the thread that owns the context. libpcsclite tears
    /// its context list down when the process exits; a release on another thread at that
    /// moment walks a list being freed (seen: a general protection fault in `poll`, whose
    /// last reader reference was dropped by a dispatch thread while the main thread exited).
    func release() {
        guard !isReleased else { return }
        isReleased = true
        SCardReleaseContext(handle)
    }

    deinit { release() }

    /// Names of the readers pcscd knows now.
    func readers() throws(PCSCStatus) -> [String] {
        var length: DWORD = 0
        var rv = SCardListReaders(handle, nil, nil, &length)
        if PCSCStatus(rv) == .noReaders { return [] }
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        var buffer = [CChar](repeating: 0, count: Int(length))
        rv = SCardListReaders(handle, nil, &buffer, &length)
        if PCSCStatus(rv) == .noReaders { return [] }
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        // A multi-string: names separated by NUL, ended by an empty name.
        return buffer.split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }

    struct ReaderState {
        var name: String
        var current: DWORD
        var event: DWORD = 0
        var atr: [UInt8] = []
    }

    /// `SCardGetStatusChange`: blocks until a state differs from `current`, the
    /// timeout passes (`.timeout`), or `cancel()` (`.cancelled`).
    func waitForChange(_ states: inout [ReaderState], timeoutMs: UInt32) throws(PCSCStatus) {
        let names = states.map { strdup($0.name) }
        defer { names.forEach { free($0) } }
        var raw = states.enumerated().map { index, state in
            var s = SCARD_READERSTATE()
            s.szReader = UnsafePointer(names[index])
            s.dwCurrentState = state.current
            return s
        }
        let rv = SCardGetStatusChange(handle, DWORD(timeoutMs), &raw, DWORD(raw.count))
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        for index in states.indices {
            states[index].event = raw[index].dwEventState
            let count = Int(raw[index].cbAtr)
            states[index].atr = withUnsafeBytes(of: raw[index].rgbAtr) { Array($0.prefix(min(count, 33))) }
        }
    }

    func cancel() { SCardCancel(handle) }

    /// Whether pcscd sees a card in `reader` now: a status query that does not wait.
    func isCardPresent(in reader: String) throws(PCSCStatus) -> Bool {
        var states = [ReaderState(name: reader, current: DWORD(SCARD_STATE_UNAWARE))]
        try waitForChange(&states, timeoutMs: 0)
        return states[0].event & DWORD(SCARD_STATE_PRESENT) != 0
    }

    static let pnpReader = String(cString: nfcbench_pnp_reader_name())
}

/// A connection to the card (here: the phone) in one reader.
final class PCSCCard {
    private let handle: SCARDHANDLE
    private let protocolHeader: UnsafePointer<SCARD_IO_REQUEST>?

    /// `SCARD_SHARE_SHARED` with T=0 or T=1, or `direct` for reader escape commands;
    /// `exclusive` as another program might hold the card.
    init(context: PCSCContext, reader: String, direct: Bool = false, exclusive: Bool = false) throws(PCSCStatus) {
        var card: SCARDHANDLE = 0
        var active: DWORD = 0
        let share = DWORD(direct ? SCARD_SHARE_DIRECT : exclusive ? SCARD_SHARE_EXCLUSIVE : SCARD_SHARE_SHARED)
        let protocols = direct ? DWORD(0) : DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)
        let rv = SCardConnect(context.handle, reader, share, protocols, &card, &active)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        handle = card
        protocolHeader = active == DWORD(SCARD_PROTOCOL_T0) ? nfcbench_pci_t0() : nfcbench_pci_t1()
    }

    deinit { SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD)) }

    func transmit(_ apdu: [UInt8]) throws(PCSCStatus) -> [UInt8] {
        var response = [UInt8](repeating: 0, count: 258)
        var length = DWORD(response.count)
        let rv = SCardTransmit(handle, protocolHeader, apdu, DWORD(apdu.count), nil, &response, &length)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        return Array(response.prefix(Int(length)))
    }

    /// A reader escape command (`SCardControl` with the CCID escape code).
    func control(_ command: [UInt8]) throws(PCSCStatus) -> [UInt8] {
        var response = [UInt8](repeating: 0, count: 258)
        var length: DWORD = 0
        let rv = SCardControl(
            handle, nfcbench_ccid_escape_code(), command, DWORD(command.count),
            &response, DWORD(response.count), &length)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        return Array(response.prefix(Int(length)))
    }

    /// A reader attribute (`SCardGetAttrib`) as the driver gave it.
    func attribute(_ id: DWORD) throws(PCSCStatus) -> [UInt8] {
        var value = [UInt8](repeating: 0, count: 264)
        var length = DWORD(value.count)
        let rv = SCardGetAttrib(handle, id, &value, &length)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        return Array(value.prefix(Int(min(length, DWORD(value.count)))))
    }

    /// The ATR as the reader reports it.
    func atr() throws(PCSCStatus) -> [UInt8] {
        var atr = [UInt8](repeating: 0, count: 33)
        var atrLength = DWORD(atr.count)
        var state: DWORD = 0
        var proto: DWORD = 0
        var nameLength: DWORD = 0
        let rv = SCardStatus(handle, nil, &nameLength, &state, &proto, &atr, &atrLength)
        guard rv == nfcbench_scard_s_success() else { throw PCSCStatus(rv) }
        return Array(atr.prefix(Int(atrLength)))
    }
}
