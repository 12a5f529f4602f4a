/// The emulated machine's axes: where the head is, the move under way and the moves
/// queued behind it (the planner), advanced in machine time by the emulator's loop.
struct GantryMotion {
    struct Move {
        let start: [Double]
        let end: [Double]
        /// Machine seconds the move takes at its feed.
        let duration: Double
        let feed: Double
        var elapsed = 0.0
        var isHoming = false

        init(from start: [Double], to end: [Double], feed: Double, isHoming: Bool = false) {
            self.start = start
            self.end = end
            self.feed = feed
            self.isHoming = isHoming
            let distance = zip(start, end).map { ($1 - $0) * ($1 - $0) }.reduce(0, +).squareRoot()
            duration = feed > 0 ? distance / (feed / 60) : 0
        }

        var position: [Double] {
            guard duration > 0 else { return end }
            let f = min(1, elapsed / duration)
            return zip(start, end).map { $0 + ($1 - $0) * f }
        }

        var movesXY: Bool { abs(end[0] - start[0]) > 1e-9 || abs(end[1] - start[1]) > 1e-9 }
    }

    /// Both firmwares keep about 15 blocks in their planner.
    static let plannerCapacity = 15
    var position: [Double]
    var current: Move?
    var queue: [Move] = []
    /// Feed hold (GRBL `!`): the move pauses where it is until `~`.
    var held = false
    /// Machine seconds of the hold's deceleration still to run: a moving head does not stop
    /// at once, and GRBL reports `Hold:1` until it has (`Hold:0`). A reset before then cuts
    /// a motion, which is alarm 3.
    var decelerationLeft = 0.0
    /// The deceleration GRBL's `$120`-`$122` give a small gantry, mm/s²: from 3000 mm/min
    /// it stands after 0.1 s and 2.5 mm.
    static let acceleration = 500.0

    /// Holds the head: at once when nothing moves, after decelerating from its feed when a
    /// move is under way.
    mutating func hold() {
        guard !held else { return }
        held = true
        decelerationLeft = current.map { $0.feed / 60 / Self.acceleration } ?? 0
    }

    /// Still decelerating into a hold (`Hold:1`).
    var isDecelerating: Bool { held && decelerationLeft > 0 && current != nil }

    init(position: [Double]) { self.position = position }

    /// `12.000,34.500,2.000`: machine X, Y, Z as the status report, the log and the
    /// barrier notes all write them.
    static func describe(_ point: [Double]) -> String { point.map { String(format: "%.3f", $0) }.joined(separator: ",") }

    var isIdle: Bool { current == nil && queue.isEmpty }
    var isFull: Bool { queue.count >= Self.plannerCapacity }
    /// Where the next queued move starts.
    var plannedEnd: [Double] { queue.last?.end ?? current?.end ?? position }

    /// A move to where the head already is takes no block, as in both firmwares' planners
    /// (GRBL drops a block of zero steps): nothing starts, nothing stops.
    mutating func enqueue(_ move: Move) {
        guard zip(move.start, move.end).contains(where: { abs($0 - $1) > 1e-9 }) else { return }
        queue.append(move)
    }

    /// Stops at once where the head is; the planner is emptied.
    mutating func abort() {
        position = current?.position ?? position
        current = nil
        queue = []
        held = false
        decelerationLeft = 0
    }

    enum Step { case started(Move), finished(Move) }

    /// Advances by `seconds` of machine time, saying which moves started and finished.
    mutating func advance(by seconds: Double) -> [Step] {
        var steps: [Step] = []
        var left = seconds
        if held {
            // Only the deceleration runs in a hold: from the feed down to rest, so at half the
            // feed on average, along the move.
            guard isDecelerating else { return [] }
            left = min(left, decelerationLeft)
            decelerationLeft -= left
            left /= 2
        }
        while true {
            if current == nil {
                guard !held, !queue.isEmpty else { break }
                current = queue.removeFirst()
                steps.append(.started(current!))
            }
            guard var move = current else { break }
            let needed = move.duration - move.elapsed
            if needed > left {
                move.elapsed += left
                current = move
                position = move.position
                break
            }
            left -= max(0, needed)
            move.elapsed = move.duration
            position = move.end
            current = nil
            steps.append(.finished(move))
        }
        return steps
    }
}

/// One G-code line's words: `G1 X10 Y-2.5 F3000` -> G 1, X 10, Y -2.5, F 3000. Comments
/// (`(...)`, `;...`) and spaces are dropped; `nil` when a word has no number.
struct GCodeWords {
    let words: [(letter: Character, value: Double)]

    init?(_ line: String) {
        var text = ""
        var inComment = false
        for character in line {
            if character == ";" { break }
            if character == "(" { inComment = true }
            if !inComment, character != " ", character != "\t" { text.append(Character(character.uppercased())) }
            if character == ")" { inComment = false }
        }
        var words: [(Character, Double)] = []
        var index = text.startIndex
        while index < text.endIndex {
            let letter = text[index]
            guard letter.isLetter else { return nil }
            index = text.index(after: index)
            let start = index
            while index < text.endIndex, !text[index].isLetter { index = text.index(after: index) }
            guard let value = Double(text[start..<index]), value.isFinite else { return nil }
            words.append((letter, value))
        }
        self.words = words
    }

    func value(_ letter: Character) -> Double? { words.first { $0.letter == letter }?.value }
    func has(_ letter: Character, _ value: Double) -> Bool { words.contains { $0.letter == letter && $0.value == value } }
    var isEmpty: Bool { words.isEmpty }
}
