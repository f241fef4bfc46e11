/// A fault rule's selection with its running state: which of the matching requests the rule
/// acts on. Pure: the caller counts matches by calling `select(now:)` once per matching request,
/// in match order, and passes the time.
///
/// Not thread-safe by itself (a value type): whoever shares a rule between connections keeps its
/// selector under a lock.
public struct FaultSelector: Sendable, Hashable {
    /// The selection being applied.
    public let selection: FaultSelection
    /// When the rule was created (epoch milliseconds): the start of a `for` window.
    public let createdAt: Int64
    /// The rule's generator: draws for `probability`, and for delays (`drawDelay(_:)`).
    public var random: SplitMix64
    /// How many requests matched so far.
    public private(set) var matches = 0
    /// How many of them were selected.
    public private(set) var hits = 0

    /// A selector that has seen no match yet.
    /// - Parameter seed: the seed of the rule's generator (`FaultRule.seed`).
    public init(selection: FaultSelection, createdAt: Int64, seed: UInt64) {
        self.selection = selection
        self.createdAt = createdAt
        self.random = SplitMix64(seed: seed)
    }

    /// Counts one more matching request, received at `now` (epoch milliseconds), and tells
    /// whether the rule acts on it.
    public mutating func select(now: Int64) -> Bool {
        matches += 1
        let hit: Bool
        switch selection {
        case .always: hit = true
        case .first(let n): hit = matches <= n
        case .nth(let n): hit = matches == n
        case .everyKth(let k): hit = matches % k == 0
        // Drawn for 0 and 1 too, so the sequence does not depend on the probability.
        case .probability(let p): hit = random.nextUnitInterval() < p
        case .window(let milliseconds): hit = now < Self.end(createdAt, milliseconds)
        }
        if hit { hits += 1 }
        return hit
    }

    /// Whether no later match can be selected at `now`: the first N or the nth have passed, or
    /// the window has closed. The rule can then be skipped, or listed as spent.
    public func isExhausted(now: Int64) -> Bool {
        switch selection {
        case .always, .everyKth: false
        case .probability(let p): p == 0
        case .first(let n), .nth(let n): matches >= n
        case .window(let milliseconds): now >= Self.end(createdAt, milliseconds)
        }
    }

    /// A delay in milliseconds from `delay`, drawn from the rule's generator.
    public mutating func drawDelay(_ delay: FaultDelay) -> Int64 {
        delay.draw(using: &random)
    }

    private static func end(_ start: Int64, _ milliseconds: Int64) -> Int64 {
        let (end, overflow) = start.addingReportingOverflow(milliseconds)
        return overflow ? .max : end
    }
}
