import APNSMockCore

/// The compact form of one record inside `DeliveryStore`: the column fields of
/// `DeliveryRecord.Field` plus one blob of tagged entries (`RecordCodec`).
///
/// Strings that repeat across records (topics, reasons) are interned and held as numbers;
/// everything else sits in `blob` and is decoded only when a reader needs the record.
struct StoredDelivery: Sendable {
    var sequence: UInt64
    var receivedAt: Int64
    var respondedAt: Int64
    /// A 410's `timestamp`, or `noTimestamp`.
    var timestamp: Int64
    var connectionID: UInt64
    var streamID: Int32
    var payloadSize: Int32
    var status: UInt16
    var environment: UInt8
    /// `APNSPushType.code`, or `noPushType`.
    var pushType: UInt8
    var flags: UInt8
    /// `DeliveryOutcome.code`.
    var outcome: UInt8
    /// `RecordKind.code`.
    var kind: UInt8
    var reason: UInt32
    /// The interned id of the fault rule that acted, or 0.
    var fault: UInt32
    var topic: UInt32
    var blob: BlobRef

    static let noPushType: UInt8 = 0xFF
    static let noTimestamp = Int64.min
    static let flagGeneratedID: UInt8 = 1
    /// The record has a token, and the token index lists it.
    static let flagIndexedToken: UInt8 = 2
    static let flagGoAway: UInt8 = 16
    /// Not answered (yet): status, reason, times of the response are not set.
    static let flagPending: UInt8 = 32
    /// Deleted by a scoped `DELETE`: skipped by every reader, gone at eviction.
    static let flagDeleted: UInt8 = 64

    var isDeleted: Bool { flags & Self.flagDeleted != 0 }

    /// The response columns of `response` (none: pending).
    mutating func setResponse(_ response: DeliveryResponse?, outcome: DeliveryOutcome, reasonID: UInt32) {
        self.outcome = outcome.code
        guard let response else {
            flags |= Self.flagPending
            status = 0
            reason = 0
            respondedAt = 0
            timestamp = Self.noTimestamp
            return
        }
        flags &= ~Self.flagPending
        if response.goAway { flags |= Self.flagGoAway } else { flags &= ~Self.flagGoAway }
        status = response.status.map { UInt16(clamping: $0) } ?? 0
        reason = reasonID
        respondedAt = response.respondedAt
        timestamp = response.timestamp ?? Self.noTimestamp
    }
}

/// Writes the blob of a `StoredDelivery`.
struct BlobWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func varint(_ value: Int) {
        var v = UInt(value)
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { self.bytes($0) }
    }

    /// UTF-8 bytes with no length (inside a tagged entry).
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Length-prefixed bytes.
    mutating func bytes(_ value: UnsafeBufferPointer<UInt8>) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    /// A tagged entry whose value is `value`: tag, length (varint), bytes.
    mutating func entry(_ field: DeliveryRecord.Field, _ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(field.rawValue)
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    /// A tagged entry holding `value`'s UTF-8 bytes.
    mutating func entry(_ field: DeliveryRecord.Field, text value: String) {
        var value = value
        value.withUTF8 { entry(field, $0) }
    }

    /// Starts a tagged entry whose length is known only once written: the tag and a 4-byte
    /// varint to fill in. Write the value, then call `endEntry` with what this returned.
    mutating func beginEntry(_ field: DeliveryRecord.Field) -> Int {
        bytes.append(contentsOf: [field.rawValue, 0x80, 0x80, 0x80, 0])
        return bytes.count
    }

    /// Ends the entry whose value started at `start`: fills in its length as a padded varint
    /// (continuation bits set on the first three bytes), which `BlobReader.varint` reads as usual.
    mutating func endEntry(_ start: Int) {
        let length = bytes.count - start
        precondition(length < 1 << 28, "a record entry over 256 MB")
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[start - 4] = 0x80 | UInt8(truncatingIfNeeded: length & 0x7F)
            buffer[start - 3] = 0x80 | UInt8(truncatingIfNeeded: (length >> 7) & 0x7F)
            buffer[start - 2] = 0x80 | UInt8(truncatingIfNeeded: (length >> 14) & 0x7F)
            buffer[start - 1] = UInt8(truncatingIfNeeded: length >> 21)
        }
    }
}

/// Reads the blob of a `StoredDelivery` in the order it was written. The bytes belong to the
/// store's arena: read them under the store's lock.
struct BlobReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func varint() -> Int {
        var result: UInt = 0
        var shift: UInt = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            result |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(result)
    }

    mutating func string() -> String {
        String(decoding: raw(), as: UTF8.self)
    }

    /// Everything not read yet.
    mutating func rest() -> UnsafeRawBufferPointer {
        defer { offset = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset...])
    }

    /// The next tagged entry, `nil` at the end.
    mutating func entry() -> (tag: UInt8, bytes: UnsafeRawBufferPointer)? {
        guard offset < bytes.count else { return nil }
        let tag = bytes[offset]
        offset += 1
        return (tag, raw())
    }

    mutating func raw() -> UnsafeRawBufferPointer {
        let count = varint()
        let end = min(offset + count, bytes.count)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
