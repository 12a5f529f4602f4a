import NFCBenchRecords
import NFCReaders

/// `run --coupling`: a position graded along the analog ladder before it is recorded,
/// walking both ways from the first profile that read.
///
/// The tap itself is the full field's answer, as in any run. A HIT is walked down: each
/// weaker profile in turn is applied, the field cycled so the phone is met afresh, and one
/// poll round listened to, until one hears nothing. A MISS is asked once more at the
/// ladder's middle profile, because some boards fail with a phone too close to a strong
/// field (a saturated front end): when that answers, the walk goes down from there and up
/// towards the full field, and the position is a HIT that the full field missed. The tap
/// records the weakest profile that read as its coupling index and every profile tried,
/// which is the range that worked. The chip is put back to the default before the run goes
/// on, whatever happens; the journal the reader keeps (`AnalogJournal`) covers a run that
/// is killed half-way.
extension GuidedRun {
    struct CouplingGrade {
        /// `nil` when no profile read (a MISS checked at the middle profile too).
        let index: Double?
        let tried: String
        /// The ladder walked (`CouplingLadder.name`), stored with the tap.
        let ladder: String
    }

    /// One InAutoPoll round over A, 4A and B (0.45 s): a phone at rest answers within it.
    static let couplingWindow = Duration.milliseconds(400)

    /// A HIT graded down the ladder; `nil` when the reader failed during the walk: a fault
    /// says nothing about the coupling, and the HIT is recorded without a grade.
    func gradeCoupling(_ ladder: CouplingLadder, reader: any Reader) async throws -> CouplingGrade? {
        guard let analog = reader.capabilities.analogProfile else { return nil }
        var walk = LadderWalk(ladder: ladder)
        walk.note(ladder.profiles.count - 1, read: true)
        return try await restoringDefault(analog) { () async throws -> CouplingGrade? in
            guard try await walk.down(from: ladder.profiles.count - 2, listening: self.listen(analog)) else {
                return nil
            }
            return walk.grade
        }
    }

    /// A MISS asked again at the ladder's middle profile, and walked both ways from there
    /// when the phone answers it. `nil` when the reader failed, or cannot reach its chip
    /// with no phone on it: the MISS stands unchecked.
    /// The target is the middle profile's answer, to record the HIT with.
    func checkSaturation(_ ladder: CouplingLadder, reader: any Reader) async throws -> (
        grade: CouplingGrade, target: DetectedTarget?
    )? {
        // A chip out of reach without a phone (an ACR122U on stock libccid) is left as it is.
        guard let analog = reader.capabilities.analogProfile, await analog.listensWithoutATarget else { return nil }
        var walk = LadderWalk(ladder: ladder)
        walk.note(ladder.profiles.count - 1, read: false)
        let middle = ladder.middle
        return try await restoringDefault(analog) { () async throws -> (grade: CouplingGrade, target: DetectedTarget?)? in
            let listen = self.listen(analog)
            let target: DetectedTarget
            switch try await listen(ladder.profiles[middle]) {
            case .fault: return nil
            case .silence:
                walk.note(middle, read: false)
                return (walk.grade, nil)
            case .target(let found):
                walk.note(middle, read: true)
                target = found
            }
            guard try await walk.down(from: middle - 1, listening: listen),
                try await walk.up(from: middle + 1, below: ladder.profiles.count - 1, listening: listen)
            else { return nil }
            return (walk.grade, target)
        }
    }

    /// What one profile heard in its poll round.
    enum Heard {
        case target(DetectedTarget)
        case silence
        /// A reader fault: it says nothing about the coupling.
        case fault
    }

    typealias Listen = (AnalogProfile) async throws -> Heard

    private func listen(_ analog: any AnalogProfiling) -> Listen {
        { profile in
            switch try await analog.listen(at: profile, window: Self.couplingWindow) {
            case .target(let target): return .target(target)
            case .clean: return .silence
            case .faulty: return .fault
            }
        }
    }

    /// Runs `body` and puts the default settings back after it, on every way out.
    private func restoringDefault<T>(_ analog: any AnalogProfiling, _ body: () async throws -> T?) async throws -> T? {
        do {
            let result = try await body()
            try await analog.apply(.pn532Default)
            return result
        } catch {
            try? await analog.apply(.pn532Default)
            throw error
        }
    }
}

/// The profiles tried at one position and what each heard, in the order tried.
struct LadderWalk {
    let ladder: CouplingLadder
    private(set) var seen: [(rung: Int, read: Bool)] = []

    init(ladder: CouplingLadder) { self.ladder = ladder }

    mutating func note(_ rung: Int, read: Bool) { seen.append((rung, read)) }

    /// Weaker profiles from `rung` down, until one hears nothing; `false` on a reader fault.
    mutating func down(from rung: Int, listening listen: GuidedRun.Listen) async throws -> Bool {
        try await walk(stride(from: rung, through: 0, by: -1), listening: listen)
    }

    /// Stronger profiles from `rung` up to, not including, `limit`, until one hears nothing.
    mutating func up(from rung: Int, below limit: Int, listening listen: GuidedRun.Listen) async throws -> Bool {
        try await walk(stride(from: rung, to: limit, by: 1), listening: listen)
    }

    /// The rungs in order until one hears nothing; `false` on a reader fault.
    private mutating func walk(_ rungs: some Sequence<Int>, listening listen: GuidedRun.Listen) async throws -> Bool {
        for next in rungs {
            switch try await listen(ladder.profiles[next]) {
            case .fault: return false
            case .target: note(next, read: true)
            case .silence:
                note(next, read: false)
                return true
            }
        }
        return true
    }

    /// The coupling index of the weakest profile that read (`nil` when none did) and every
    /// profile tried, in the order tried: `default read, CWGsP 3B read, CWGsP 37 no answer`.
    var grade: GuidedRun.CouplingGrade {
        let weakest = seen.filter(\.read).map(\.rung).min()
        return GuidedRun.CouplingGrade(
            index: weakest.map(ladder.coupling(weakestRead:)),
            tried: seen.map { ladder.profiles[$0.rung].name + ($0.read ? " read" : " no answer") }.joined(separator: ", "),
            ladder: ladder.name)
    }
}
