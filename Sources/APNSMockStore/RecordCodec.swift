import APNSMockCore

/// Writes and reads the blob part of a stored record: one entry per non-column field, as
/// `tag, length, bytes`.
///
/// The fields every push has are packed where their text has a shorter exact form (a million
/// records had to fit in 512 MiB): a well-formed token as its bytes instead of its hex digits, a
/// generated apns-id or apns-unique-id as its 128 bits and its case, and `POST` as no entry at
/// all. A packed entry's tag is its field's with `packed` set; everything reads back as it was.
enum RecordCodec {
    /// Set on the tag of an entry holding a field's packed form.
    static let packed: UInt8 = 0x80
    /// A packed id: a case byte (1 lower case) then the high and low 64 bits, big-endian.
    static let packedIDCount = 17

    /// The blob of `record`.
    static func encode(_ record: borrowing DeliveryRecord) -> [UInt8] {
        var writer = BlobWriter(
            capacity: 256 + record.path.utf8.count + record.payload.count + record.headerBlock.bytes.count)
        for field in DeliveryRecord.Field.variable {
            switch field {
            case .method:
                // Nearly every request is a POST: no entry means POST.
                guard record.method != "POST" else { continue }
                writer.entry(field, text: record.method)
            case .path:
                // The usual path is `/3/device/<token>`: rebuilt from the token on read.
                guard !isCanonical(path: record.path, token: record.token) else { continue }
                writer.entry(field, text: record.path)
            case .authority:
                guard let authority = record.authority else { continue }
                writer.entry(field, text: authority)
            case .token:
                guard var token = record.token else { continue }
                token.withUTF8 { digits in
                    if !writePackedToken(digits, to: &writer) { writer.entry(field, digits) }
                }
            case .headers:
                let start = writer.beginEntry(field)
                writer.varint(record.headerBlock.count)
                record.headerBlock.encode(into: &writer.bytes, strippingTokenSignatures: true)
                writer.endEntry(start)
            case .apnsID:
                writeID(record.apnsID, field: field, to: &writer)
            case .uniqueID:
                guard let uniqueID = record.uniqueID else { continue }
                writeID(uniqueID, field: field, to: &writer)
            case .channelID:
                guard var channelID = record.channelID else { continue }
                // One byte says whether the record came by the channel, then the id.
                channelID = (record.viaChannel ? "1" : "0") + channelID
                channelID.withUTF8 { writer.entry(field, $0) }
            case .payload:
                record.payload.withUnsafeBufferPointer { writer.entry(field, $0) }
            case .detail:
                guard let detail = record.detail else { continue }
                writer.entry(field, text: detail)
            case .webPush:
                guard let webPush = record.webPush else { continue }
                webPush.withUnsafeBufferPointer { writer.entry(field, $0) }
            case .authentication:
                guard let result = record.authentication else { continue }
                let start = writer.beginEntry(field)
                writeAuthentication(result, to: &writer)
                writer.endEntry(start)
            default:
                // Every field the table defines as `variable` is written above:
                // `RecordFieldTableTests.everyVariableFieldHasABlobEntry` fails for one that is not.
                continue
            }
        }
        return writer.bytes
    }

    /// A generated id as its packed 17 bytes; one sent by the client as its text.
    private static func writeID(_ id: ResponseMessageID, field: DeliveryRecord.Field, to writer: inout BlobWriter) {
        guard case .generated(let high, let low, let lowercase) = id else {
            id.withUTF8 { writer.entry(field, $0) }
            return
        }
        writer.bytes.append(field.rawValue | packed)
        writer.varint(packedIDCount)
        let start = writer.bytes.count
        writer.bytes.append(contentsOf: repeatElement(0, count: packedIDCount))
        writePackedID(high: high, low: low, lowercase: lowercase, into: &writer.bytes, at: start)
    }

    /// The tag of the entry that makes a blob a device's delivery of a broadcast: its value is
    /// the number (4 bytes, big-endian) of the shared part that holds every field but the
    /// token (`DeliveryStore.record(_: BroadcastFanOut)`). No field has this tag.
    static let sharedPartTag: UInt8 = 0x7F

    /// The blob of one device's delivery of a broadcast: the shared part's number, then the
    /// token (packed when it can be).
    static func encodeDelivery(token: String, sharedPart: UInt32) -> [UInt8] {
        var writer = BlobWriter(capacity: 48)
        writer.bytes.append(sharedPartTag)
        writer.varint(4)
        for shift in stride(from: 24, through: 0, by: -8) {
            writer.bytes.append(UInt8(truncatingIfNeeded: sharedPart >> shift))
        }
        var token = token
        token.withUTF8 { digits in
            if !writePackedToken(digits, to: &writer) { writer.entry(.token, digits) }
        }
        return writer.bytes
    }

