import APNSMockCore

/// The compact form of one record inside `DeliveryStore`: fixed fields plus one byte blob.
///
/// Strings that repeat across records (topics, reasons, header names) are interned and held
/// as numbers; everything else sits length-prefixed in `blob` and is decoded only when the
/// admin API renders the record.
struct StoredDelivery: Sendable {
    var sequence: UInt64
    var receivedAt: Int64
    var respondedAt: Int64
    var connectionID: UInt64
    var streamID: Int32
    var payloadSize: Int32
    var status: UInt16
    var environment: UInt8
    /// `APNSPushType.code`, or `noPushType`.
    var pushType: UInt8
    var flags: UInt8
    var reason: UInt32
    var topic: UInt32
    /// method, path, authority, token, apns-id, unique id, payload, authentication, headers
    /// (a `HeaderBlock`, to the end), in the store's `BlobArena`.
    var blob: BlobRef

    static let noPushType: UInt8 = 0xFF
    static let flagGeneratedID: UInt8 = 1
    static let flagHasAuthority: UInt8 = 2
    static let flagHasUniqueID: UInt8 = 4
    static let flagHasToken: UInt8 = 8
    static let flagGoAway: UInt8 = 16
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

    /// Length-prefixed bytes.
    mutating func bytes(_ value: UnsafeBufferPointer<UInt8>) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    mutating func raw(_ value: [UInt8]) {
        varint(value.count)
        bytes.append(contentsOf: value)
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

    mutating func raw() -> UnsafeRawBufferPointer {
        let count = varint()
        let end = min(offset + count, bytes.count)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
