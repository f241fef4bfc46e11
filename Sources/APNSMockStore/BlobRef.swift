import DequeModule

/// Where one record's blob sits in a `BlobArena`.
struct BlobRef: Sendable {
    var chunk: UInt32
    var offset: UInt32
    var count: UInt32
}
