import Foundation
import NFCReaders

/// The part of `nfcbench show ID --json` a replay reads: the session's id and mode, and its
/// taps in order, each with what the reader saw.
struct ReplayRecording {
    struct Tap {
        let uid: [UInt8]?
        let technology: TargetTechnology
        let latencyMs: Double?
    }

    struct Unreadable: Error {
        let reason: String
    }

    let sessionID: String
    let mode: String
    let taps: [Tap]

    init(json data: Data) throws(Unreadable) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Unreadable(reason: "not a JSON object")
        }
        guard let id = object["sessionId"] as? String, let list = object["tapList"] as? [[String: Any]] else {
            throw Unreadable(reason: "no sessionId and tapList")
        }
        sessionID = id
        mode = object["mode"] as? String ?? "card"
        var taps: [Tap] = []
        for (index, entry) in list.enumerated() {
            switch entry["result"] as? String {
            case "HIT":
                guard let hex = entry["uid"] as? String, let uid = Hex.bytes(hex), !uid.isEmpty else {
                    throw Unreadable(reason: "tap \(index + 1) is a HIT with no UID")
                }
                let technology = (entry["technology"] as? String).flatMap(TargetTechnology.init(rawValue:)) ?? .iso14443A
                let latency = (entry["latencyMs"] as? Double).flatMap { $0.isFinite && $0 >= 0 && $0 < 3_600_000 ? $0 : nil }
                taps.append(Tap(uid: uid, technology: technology, latencyMs: latency))
            case "MISS": taps.append(Tap(uid: nil, technology: .iso14443A, latencyMs: nil))
            case "SKIPPED": continue
            case let other:
                throw Unreadable(reason: "tap \(index + 1) has result \(other ?? "none"), which a card-mode replay cannot give")
            }
        }
        self.taps = taps
    }
}
