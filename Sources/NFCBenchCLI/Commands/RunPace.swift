import Foundation
import NFCReaders
import Synchronization

/// How fast an unattended run goes and when it will end, from when each position began: a
/// lab leaves a machine running and comes back at the time it said (issue 52). Over the
/// last positions only, so a pause (a reader fault, an alarm cleared) ages out.
final class RunPace: Sendable {
    private let starts = Mutex<[(step: Int, at: ContinuousClock.Instant)]>([])
    /// Positions the rate is taken over.
    static let window = 20
    /// Positions before a rate is worth saying.
    static let least = 3

    /// Notes that position `step` (0-based) began now; a position shown again (a retry, a
    /// repeat) is not a new one.
    func began(_ step: Int, at now: ContinuousClock.Instant = .now) {
        starts.withLock { list in
            guard list.last?.step != step else { return }
            list.append((step, now))
            if list.count > Self.window + 1 { list.removeFirst(list.count - Self.window - 1) }
        }
    }

    /// "38 positions/min, about 2 min left" with `remaining` positions at most after this
    /// one; `nil` before there is a rate. `upTo`: the count is a bound (an adaptive plan).
    func words(remaining: Int, upTo: Bool) -> String? {
        let list = starts.withLock { $0 }
        guard list.count > Self.least, let first = list.first, let last = list.last else { return nil }
        let seconds = (last.at - first.at).seconds
        guard seconds > 0 else { return nil }
        let perPosition = seconds / Double(list.count - 1)
        let left = perPosition * Double(remaining + 1)
        return String(format: "%.0f positions/min, ", 60 / perPosition) + (upTo ? "at most " : "about ")
            + Self.duration(left) + " left"
    }

    /// "40 s", "3 min", "1 h 5 min".
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        let minutes = Int((seconds / 60).rounded())
        return minutes < 60 ? "\(minutes) min" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
