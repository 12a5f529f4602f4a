/// A reader that can switch its RF field off and on at the host's word (a PN53x's
/// RFConfiguration item 0x01).
///
/// With the field off the phone is unpowered as far as the reader is concerned, so a
/// machine may carry the reader between positions just above the back instead of out of
/// the field's reach: switching it on again at the next position makes that tap a fresh
/// field entry, as lifting the phone out of range would. Nothing may be polled while the
/// field is meant to be off: on a PN53x a discovery command switches it back on.
public protocol FieldSwitching: Sendable {
    func switchField(on: Bool) async throws(ReaderError)
}
