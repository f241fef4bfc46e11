/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded pseudo-random generator whose
/// sequence depends only on its seed, so a fault rule's draws are the same on every run and
/// every platform. Not for anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state: the seed advanced by one step per draw.
    public private(set) var state: UInt64

    /// A generator whose sequence is fixed by `seed` (any value, zero included).
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<1` with 53 random bits: compared with `p`, it is below `p` with
    /// probability `p`, never for `p == 0` and always for `p == 1`.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
