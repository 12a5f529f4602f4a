/// How a session's taps compare with the prediction, as stored and exported.
public enum SessionVerdict: String, Sendable, CaseIterable {
    /// The predicted centre hit and the measured zone overlaps the prediction (IoU >= 0.5).
    case confirmed = "CONFIRMED"
    /// There were hits, but the measured zone disagrees with the prediction.
    case shifted = "SHIFTED"
    /// Nothing hit anywhere: the phone is probably not emulating a card.
    case noField = "NO_FIELD"
    /// Too few taps, or no prediction to compare with.
    case inconclusive = "INCONCLUSIVE"
}
