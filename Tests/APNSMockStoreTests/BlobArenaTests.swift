import Testing

@testable import APNSMockStore

@Suite struct BlobArenaTests {
    static func blob(_ index: Int, size: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(index % 251), count: size)
        bytes[0] = UInt8(truncatingIfNeeded: index >> 8)  // tells neighbours with the same fill apart
        return bytes
    }

    /// Blobs go in and leave oldest first, as the store's ring does: every blob reads back
    /// intact while held, emptied chunks are freed, and the memory held stays bounded.
    @Test func ringOfBlobsAcrossChunks() {
        let arena = BlobArena()
        var held: [(index: Int, size: Int, ref: BlobRef)] = []
        let window = 1_000
        for index in 0..<6_000 {
            let size = index % 97 == 0 ? 70_000 : 1_000 + index % 3_000
            let bytes = Self.blob(index, size: size)
            held.append((index, size, bytes.withUnsafeBytes { arena.append($0) }))
            if held.count > window {
                let oldest = held.removeFirst()
                #expect(Array(arena[oldest.ref]) == Self.blob(oldest.index, size: oldest.size))
                arena.release(oldest.ref)
            }
        }
        for entry in held.suffix(50) { #expect(Array(arena[entry.ref]) == Self.blob(entry.index, size: entry.size)) }
        // About 1,000 blobs of ~3 KB held: a chunk or two, not the 20 MB written in all.
        #expect(arena.reservedBytes <= 3 * BlobArena.chunkSize)
    }

    @Test func aBlobLargerThanAChunkGetsItsOwn() {
        let arena = BlobArena()
        let small = Self.blob(1, size: 10).withUnsafeBytes { arena.append($0) }
        let large = Self.blob(2, size: BlobArena.chunkSize + 5).withUnsafeBytes { arena.append($0) }
        #expect(Array(arena[small]) == Self.blob(1, size: 10))
        #expect(Array(arena[large]) == Self.blob(2, size: BlobArena.chunkSize + 5))
        arena.release(small)
        #expect(Array(arena[large]) == Self.blob(2, size: BlobArena.chunkSize + 5))
    }
}
