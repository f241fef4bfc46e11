import APNSMockCore
import Testing

/// `APNSMessageID`: "a canonical UUID … 8-4-4-4-12" ("Sending notification requests to APNs");
/// accepted in any case and echoed as sent; generated (upper case, like APNs) when absent.
@Suite("APNSMessageID")
struct MessageIDTests {
    @Test(
        "Canonical UUIDs in any case are valid",
        arguments: [
            "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
            "123e4567-E89B-12d3-A456-426614174000", "00000000-0000-0000-0000-000000000000",
            "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        ])
    func valid(id: String) {
        #expect(APNSMessageID.isValid(id))
        #expect(APNSMessageID.isValid(Substring(id)))
    }

    @Test(
        "Malformed ids are invalid",
        arguments: [
            "", "1234", "123e4567-e89b-12d3-a456-42661417400",  // 35
            "123e4567-e89b-12d3-a456-4266141740000",  // 37
            "123e4567e89b12d3a456426614174000",  // no hyphens
            "123e4567-e89b-12d3-a456-42661417400g",  // non-hex
            "123e456-7e89b-12d3-a456-426614174000",  // hyphen misplaced
            "123e4567-e89b-12d3-a456_426614174000",  // wrong separator
            "{123e4567-e89b-12d3-a456-426614174000}", " 123e4567-e89b-12d3-a456-426614174000",
            "123e4567-e89b-12d3-a456-426614174000 ", "123e4567-e89b-12d3-a456-4266141740é",
            "------------------------------------",
        ])
    func invalid(id: String) {
        #expect(!APNSMessageID.isValid(id))
    }

    @Test("format(high:low:) writes 128 bits as an upper-case 8-4-4-4-12 string")
    func format() {
        #expect(
            APNSMessageID.format(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
                == "01234567-89AB-CDEF-FEDC-BA9876543210")
        #expect(APNSMessageID.format(high: 0, low: 0) == "00000000-0000-0000-0000-000000000000")
        #expect(APNSMessageID.format(high: .max, low: .max) == "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")
    }

    static func checkGenerated(_ id: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(APNSMessageID.isValid(id), sourceLocation: sourceLocation)
        #expect(id == id.uppercased(), sourceLocation: sourceLocation)
        let characters = Array(id)
        // Version 4 in the first nibble of the third group, RFC 4122 variant (8, 9, A, B) in
        // the first nibble of the fourth (RFC 9562 §4.1, §4.2).
        #expect(characters[14] == "4", "\(id)", sourceLocation: sourceLocation)
        #expect("89AB".contains(characters[19]), "\(id)", sourceLocation: sourceLocation)
    }

    @Test("Generated ids are valid upper-case version-4 UUIDs, distinct across 1000 draws")
    func generatedFromSeed() {
        var random = FastRandom(seed: (0x0123_4567, 0x89AB_CDEF, 0xDEAD_BEEF, 42))
        var seen = Set<String>()
        for _ in 0..<1000 {
            let id = APNSMessageID.generate(using: &random)
            Self.checkGenerated(id)
            seen.insert(id)
        }
        #expect(seen.count == 1000)
    }

    @Test("Generation is deterministic for a seed and differs across seeds")
    func deterministic() {
        var a = FastRandom(seed: (1, 2, 3, 4))
        var b = FastRandom(seed: (1, 2, 3, 4))
        var c = FastRandom(seed: (1, 2, 3, 5))
        let fromA = (0..<100).map { _ in APNSMessageID.generate(using: &a) }
        let fromB = (0..<100).map { _ in APNSMessageID.generate(using: &b) }
        let fromC = (0..<100).map { _ in APNSMessageID.generate(using: &c) }
        #expect(fromA == fromB)
        #expect(fromA != fromC)
    }

    @Test("Generation keeps every random bit but the six fixed ones")
    func bitsKept() {
        // A generator that always answers all ones or all zeros shows which bits are forced.
        struct Constant: RandomNumberGenerator {
            let value: UInt64
            mutating func next() -> UInt64 { value }
        }
        var ones = Constant(value: .max)
        var zeros = Constant(value: 0)
        #expect(APNSMessageID.generate(using: &ones) == "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF")
        #expect(APNSMessageID.generate(using: &zeros) == "00000000-0000-4000-8000-000000000000")
    }

    @Test("Generation works with the system generator too")
    func systemGenerator() {
        var system = SystemRandomNumberGenerator()
        var fast = FastRandom()
        for _ in 0..<100 {
            Self.checkGenerated(APNSMessageID.generate(using: &system))
            Self.checkGenerated(APNSMessageID.generate(using: &fast))
        }
    }
}

@Suite("FastRandom")
struct FastRandomTests {
    @Test("Matches the xoshiro256** reference output for seed (1, 2, 3, 4)")
    func referenceVector() {
        // Values from the reference C implementation (Blackman & Vigna, xoshiro256starstar.c).
        var random = FastRandom(seed: (1, 2, 3, 4))
        let outputs = (0..<5).map { _ in random.next() }
        #expect(outputs == [0x2D00, 0, 0x5A00_7080, 0x10E0_0000_0000_9D80, 0x10E0_B61C_E100_9D80])
    }

    @Test("An all-zero seed does not give an all-zero stream")
    func zeroSeed() {
        var random = FastRandom(seed: (0, 0, 0, 0))
        let outputs = (0..<4).map { _ in random.next() }
        #expect(outputs.contains { $0 != 0 })
    }

    @Test("Two system-seeded generators differ")
    func systemSeeded() {
        var a = FastRandom()
        var b = FastRandom()
        #expect((0..<4).map { _ in a.next() } != (0..<4).map { _ in b.next() })
    }
}
