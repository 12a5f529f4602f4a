import Foundation
import NFCReaders

/// One command to a running virtual bench, as typed messages: the bench and its clients
/// share these types, and the wire carries them as one JSON object per line.
public enum BenchCommand: Codable, Sendable, Equatable {
    /// The reader under the point x, y of the phone's back (fractions).
    case place(x: Double, y: Double)
    /// The same point in millimetres from the back's left and top edges, as `run` prompts.
    case placeMillimetres(x: Double, y: Double)
    case lift
    case fault(BenchFault)
    /// The phone's true antenna rectangle.
    case antenna(x: Double, y: Double, width: Double, height: Double)
    case technology(TargetTechnology)
    /// The phone as a reader (tag mode): reads to the end, stops after N commands (a
    /// misbehaving phone), or leaves the field after N (pulled away mid-read).
    case reader(TagReaderBehaviour)
    /// The reader's firmware state back to power-on defaults (PICC parameter FF), as after
    /// unplugging it.
    case powerCycle
    case status
    /// A card in the phone's case over a region of its back, or none (`StrayCard`).
    case card(StrayCard?)
    /// Which phone it is: an Android phone answers Android's HCE SELECT, an iPhone does not.
    case phone(android: Bool)
    /// A fault for the emulated gantry (`sim serve --gantry`), or `none` to clear one.
    case gantry(GantryFault)

    public enum TagReaderBehaviour: Codable, Sendable, Equatable {
        case complete
        case abort(after: Int)
        case leave(after: Int)
    }

    /// The text form `nfcbench sim ctl` takes: `place X Y` (fractions) or `place Xmm Ymm`
    /// (from the back's left and top edges, as `run` prompts), `lift`, `fault NAME`,
    /// `antenna X Y W H`, `technology A|B`, `reader complete|abort N|leave N`, `power-cycle`,
    /// `status`, `card mifare-classic|dual-interface X Y W H [UID]`, `card none`, `phone android|iphone`. A line that
    /// is none of them is refused with its usage.
    /// `35mm` or `35.5mm`: a finite, non-negative number of millimetres.
    static func millimetres(_ word: String) -> Double? {
        guard word.hasSuffix("mm"), let value = Double(word.dropLast(2)), value.isFinite, value >= 0 else { return nil }
        return value
    }

    public init(parsing line: String) throws(BenchControlError) {
        let words = line.split(separator: " ").map(String.init)
        func numbers(_ count: Int) -> [Double]? {
            let values = words.dropFirst().compactMap(Double.init)
            return values.count == count && words.count == count + 1 && values.allSatisfy(\.isFinite) ? values : nil
        }
        switch words.first {
        case "place":
            let millimetres = words.count == 3 ? words.dropFirst().compactMap(Self.millimetres) : []
            if millimetres.count == 2 {
                self = .placeMillimetres(x: millimetres[0], y: millimetres[1])
                return
            }
            guard let v = numbers(2), (0...1).contains(v[0]), (0...1).contains(v[1]) else {
                throw .usage(
                    "place X Y, with X and Y fractions in 0...1, or place Xmm Ymm, millimetres from the back's left and top edges"
                )
            }
            self = .place(x: v[0], y: v[1])
        case "lift": self = .lift
        case "fault":
            guard words.count == 2, let fault = BenchFault(rawValue: words[1]) else {
                throw .usage("fault " + BenchFault.allCases.map(\.rawValue).joined(separator: "|"))
            }
            self = .fault(fault)
        case "antenna":
            guard let v = numbers(4), v[2] > 0, v[3] > 0 else { throw .usage("antenna X Y W H") }
            self = .antenna(x: v[0], y: v[1], width: v[2], height: v[3])
        case "technology":
            guard words.count == 2, ["A", "B"].contains(words[1]) else { throw .usage("technology A|B") }
            self = .technology(words[1] == "A" ? .iso14443A : .iso14443B)
        case "reader":
            self = .reader(try Self.tagReader(Array(words.dropFirst())))
        case "power-cycle": self = .powerCycle
        case "status": self = .status
        case "card": self = .card(try Self.strayCard(Array(words.dropFirst())))
        case "phone":
            guard words.count == 2, ["android", "iphone"].contains(words[1]) else { throw .usage("phone android|iphone") }
            self = .phone(android: words[1] == "android")
        case "gantry": self = .gantry(try Self.gantryFault(Array(words.dropFirst())))
        default:
            throw .unknownCommand
        }
    }

    static let cardUsage =
        "card mifare-classic|dual-interface X Y W H [UID] (a card in the phone's case over that part of its back; "
        + "UID 8 hex digits) | card none"

