// Tag mode against card mode, in one run on the same emulated PN532 through the real libnfc
// (bench/tagmode): the time from the simulated phone entering the field to a recorded
// HIT, and where the time goes. Card mode: InAutoPoll until the phone answers. Tag mode:
// the chip waits as a target (TgInitAsTarget), the phone activates it, then every APDU of
// the NFC Forum read crosses libnfc and the pty twice (TgGetData, TgSetData).
// Usage: TagModeBenchmark [rounds]
import Foundation
import NFCReaderLibNFC
import NFCReaders
import NFCVirtualBench

func ms(_ d: Duration) -> Double { d.seconds * 1000 }
func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
func p90(_ v: [Double]) -> Double { v.sorted()[min(v.count - 1, v.count * 9 / 10)] }

let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 30 : 30
let directory = "/tmp/nfcb-tag-\(UUID().uuidString.prefix(6))"
let bench = VirtualBench(
    .init(directory: directory, phone: SimulatedPhone(antenna: (0, 0, 1, 1), missRate: 0), seed: 7, pn532: true))
try bench.start()
defer { bench.stop() }
let reader = try await LibNFCReader.open(connstring: bench.connstring!)
let phone = bench.bench

var card: [Double] = []
for _ in 0..<rounds {
    phone.lift()
    _ = try await reader.waitForRemoval(timeout: .seconds(2))
    let placed = ContinuousClock.now
    phone.place(x: 0.5, y: 0.5)
    guard try await reader.waitForTarget(timeout: .seconds(5)) != nil else { fatalError("card mode: no target") }
    card.append(ms(ContinuousClock.now - placed))
}
phone.lift()

struct TagRound { let total: Double, activation: Double, read: Double, tail: Double, apdus: Int }
func tagRounds(_ message: NDEFMessage) async throws -> [TagRound] {
    var out: [TagRound] = []
    for _ in 0..<rounds {
        phone.lift()
        let before = bench.pn532PollsStarted
        let windowStart = ContinuousClock.now
        async let window = reader.emulateTag(message, window: .seconds(5))
        // The chip is waiting as a target before the phone comes.
        while bench.pn532PollsStarted == before { try await Task.sleep(for: .milliseconds(1)) }
        let placed = ContinuousClock.now
        phone.place(x: 0.5, y: 0.5)
        guard case .read(let r) = try await window, r.completed else { fatalError("tag mode: no complete read") }
        let total = ms(ContinuousClock.now - placed)
        let activation = ms(windowStart + r.activation - placed)
        let read = ms(r.readTime ?? .zero)
        let chunks = (message.bytes.count + 58) / 59
        out.append(TagRound(total: total, activation: activation, read: read, tail: total - activation - read, apdus: 5 + chunks))
    }
    return out
}

print("\(rounds) rounds each, emulated PN532 on a pty through libnfc \(LibNFCReader.libraryVersion)")
print(String(format: "card mode: placement to detection  median %.1f ms  p90 %.1f ms", median(card), p90(card)))
for (name, message) in [
    ("default URI", NDEFMessage([.uri("https://nfcbench.invalid/S-20261201-000000-abcd/12")])),
    ("1 KB text", NDEFMessage([.text(String(repeating: "nfcbench ", count: 113), language: "en")])),
] {
    let t = try await tagRounds(message)
    let apdus = t[0].apdus
    let read = t.map(\.read), total = t.map(\.total)
    print(
        String(
            format: "tag mode, %@ (%d bytes, %d APDUs): placement to HIT median %.1f ms  p90 %.1f ms = %.2fx card mode",
            name, message.bytes.count, apdus, median(total), p90(total), median(total) / median(card)))
    print(
        String(
            format: "  activation %.1f ms (the phone's coupling and the chip's TgInitAsTarget answer), read %.1f ms "
                + "(%.2f ms per APDU through TgGetData and TgSetData), release %.1f ms",
            median(t.map(\.activation)), median(read), median(read) / Double(apdus), median(t.map(\.tail))))
}
