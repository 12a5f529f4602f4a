import NFCBench
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCReaders
import Testing

@Suite("Reader backends by scheme")
struct ReaderBackendsTests {
    @Test(arguments: [
        ("libnfc:pn532_uart:/dev/ttyUSB0", ReaderSpec.libnfc(connstring: "pn532_uart:/dev/ttyUSB0")),
        ("libnfc:acr122_usb:", .libnfc(connstring: "acr122_usb:")),
        // A bare connstring, as nfc-list users write it.
        ("pn532_uart:/dev/ttyUSB0", .libnfc(connstring: "pn532_uart:/dev/ttyUSB0")),
        ("acr122_usb", .libnfc(connstring: "acr122_usb")),
        ("pcsc:ACR122", .pcsc(name: "ACR122")),
        ("sim", .sim),
    ])
    func eachBackendReadsItsOwnSpecs(text: String, spec: ReaderSpec) throws {
        #expect(try ReaderBackends.parse(text) == spec)
    }

    @Test(arguments: ["libnfc:acr122_pcsc:", "libnfc:foo:", "pcsc:", "usb", "", "sim:extra", "nosuch:thing"])
    func badSpecsAreRefusedWithAHint(text: String) {
        do throws(ReaderError) {
            _ = try ReaderBackends.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == .invalidSpec && error.hint != nil, "\(error)")
        }
    }

    @Test func everyRegisteredBackendIsNamedOnceAndInTheHelp() {
        let names = ReaderBackends.registered.map(\.backend)
        #expect(Set(names).count == names.count)
        for backend in ReaderBackends.registered { #expect(ReaderBackends.syntax.contains(backend.syntax)) }
    }
}
