import APNSMockCore

/// Writes and reads the blob part of a stored record: one entry per non-column field, as
/// `tag, length, bytes`.
enum RecordCodec {
    /// The blob of `record`, and where in it a generated apns-id's 36 characters go (the store
    /// writes them under its lock, once the id's bits are final).
    static func encode(_ record: borrowing DeliveryRecord) -> (bytes: [UInt8], apnsIDOffset: Int) {
        var writer = BlobWriter(
            capacity: 256 + record.path.utf8.count + record.payload.count + record.headerBlock.bytes.count)
        var apnsIDOffset = 0
        for field in DeliveryRecord.Field.variable {
            switch field {
            case .method:
                writer.entry(field, text: record.method)
            case .path:
                // The usual path is `/3/device/<token>`: rebuilt from the token on read.
                guard !isCanonical(path: record.path, token: record.token) else { continue }
                writer.entry(field, text: record.path)
            case .authority:
                guard let authority = record.authority else { continue }
                writer.entry(field, text: authority)
            case .token:
                guard let token = record.token else { continue }
                writer.entry(field, text: token)
            case .headers:
                let start = writer.beginEntry(field)
                writer.varint(record.headerBlock.count)
                record.headerBlock.encode(into: &writer.bytes, strippingTokenSignatures: true)
                writer.endEntry(start)
            case .apnsID:
                if record.apnsID.isGenerated {
                    // The store writes a generated id under its lock, once its bits are final.
                    writer.bytes.append(field.rawValue)
                    writer.varint(36)
                    apnsIDOffset = writer.bytes.count
                    writer.bytes.append(contentsOf: repeatElement(0, count: 36))
                } else {
                    record.apnsID.withUTF8 { writer.entry(field, $0) }
                }
            case .uniqueID:
                guard let uniqueID = record.uniqueID else { continue }
                uniqueID.withUTF8 { writer.entry(field, $0) }
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
        return (writer.bytes, apnsIDOffset)
    }

    /// Reads the blob into `record` (whose column fields are already set).
    static func decode(_ blob: UnsafeRawBufferPointer, into record: inout DeliveryRecord, generatedID: Bool) {
        var reader = BlobReader(blob)
        var path: String?
        while let (tag, bytes) = reader.entry() {
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
            case .authentication:
                var inner = BlobReader(bytes)
                record.authentication = readAuthentication(&inner)
            default:
                continue  // fixed fields are never in a blob
            }
        }
        record.path = path ?? RequestRules.devicePathPrefix + (record.token ?? "")
    }

    /// The raw bytes of one blob field, without decoding the others.
    static func field(_ field: DeliveryRecord.Field, in blob: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var reader = BlobReader(blob)
        while let entry = reader.entry() {
            if entry.tag == field.rawValue { return entry.bytes }
        }
        return nil
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
