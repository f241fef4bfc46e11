import Testing

@testable import APNSMockCore

@Suite("FaultSelector: which matches a fault rule acts on")
struct FaultSelectorTests {
    /// The selector's answers to `count` matches, all at `now`.
    static func run(_ selection: FaultSelection, count: Int, seed: UInt64 = 1) -> (hits: [Bool], FaultSelector) {
        var selector = FaultSelector(selection: selection, createdAt: 0, seed: seed)
        let hits = (0..<count).map { _ in selector.select(now: 0) }
        return (hits, selector)
    }

    /// (selection, its answers to five matches).
    static let counted: [(FaultSelection, [Bool])] = [
        (.always, [true, true, true, true, true]),
        (.first(2), [true, true, false, false, false]),
        (.first(9), [true, true, true, true, true]),
        (.nth(3), [false, false, true, false, false]),
        (.nth(1), [true, false, false, false, false]),
        (.everyKth(2), [false, true, false, true, false]),
        (.everyKth(1), [true, true, true, true, true]),
        (.everyKth(3), [false, false, true, false, false]),
    ]

    @Test(arguments: counted)
    func countedSelections(_ selection: FaultSelection, _ expected: [Bool]) {
        let (hits, selector) = Self.run(selection, count: 5)
        #expect(hits == expected)
        #expect(selector.matches == 5)
        #expect(selector.hits == expected.filter { $0 }.count)
    }

    @Test func spentSelectionsSaySo() {
        var first = FaultSelector(selection: .first(2), createdAt: 0, seed: 0)
        #expect(!first.isExhausted(now: 0))
        _ = first.select(now: 0)
        _ = first.select(now: 0)
        #expect(first.isExhausted(now: 0))
        var nth = FaultSelector(selection: .nth(1), createdAt: 0, seed: 0)
        _ = nth.select(now: 0)
        #expect(nth.isExhausted(now: 0))
        #expect(!FaultSelector(selection: .always, createdAt: 0, seed: 0).isExhausted(now: .max))
        #expect(!FaultSelector(selection: .everyKth(2), createdAt: 0, seed: 0).isExhausted(now: .max))
        #expect(FaultSelector(selection: .probability(0), createdAt: 0, seed: 0).isExhausted(now: 0))
        #expect(!FaultSelector(selection: .probability(0.1), createdAt: 0, seed: 0).isExhausted(now: 0))
    }

    @Test func windowsRunFromCreation() {
        var selector = FaultSelector(selection: .window(milliseconds: 30_000), createdAt: 1_000, seed: 0)
        let open = [1_000, 30_999].map { selector.select(now: $0) }
        #expect(open == [true, true])
        #expect(!selector.isExhausted(now: 30_999))
        let closed = [31_000, 90_000].map { selector.select(now: $0) }
        #expect(closed == [false, false])
        #expect(selector.isExhausted(now: 31_000))
        #expect(selector.matches == 4)
        #expect(selector.hits == 2)
        // A window reaching past the end of time does not overflow.
        var late = FaultSelector(selection: .window(milliseconds: 10), createdAt: .max - 5, seed: 0)
        let lateHit = late.select(now: .max - 1)
        #expect(lateHit)
        #expect(!late.isExhausted(now: .max - 1))
    }

    @Test func probabilitiesAreReproducible() {
        let (first, _) = Self.run(.probability(0.3), count: 10_000, seed: 42)
        let (second, selector) = Self.run(.probability(0.3), count: 10_000, seed: 42)
        #expect(first == second)
        #expect(selector.matches == 10_000)
        // 3000 expected; the standard deviation is about 46.
        #expect((2_800...3_200).contains(selector.hits))
        #expect(selector.hits == second.filter { $0 }.count)
        let (other, _) = Self.run(.probability(0.3), count: 10_000, seed: 43)
        #expect(other != first)
    }

    @Test func probabilitiesZeroAndOneAreExact() {
        #expect(Self.run(.probability(0), count: 10_000).0.allSatisfy { !$0 })
        #expect(Self.run(.probability(1), count: 10_000).0.allSatisfy { $0 })
    }

    /// The rule's sequence does not depend on its probability: the same draws, compared with
    /// a larger P, select a superset.
    @Test func largerProbabilitiesSelectSupersets() {
        let (low, _) = Self.run(.probability(0.2), count: 1_000, seed: 5)
        let (high, _) = Self.run(.probability(0.6), count: 1_000, seed: 5)
        #expect(zip(low, high).allSatisfy { !$0 || $1 })
    }

    @Test func parsedRulesCarryTheirSeedIntoTheSelector() throws {
        let document = try #require(
            JSONValue.parse(#"{"select": {"probability": 0.5, "seed": 42}, "action": {"hang": {}}}"#))
        let rule = try FaultRule.parse(document, id: "p", createdAt: 0, defaultSeed: 1)
        var fromRule = rule.makeSelector()
        let (direct, _) = Self.run(.probability(0.5), count: 100, seed: 42)
        let selected = (0..<100).map { _ in fromRule.select(now: 0) }
        #expect(selected == direct)
    }

    /// The published first outputs of SplitMix64 seeded with 0, so the sequence is the
    /// algorithm's and not this implementation's.
    @Test func splitMix64MatchesTheReference() {
        var generator = SplitMix64(seed: 0)
        let outputs = (0..<3).map { _ in generator.next() }
        #expect(outputs == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var unit = SplitMix64(seed: 9)
        for _ in 0..<1_000 {
            let value = unit.nextUnitInterval()
            #expect(value >= 0 && value < 1)
        }
    }

    @Test func delaysStayWithinTheirRange() {
        let delay = FaultDelay(milliseconds: 100...900)
        var generator = SplitMix64(seed: 3)
        let draws = (0..<1_000).map { _ in delay.draw(using: &generator) }
        #expect(draws.allSatisfy { (100...900).contains($0) })
        #expect(Set(draws).count > 100)
        #expect(draws.min()! < 200 && draws.max()! > 800)
        // A fixed delay takes nothing from the generator.
        let fixed = FaultDelay(milliseconds: 250)
        let before = generator
        let fixedDraw = fixed.draw(using: &generator)
        #expect(fixedDraw == 250)
        #expect(generator == before)
        #expect(fixed.isFixed && !delay.isFixed)
        // The selector's generator draws them reproducibly.
        var one = FaultSelector(selection: .always, createdAt: 0, seed: 11)
        var two = FaultSelector(selection: .always, createdAt: 0, seed: 11)
        let oneDraws = (0..<50).map { _ in one.drawDelay(delay) }
        let twoDraws = (0..<50).map { _ in two.drawDelay(delay) }
        #expect(oneDraws == twoDraws)
    }
}
