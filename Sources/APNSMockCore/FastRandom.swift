/// A small, fast pseudo-random generator (xoshiro256**) for ids that need to be unique, not
/// secret. Seed it from `SystemRandomNumberGenerator`; keep one per thread or connection.
public struct FastRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    /// A generator seeded from the system's random source.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.init(seed: (system.next(), system.next(), system.next(), system.next()))
    }

    /// A generator with a fixed seed, for deterministic tests.
    public init(seed: (UInt64, UInt64, UInt64, UInt64)) {
        (s0, s1, s2, s3) = seed
        if s0 | s1 | s2 | s3 == 0 { s0 = 0x9E37_79B9_7F4A_7C15 }
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
