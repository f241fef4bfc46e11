import APNSMockCore
import Testing

@testable import APNSMockStore

@Suite struct APNSIDTableTests {
    /// Random inserts, replacements and removals against a `Dictionary` model, in a table
    /// small enough that probe runs are long and wrap around the end.
    @Test func behavesLikeADictionary() {
        var generator = FastRandom()
        let table = APNSIDTable(capacity: 64)
        var model: [UUIDKey: UInt64] = [:]
        // Few distinct highs and lows: many keys share a home slot.
        let keys = (0..<120).map { UUIDKey(high: UInt64($0 % 7), low: UInt64($0 / 7) << 40) }
        var sequence: UInt64 = 0
        for _ in 0..<20_000 {
            let key = keys[Int.random(in: 0..<keys.count, using: &generator)]
            if Bool.random(using: &generator) || model.count > 100 {
                table.remove(key)
                model[key] = nil
            } else {
                sequence += 1
                let previous = table.update(sequence, for: key)
                #expect(previous == model[key])
                model[key] = sequence
            }
            #expect(table.count == model.count)
        }
        for key in keys { #expect(table[key] == model[key]) }
    }

    @Test func sizedForTheCapacity() {
        let table = APNSIDTable(capacity: 1000)
        for index in 1...1000 { table.update(UInt64(index), for: UUIDKey(high: UInt64(index), low: 0)) }
        #expect(table.count == 1000)
        #expect(table[UUIDKey(high: 500, low: 0)] == 500)
        #expect(table[UUIDKey(high: 1001, low: 0)] == nil)
    }
}