    private static func strayCard(_ words: [String]) throws(BenchControlError) -> StrayCard? {
        if words == ["none"] { return nil }
        guard let first = words.first, let kind = StrayCard.Kind(rawValue: first), words.count == 5 || words.count == 6
        else { throw .usage(cardUsage) }
        let v = words[1...4].compactMap(Double.init)
        guard v.count == 4, v.allSatisfy({ $0.isFinite && (0...1).contains($0) }), v[2] > 0, v[3] > 0 else {
            throw .usage(cardUsage)
        }
        var uid: [UInt8] = [0x5A, 0x1B, 0x2C, 0x3D]
        if words.count == 6 {
            guard let given = Hex.bytes(words[5]), given.count == 4, given[0] != 0x08 else {
                throw .usage(cardUsage + " (a fixed UID: 4 bytes, not starting 08)")
            }
            uid = given
        }
        return StrayCard(kind: kind, region: (v[0], v[1], v[2], v[3]), uid: uid)
    }

    static let gantryUsage =
        "gantry alarm N (1...9) [during-move M (1...10000): the M-th move across from now] | gantry reset | gantry hold (GRBL)"
        + " | gantry stall"
        + " | gantry slow F (1...100) | gantry none"

    private static func gantryFault(_ words: [String]) throws(BenchControlError) -> GantryFault {
        switch (words.first, words.count) {
        case ("none", 1): return .none
        case ("reset", 1): return .reset
        case ("hold", 1): return .hold
        case ("stall", 1): return .stall
        case ("alarm", 2):
            guard let code = Int(words[1]), (1...9).contains(code) else { throw .usage(gantryUsage) }
            return .alarm(code)
        case ("alarm", 4):
            guard let code = Int(words[1]), (1...9).contains(code), words[2] == "during-move", let moves = Int(words[3]),
                (1...10000).contains(moves)
            else { throw .usage(gantryUsage) }
            return .alarmDuringMove(code: code, moves: moves)
        case ("slow", 2):
            guard let factor = Double(words[1]), factor.isFinite, (1...100).contains(factor) else { throw .usage(gantryUsage) }
            return .slow(factor)
        default:
            throw .usage(gantryUsage)
        }
    }

    private static func tagReader(_ words: [String]) throws(BenchControlError) -> TagReaderBehaviour {
        switch (words.first, words.count) {
        case ("complete", 1): return .complete
        case ("leave", 2):
            guard let n = Int(words[1]), (1...1000).contains(n) else { throw .usage("reader leave N, N in 1...1000") }
            return .leave(after: n)
        case ("abort", 2):
            guard let n = Int(words[1]), (0...1000).contains(n) else { throw .usage("reader abort N, N in 0...1000") }
            return .abort(after: n)
        default:
            throw .usage("reader complete | reader abort N | reader leave N")
        }
    }
}

/// A command the bench cannot take.
public enum BenchControlError: Error, Sendable, Equatable, CustomStringConvertible {
    case usage(String)
    case unknownCommand
    /// The line on the wire was not a command at all.
    case unreadable

    public var description: String {
        switch self {
        case .usage(let usage): "usage: \(usage)"
        case .unknownCommand:
            "unknown command; use place, lift, fault, antenna, technology, reader, card, phone, gantry, power-cycle or status"
        case .unreadable: "not a bench command"
        }
    }
}

/// The bench's answer to one command.
public struct BenchReply: Codable, Sendable, Equatable {
    public var ok: Bool
    public var error: String?
    /// After `place`: whether the phone's antenna couples with the reader there.
    public var coupled: Bool?
    public var fieldEntries: Int?
    public var fault: BenchFault?
    /// After `reader`: the tag reader's behaviour now, and how its last read ended.
    public var abortAfter: Int?
    public var lastRead: String?
    /// After `status`.
    public var status: BenchStatus?

    public init(ok: Bool = true, error: String? = nil) {
        self.ok = ok
        self.error = error
    }

    public static func failure(_ error: BenchControlError) -> BenchReply { BenchReply(ok: false, error: error.description) }

    /// `70.6`, `147`: millimetres as the operator reads them.
    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}

/// What `status` tells: where the reader is on the phone, what it sees, and what the
/// reader's firmware was told.
public struct BenchStatus: Codable, Sendable, Equatable {
    public var probe: [Double]?
    public var uid: String?
    public var fieldEntries: Int
    public var fault: BenchFault
    /// The ACR122U PICC operating parameter, as hex.
    public var picc: String
    public var piccWrites: [String]
    public var leds: [String]
    public var apdus: Int
    public var pn532: String?
    public var vpcdPort: UInt16?
    /// The emulated gantry's pty, head position (machine mm) and GRBL state word.
    public var gantry: String?
    public var head: [Double]?
    public var gantryState: String?
    /// Reader polls that started while the gantry was moving the reader: a positioner
    /// that waits for its machine to stop keeps this at 0.
    public var pollsWhileMoving: Int?
    /// The emulated PN532's analog settings (RFConfiguration item 0x0A), hex bytes.
    public var pn532Analog: String?
    /// The analog settings of the reader chip behind vpcd (Direct Transmit), hex bytes.
    public var vpcdAnalog: String?
    /// The placement's coupling (`SimulatedPhone.coupling`, 0 to 1), with the reader over the phone.
    public var coupling: Double?
    /// How the phone couples (`SimulatedCoupling.summary`): `linear`, or the two loops' reader and gap.
    public var world: String?
}

extension BenchFault: Codable {}
