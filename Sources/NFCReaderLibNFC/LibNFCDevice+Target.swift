import CLibNFC
import NFCReaders

/// Target mode: the device emulates an ISO 14443-4A card (PN532 PICC emulation), the phone
/// being the initiator. Pointers stay here, as for the initiator calls.
extension LibNFCDevice {
    /// Waits (with no timeout of its own: callers abort) until a reader activates the chip
    /// as a card with UID `uid` (four bytes, the first 0x08 as the PN532 wires it), ATQA
    /// 00 04 and SAK 0x20 (ISO 14443-4).
    func targetInit(uid: [UInt8]) -> LibNFCStatus? {
        precondition(uid.count == 4 && uid[0] == 0x08, "the PN532 emulates a 4-byte UID starting 0x08")
        var target = nfc_target()
        target.nm = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_UNDEFINED)
        withUnsafeMutableBytes(of: &target.nti.nai.abtAtqa) {
            $0[0] = 0x00; $0[1] = 0x04
        }
        withUnsafeMutableBytes(of: &target.nti.nai.abtUid) { for (i, b) in uid.enumerated() { $0[i] = b } }
        target.nti.nai.szUidLen = 4
        target.nti.nai.btSak = 0x20
        // The ATS's historical bytes (none here); the PN532 builds the rest of the ATS itself.
        withUnsafeMutableBytes(of: &target.nti.nai.abtAts) {
            $0[0] = 0x75; $0[1] = 0x77; $0[2] = 0x81; $0[3] = 0x02
        }
        target.nti.nai.szAtsLen = 4
        var received = [UInt8](repeating: 0, count: 264)
        let res = nfc_target_init(handle, &target, &received, received.count, 0)
        return res < 0 ? LibNFCStatus(rawValue: res) : nil
    }

    /// The initiator's next command (a C-APDU), waiting at most `timeoutMs`.
    func targetReceive(timeoutMs: Int32) -> Result<[UInt8], LibNFCStatus> {
        var buffer = [UInt8](repeating: 0, count: 264)
        let res = nfc_target_receive_bytes(handle, &buffer, buffer.count, Int32(timeoutMs))
        return res < 0 ? .failure(LibNFCStatus(rawValue: res)) : .success(Array(buffer.prefix(Int(res))))
    }

    /// Sends the answer (an R-APDU) to the initiator.
    func targetSend(_ data: [UInt8], timeoutMs: Int32) -> LibNFCStatus? {
        let res = data.withUnsafeBufferPointer { nfc_target_send_bytes(handle, $0.baseAddress, data.count, Int32(timeoutMs)) }
        return res < 0 ? LibNFCStatus(rawValue: res) : nil
    }
}