    /// The shared part a delivery's blob refers to, if it is one.
    static func sharedPart(in blob: UnsafeRawBufferPointer) -> UInt32? {
        var reader = BlobReader(blob)
        guard let (tag, bytes) = reader.entry(), tag == sharedPartTag, bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Reads the blob into `record` (whose column fields are already set); for a broadcast's
    /// delivery, `shared` is its shared part, read first.
    static func decode(
        _ blob: UnsafeRawBufferPointer, shared: UnsafeRawBufferPointer? = nil, into record: inout DeliveryRecord,
        generatedID: Bool
    ) {
        var path: String?
        record.method = "POST"
        for part in [shared, blob] {
            guard let part else { continue }
            decodeEntries(part, into: &record, path: &path, generatedID: generatedID)
        }
        record.path = path ?? RequestRules.devicePathPrefix + (record.token ?? "")
    }

    private static func decodeEntries(
        _ blob: UnsafeRawBufferPointer, into record: inout DeliveryRecord, path: inout String?, generatedID: Bool
    ) {
        var reader = BlobReader(blob)
        while let (tag, bytes) = reader.entry() {
            if tag & packed != 0 {
                switch DeliveryRecord.Field(rawValue: tag & ~packed) {
                case .token: record.token = unpackedToken(bytes)
                case .apnsID:
                    guard let id = unpackedID(bytes) else { continue }
                    record.apnsID = generatedID ? id : .echoed(id.text)
                case .uniqueID:
                    // Read back as the text the record had (a generated unique id is shown, never matched).
                    guard let id = unpackedID(bytes) else { continue }
                    record.uniqueID = .echoed(id.text)
                default: continue
                }
                continue
            }
            guard let field = DeliveryRecord.Field(rawValue: tag) else { continue }
            switch field {
            case .method: record.method = string(bytes)
            case .path: path = string(bytes)
            case .authority: record.authority = string(bytes)
            case .token: record.token = string(bytes)
            case .headers:
                var inner = BlobReader(bytes)
                let count = inner.varint()
                record.headerBlock = HeaderBlock(encoded: Array(inner.rest())[...], count: count) ?? HeaderBlock()
            case .apnsID:
                let text = string(bytes)
                if generatedID, let key = UUIDKey(text) {
                    let lowercase = text.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f") }
                    record.apnsID = .generated(high: key.high, low: key.low, lowercase: lowercase)
                } else {
                    record.apnsID = .echoed(text)
                }
            case .uniqueID: record.uniqueID = .echoed(string(bytes))
            case .channelID:
                record.viaChannel = bytes.first == UInt8(ascii: "1")
                record.channelID = string(UnsafeRawBufferPointer(rebasing: bytes.dropFirst()))
            case .payload: record.payload = Array(bytes)
            case .detail: record.detail = string(bytes)
            case .webPush: record.webPush = Array(bytes)
            case .authentication:
                var inner = BlobReader(bytes)
                record.authentication = readAuthentication(&inner)
            default:
                continue  // fixed fields are never in a blob
            }
        }
    }

    /// The raw bytes of one blob field, without decoding the others, and whether they are its
    /// packed form.
    static func field(_ field: DeliveryRecord.Field, in blob: UnsafeRawBufferPointer)
        -> (bytes: UnsafeRawBufferPointer, packed: Bool)?
    {
        var reader = BlobReader(blob)
        while let entry = reader.entry() {
            if entry.tag & ~packed == field.rawValue { return (entry.bytes, entry.tag & packed != 0) }
        }
        return nil
    }

    /// The token index's key for the record's token, read from its blob alone: a packed
    /// 32-byte token's key is made from its bytes, without its text.
    static func tokenKey(in blob: UnsafeRawBufferPointer) -> TokenKey? {
        guard let (bytes, packed) = field(.token, in: blob) else { return nil }
        return packed ? TokenKey(packed: bytes) { unpackedToken(bytes) } : TokenKey(string(bytes))
    }

    /// The record's apns-id as a key, read from its blob alone; `nil` when it is not a UUID.
    static func apnsIDKey(in blob: UnsafeRawBufferPointer) -> UUIDKey? {
        guard let (bytes, packed) = field(.apnsID, in: blob) else { return nil }
        if packed {
            guard let id = unpackedID(bytes), case .generated(let high, let low, _) = id else { return nil }
            return UUIDKey(high: high, low: low)
        }
        return UUIDKey(bytes: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// The record's apns-unique-id as a key, read from its blob alone; `nil` when it has none
    /// or it is not a UUID.
    static func uniqueIDKey(in blob: UnsafeRawBufferPointer) -> UUIDKey? {
        guard let (bytes, packed) = field(.uniqueID, in: blob) else { return nil }
        if packed {
            guard let id = unpackedID(bytes), case .generated(let high, let low, _) = id else { return nil }
            return UUIDKey(high: high, low: low)
        }
        return UUIDKey(bytes: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Writes a generated id's packed bytes into `bytes` at `offset` (`packedIDCount` of them).
    static func writePackedID(high: UInt64, low: UInt64, lowercase: Bool, into bytes: inout [UInt8], at offset: Int) {
        bytes[offset] = lowercase ? 1 : 0
        for index in 0..<8 {
            bytes[offset + 1 + index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[offset + 9 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
    }

    private static func unpackedID(_ bytes: UnsafeRawBufferPointer) -> ResponseMessageID? {
        guard bytes.count == packedIDCount else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[1 + index])
            low = low << 8 | UInt64(bytes[9 + index])
        }
        return .generated(high: high, low: low, lowercase: bytes[0] == 1)
    }

    /// A token of lower-case hex digits, an even number of them, as its bytes (a packed entry);
    /// `false` (nothing written) for any other token, which is kept as sent.
    private static func writePackedToken(_ digits: UnsafeBufferPointer<UInt8>, to writer: inout BlobWriter) -> Bool {
        let count = digits.count / 2
        guard !digits.isEmpty, digits.count % 2 == 0, count < 0x80 * 0x80 else { return false }
        let start = writer.bytes.count
        writer.bytes.append(DeliveryRecord.Field.token.rawValue | packed)
        writer.varint(count)
        let valueStart = writer.bytes.count
        writer.bytes.append(contentsOf: repeatElement(0, count: count))
        let packedAll = writer.bytes.withUnsafeMutableBufferPointer { bytes in
            hexValues.withUnsafeBufferPointer { values in
                // 0x10 marks a byte that is not a lower-case hex digit; OR-ing every value
                // finds one after the loop instead of a branch per digit.
                var seen: UInt8 = 0
                for index in 0..<count {
                    let high = values[Int(digits[2 * index])]
                    let low = values[Int(digits[2 * index + 1])]
                    seen |= high | low
                    bytes[valueStart + index] = high << 4 | (low & 0x0F)
                }
                return seen & 0x10 == 0
            }
        }
        if !packedAll { writer.bytes.removeSubrange(start...) }
        return packedAll
    }

    /// Each byte's value as a lower-case hex digit, or 0x10 for any other byte.
    /// Each byte's value as a lower-case hex digit; 0x10 for any other byte.
    static let hexValues: [UInt8] = (0...255).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(byte) - UInt8(ascii: "a") + 10
        default: 0x10
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private static func unpackedToken(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = hexDigits
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits[Int(byte >> 4)]
                buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
            }
            return bytes.count * 2
        }
    }

    private static func isCanonical(path: String, token: String?) -> Bool {
        guard var token else { return false }
        var path = path
        return path.utf8.count == RequestRules.devicePathPrefix.utf8.count + token.utf8.count
            && ASCIIBytes.hasPrefix(path, "/3/device/")
            && path.withUTF8 { pathBytes in
                token.withUTF8 { tokenBytes in
                    ASCIIBytes.equal(UnsafeBufferPointer(rebasing: pathBytes[10...]), tokenBytes)
                }
            }
    }

    private static func string(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// method byte (1 token, 2 certificate), flag byte, team, key, subject, topics.
    private static func writeAuthentication(_ result: borrowing AuthenticationResult, to writer: inout BlobWriter) {
        writer.varint(result.method == .token ? 1 : 2)
        writer.varint((result.signatureVerified ? 1 : 0) | (result.keyUnknown ? 2 : 0))
        writer.string(result.teamID ?? "")
        writer.string(result.keyID ?? "")
        writer.string(result.certificateSubject ?? "")
        writer.varint(result.certificateTopics.count)
        for topic in result.certificateTopics { writer.string(topic) }
    }

    private static func readAuthentication(_ reader: inout BlobReader) -> AuthenticationResult? {
        let method = reader.varint()
        guard method != 0 else { return nil }
        let flags = reader.varint()
        let team = reader.string()
        let key = reader.string()
        let subject = reader.string()
        let topics = (0..<reader.varint()).map { _ in reader.string() }
        return AuthenticationResult(
            method: method == 1 ? .token : .certificate, teamID: team.isEmpty ? nil : team,
            keyID: key.isEmpty ? nil : key, signatureVerified: flags & 1 != 0, keyUnknown: flags & 2 != 0,
            certificateSubject: subject.isEmpty ? nil : subject, certificateTopics: topics)
    }
}
