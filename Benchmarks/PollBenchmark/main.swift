// In-process cost of LibNFCReader.waitForTarget over the raw libnfc call it wraps,
// on the same emulated PN532, with the phone on the reader so every poll finds it.
// The baseline calls libnfc directly (this benchmark is the one place outside the
// wrapper that does), measured in the same run.
import CLibNFC
import Foundation
import NFCReaderLibNFC
import NFCReaders
import NFCVirtualBench

let iterations = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 300
let dir = "/tmp/nfcb-bench-\(getpid())"
let bench = VirtualBench(.init(directory: dir, phone: SimulatedPhone(antenna: (0, 0, 1, 1), missRate: 0), seed: 1))
try bench.start()
defer { bench.stop() }
bench.bench.place(x: 0.5, y: 0.5)
while bench.bench.visibleTarget() == nil { usleep(1000) }
let connstring = bench.connstring!

func stats(_ samples: [Duration]) -> (mean: Double, p50: Double, p99: Double) {
    let ms = samples.map { Double($0.components.seconds) * 1000 + Double($0.components.attoseconds) / 1e15 }.sorted()
    return (ms.reduce(0, +) / Double(ms.count), ms[ms.count / 2], ms[min(ms.count - 1, ms.count * 99 / 100)])
}

// Baseline: nfc_initiator_poll_target straight from C.
var context: OpaquePointer?
nfc_init(&context)
guard let context, let device = nfc_open(context, connstring), nfc_initiator_init(device) >= 0 else {
    fatalError("cannot open \(connstring)")
}
var modulations = [nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106), nfc_modulation(nmt: NMT_ISO14443B, nbr: NBR_106)]
var raw: [Duration] = []
for _ in 0..<iterations {
    var target = nfc_target()
    let start = ContinuousClock.now
    let res = nfc_initiator_poll_target(device, &modulations, 2, 1, 1, &target)
    raw.append(ContinuousClock.now - start)
    precondition(res > 0, "raw poll found nothing")
}
nfc_close(device)
nfc_exit(context)

// The wrapper: queue hop, cancellation handler, deadline watchdog, target decoding.
let reader = try await LibNFCReader.open(connstring: connstring)
var wrapped: [Duration] = []
for _ in 0..<iterations {
    let start = ContinuousClock.now
    let found = try await reader.waitForTarget(timeout: .seconds(2))
    wrapped.append(ContinuousClock.now - start)
    precondition(found != nil, "wrapper found nothing")
}
await reader.close()

let r = stats(raw), w = stats(wrapped)
print(String(format: "raw nfc_initiator_poll_target: mean %.3f ms, p50 %.3f ms, p99 %.3f ms", r.mean, r.p50, r.p99))
print(String(format: "LibNFCReader.waitForTarget:    mean %.3f ms, p50 %.3f ms, p99 %.3f ms", w.mean, w.p50, w.p99))
print(
    String(
        format: "detection-loop overhead: %.3f ms per detection (p50 %.3f ms); ratio %.2fx",
        w.mean - r.mean, w.p50 - r.p50, w.mean / r.mean))
print(w.p50 - r.p50 < 1 ? "target met: overhead < 1 ms" : "TARGET MISSED: overhead >= 1 ms")
