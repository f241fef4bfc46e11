import DequeModule

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The records' blobs, packed one after another into 4 MB chunks.
///
/// Records leave in the order they came (the store is a ring), so a chunk is freed — or kept as
/// the spare for the next one — once its last blob is released. Compared with one heap array
/// per record this saves the allocation and its header on every push, and a full store reuses
/// its memory instead of asking the kernel for fresh pages.
///
/// Not thread-safe: used only inside `DeliveryStore`'s lock.
final class BlobArena: @unchecked Sendable {
    static let chunkSize = 4 << 20

    private final class Chunk {
        let base: UnsafeMutableRawPointer
        let size: Int
        var used = 0
        var live = 0

        init(size: Int) {
            guard let base = malloc(size) else { fatalError("cannot allocate \(size) bytes for records") }
            self.base = base
            self.size = size
        }

        deinit { free(base) }
    }

    private var chunks = Deque<Chunk>()
    /// The number of `chunks.first`; numbers only grow.
    private var firstNumber: UInt32 = 0
    /// An emptied chunk kept for reuse (its pages are already the process's).
    private var spare: Chunk?

    /// Copies `bytes` in and says where they went.
    func append(_ bytes: UnsafeRawBufferPointer) -> BlobRef {
        if chunks.last.map({ $0.used + bytes.count > $0.size }) ?? true {
            let chunk: Chunk
            if bytes.count <= Self.chunkSize, let reused = spare {
                spare = nil
                reused.used = 0
                reused.live = 0
                chunk = reused
            } else {
                chunk = Chunk(size: max(Self.chunkSize, bytes.count))
            }
            chunks.append(chunk)
        }
        let tail = chunks[chunks.count - 1]
        if let source = bytes.baseAddress { (tail.base + tail.used).copyMemory(from: source, byteCount: bytes.count) }
        let ref = BlobRef(
            chunk: firstNumber &+ UInt32(chunks.count - 1), offset: UInt32(tail.used), count: UInt32(bytes.count))
        tail.used += bytes.count
        tail.live += 1
        return ref
    }

    /// The bytes of `ref`; valid until `ref` is released.
    subscript(ref: BlobRef) -> UnsafeRawBufferPointer {
        let chunk = chunks[Int(ref.chunk &- firstNumber)]
        return UnsafeRawBufferPointer(start: chunk.base + Int(ref.offset), count: Int(ref.count))
    }

    /// Gives back the blob of a record that left the store.
    func release(_ ref: BlobRef) {
        chunks[Int(ref.chunk &- firstNumber)].live -= 1
        // Free the emptied chunks at the front; the one being filled stays.
        while chunks.count > 1, let first = chunks.first, first.live == 0 {
            chunks.removeFirst()
            firstNumber &+= 1
            if first.size == Self.chunkSize { spare = first }
        }
    }

    /// Bytes held in chunks (the spare included).
    var reservedBytes: Int { chunks.reduce(spare?.size ?? 0) { $0 + $1.size } }

    /// Drops every blob and chunk.
    func removeAll() {
        chunks.removeAll()
        spare = nil
    }
}
