#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The newest record of each `apns-id`: an open-addressing hash table (linear probing) of
/// `UUIDKey` → sequence number, sized once for the store's capacity.
///
/// Every push adds an entry, so this is on the answer path. A `Dictionary` keeps keys, values
/// and occupancy in three arrays (three cache misses per insert into a large table); here key
/// and value share one slot. The slots come zeroed from `calloc`, so pages the table has not
/// used yet cost no memory (idle RSS stays low with a million-record capacity).
///
/// Not thread-safe: used only inside `DeliveryStore`'s lock.
final class APNSIDTable: @unchecked Sendable {
    private struct Slot: Sendable {
        var key: UUIDKey
        /// 0 marks an empty slot (sequence numbers start at 1).
        var sequence: UInt64
    }

    private let slots: UnsafeMutableBufferPointer<Slot>
    private let mask: Int
    private let shift: UInt64
    private(set) var count = 0

    /// Room for `capacity` ids with the table at most half full.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        guard let memory = calloc(size, MemoryLayout<Slot>.stride) else {
            fatalError("cannot allocate the apns-id index (\(size) slots)")
        }
        // All-zero bytes are an empty slot (sequence 0).
        slots = UnsafeMutableBufferPointer(start: memory.bindMemory(to: Slot.self, capacity: size), count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    deinit {
        free(slots.baseAddress)
    }

    private func home(_ key: UUIDKey) -> Int {
        // Fibonacci hashing of both halves: spreads generated (random) and hand-made
        // (sequential) ids alike.
        let mixed = (key.high ^ (key.low &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> shift) & mask
    }

    /// The sequence stored for `key`.
    subscript(key: UUIDKey) -> UInt64? {
        var index = home(key)
        while true {
            let slot = slots[index]
            if slot.sequence == 0 { return nil }
            if slot.key == key { return slot.sequence }
            index = (index + 1) & mask
        }
    }

    /// Sets `key`'s sequence; returns the one it replaces.
    @discardableResult
    func update(_ sequence: UInt64, for key: UUIDKey) -> UInt64? {
        precondition(sequence != 0)
        var index = home(key)
        while true {
            if slots[index].sequence == 0 {
                slots[index] = Slot(key: key, sequence: sequence)
                count += 1
                return nil
            }
            if slots[index].key == key {
                defer { slots[index].sequence = sequence }
                return slots[index].sequence
            }
            index = (index + 1) & mask
        }
    }

    /// Removes `key`.
    func remove(_ key: UUIDKey) {
        var index = home(key)
        do {
            while true {
                if slots[index].sequence == 0 { return }
                if slots[index].key == key { break }
                index = (index + 1) & mask
            }
            // Backward-shift deletion: move later entries of the probe run into the gap, so
            // look-ups never need tombstones.
            var gap = index
            var next = (gap + 1) & mask
            while slots[next].sequence != 0 {
                let wanted = home(slots[next].key)
                // The entry may move to the gap when the gap lies between its home and itself.
                let distanceToGap = (gap - wanted) & mask
                let distanceToNext = (next - wanted) & mask
                if distanceToGap < distanceToNext {
                    slots[gap] = slots[next]
                    gap = next
                }
                next = (next + 1) & mask
            }
            slots[gap].sequence = 0
            count -= 1
        }
    }
}
