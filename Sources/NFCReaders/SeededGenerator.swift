import NFCPhysics

/// The simulations' random numbers: SplitMix64, reproducible across platforms, so
/// `--sim-seed N` gives the same taps everywhere. One generator for the whole bench, kept
/// in the physics module (whose coil design needs it, below this one).
public typealias SeededGenerator = SplitMix64
