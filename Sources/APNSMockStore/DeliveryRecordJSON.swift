import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Renders a `DeliveryRecord` as the admin API's JSON object (camelCase fields, epoch-ms
/// times), one part per `DeliveryRecord.Field`, in that order.
public enum DeliveryRecordJSON {
    /// The last provider token decoded: the records of a page mostly share one per connection,
    /// so a page decodes each token once.
    public struct TokenCache {
        var authorization: String?
        var summary: JWTSummary?

        public init() {}

        mutating func summary(of authorization: String) -> JWTSummary {
            if let summary, authorization == self.authorization { return summary }
            let fresh = JWTSummary(authorization: authorization)
            self.authorization = authorization
            summary = fresh
            return fresh
        }
    }

    /// The record as JSON bytes.
    public static func encode(_ record: DeliveryRecord) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        var cache = TokenCache()
        write(record, to: &writer, tokens: &cache)
        return writer.bytes
    }

    /// The key of a record's one-line summary (`RecordSummary`), written first: it is derived
    /// from the fields, never stored, and not in the journal.
    public static let summaryKey: StaticString = "summary"

    /// Writes `record` as one JSON object: its `summary`, each field's keys
    /// (`Field.definition.json`) in the table's order, then the analysis when the record has
    /// one, then whatever `extra` writes (keys and values).
    public static func write(
        _ record: DeliveryRecord, to json: inout JSONWriter, tokens: inout TokenCache,
        extra: ((inout JSONWriter) -> Void)? = nil
    ) {
        json.beginObject()
        json.key(summaryKey)
        json.string(record.summary.text)
        writeFields(record, to: &json, tokens: &tokens)
        if let analysis = record.analysis {
            writeAnalysis(analysis, to: &json)
        } else if record.kind == .channel {
            // A channel request carries no notification: nothing to analyse, the keys all the same.
            json.key(writtenAnalysisKeys[0])
            json.null()
            json.key(writtenAnalysisKeys[1])
            json.null()
            json.key(writtenAnalysisKeys[2])
            json.beginArray()
            json.endArray()
            json.key(writtenAnalysisKeys[3])
            json.null()
        }
        extra?(&json)
        json.endObject()
    }

    /// The key of a journal line's exact copy of what came on the wire (`journalLine`).
    public static let wireKey: StaticString = "wire"

    /// One line of the journal (`--journal`): the record's JSON as the admin API shows it
    /// (without the analysis, which is computed again on read), plus `wire`, the request as it
    /// came: `headers`, every field in order as `[name, value]` (repeated names kept apart,
    /// the token's signature stripped as the store strips it), and the payload's exact bytes,
    /// as `payload` (text) or `payloadBase64` (when they are not UTF-8). Ends with a newline.
    public static func journalLine(_ record: DeliveryRecord, tokens: inout TokenCache) -> [UInt8] {
        var record = record
        var encoded: [UInt8] = []
        record.headerBlock.encode(into: &encoded, strippingTokenSignatures: true)
        if let stripped = HeaderBlock(encoded: encoded[...], count: record.headerBlock.count) {
            record.headerBlock = stripped
        }
        var json = JSONWriter(capacity: 1024 + record.payload.count * 2)
        json.beginObject()
        writeFields(record, to: &json, tokens: &tokens)
        json.key(wireKey)
        json.beginObject()
        json.key("headers")
        json.beginArray()
        for field in record.headers {
            json.beginArray()
            json.string(field.name)
            json.string(field.value)
            json.endArray()
        }
        json.endArray()
        if let text = String(validating: record.payload, as: UTF8.self) {
            json.key("payload")
            json.string(text)
        } else {
            json.key("payloadBase64")
            json.string(Data(record.payload).base64EncodedString())
        }
        json.endObject()
        json.endObject()
        var line = json.bytes
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Every field's keys (`Field.definition.json`) in the table's order.
    private static func writeFields(_ record: DeliveryRecord, to json: inout JSONWriter, tokens: inout TokenCache) {
        for field in DeliveryRecord.Field.all {
            let keys = field.definition.writtenKeys
            switch field {
            case .sequence:
                json.key(keys[0])
                json.number(record.sequence)
            case .kind:
                json.key(keys[0])
                json.string(record.kind.rawValue)
            case .receivedAt:
                json.key(keys[0])
                json.number(record.receivedAt)
                json.key(keys[1])
                json.number(record.response?.respondedAt)
            case .connectionID:
                json.key(keys[0])
                json.number(record.connectionID)
            case .streamID:
                json.key(keys[0])
                json.number(record.streamID)
            case .environment:
                json.key(keys[0])
                json.string(record.environment.rawValue)
            case .method:
                json.key(keys[0])
                json.string(record.method)
            case .path:
                json.key(keys[0])
                json.string(record.path)
            case .authority:
                json.key(keys[0])
                json.string(record.authority)
            case .token:
                json.key(keys[0])
                json.string(record.token)
            case .headers:
                writeHeaders(record, keys: keys, to: &json, tokens: &tokens)
            case .topic:
                json.key(keys[0])
                json.string(record.topic)
            case .pushType:
                json.key(keys[0])
                json.string(record.pushType?.rawValue)
            case .apnsID:
                json.key(keys[0])
                json.string(record.apnsID.text)
                json.key(keys[1])
                json.bool(record.apnsIDGenerated)
            case .uniqueID:
                json.key(keys[0])
                json.string(record.uniqueID?.text)
            case .payload:
                let kind = record.payloadKind
                json.key(keys[0])
                json.string(kind.rawValue)
                json.key(keys[1])
                switch kind {
                case .object, .otherJSON: json.raw(record.payload)
                case .empty: json.null()
                case .notJSON, .truncated: json.string(String(decoding: record.payload, as: UTF8.self))
                }
            case .payloadSize:
                json.key(keys[0])
                json.number(record.payloadSize)
            case .authentication:
                json.key(keys[0])
                writeAuthentication(record.authentication, to: &json)
            case .response:
                json.key(keys[0])
                guard let response = record.response else {
                    json.null()
                    continue
                }
                json.beginObject()
                json.key("status")
                json.number(response.status)
                json.key("reason")
                json.string(response.reason?.rawValue)
                json.key("timestamp")
                json.number(response.timestamp)
                json.key("goAway")
                json.bool(response.goAway)
                json.endObject()
            case .outcome:
                json.key(keys[0])
                json.string(record.outcome.rawValue)
            case .faultID:
                json.key(keys[0])
                json.string(record.faultID)
            case .channelID:
                json.key(keys[0])
                json.string(record.channelID)
                json.key(keys[1])
                json.bool(record.viaChannel)
            case .detail:
                json.key(keys[0])
                json.string(record.detail)
            case .webPush:
                json.key(keys[0])
                if let webPush = record.webPush { json.raw(webPush) } else { json.null() }
            case .delivery:
                json.key(keys[0])
                if let delivery = record.delivery { delivery.write(to: &json) } else { json.null() }
                json.key(keys[1])
                json.beginArray()
                for change in record.deliveryHistory { change.write(to: &json) }
                json.endArray()
            }
        }
    }

    /// The keys `writeAnalysis` writes, in order.
    public static var analysisKeys: [String] { writtenAnalysisKeys.map(\.description) }
    static let writtenAnalysisKeys: [StaticString] = ["payloadLimit", "payloadBytesRemaining", "lint", "preview"]

    /// `payloadLimit`, `payloadBytesRemaining`, `lint` (the findings) and `preview` (`null`
    /// for a rejected push or a payload that is no JSON object).
    public static func writeAnalysis(_ analysis: PayloadAnalysis, to json: inout JSONWriter) {
        json.key(writtenAnalysisKeys[0])
        json.number(analysis.limit)
        json.key(writtenAnalysisKeys[1])
        json.number(analysis.bytesRemaining)
        json.key(writtenAnalysisKeys[2])
        json.beginArray()
        for finding in analysis.findings { finding.write(to: &json) }
        json.endArray()
        json.key(writtenAnalysisKeys[3])
        if let preview = analysis.preview { preview.write(to: &json) } else { json.null() }
    }

    /// `headers` (each name once, repeated values joined), the decoded `authorization`, and the
    /// `apns-*` values the admin API shows as their own fields.
    private static func writeHeaders(
        _ record: DeliveryRecord, keys: [StaticString], to json: inout JSONWriter, tokens: inout TokenCache
    ) {
        // Each name once, where it first came, with its values joined by ", " when it came more
        // than once (rare: a value is written straight from the block's bytes otherwise).
        let block = record.headerBlock
        let fields = Array(block)
        json.key(keys[0])
        json.beginObject()
        for (index, field) in fields.enumerated() {
            guard !fields[..<index].contains(where: { block.sameName($0, field) }) else { continue }
            if let known = field.knownName {
                json.key(known.spelling)
            } else {
                block.withBytes(field.nameRange) { json.key(utf8: $0) }
            }
            let repeats = fields[(index + 1)...].filter { block.sameName($0, field) }
            if repeats.isEmpty {
                block.withBytes(field.valueRange) { json.string(utf8: $0) }
            } else {
                json.string(([field] + repeats).map { block.string($0.valueRange) }.joined(separator: ", "))
            }
        }
        json.endObject()
        json.key(keys[1])
        if let value = block.firstValue(.authorization) {
            let summary = tokens.summary(of: value)
            json.beginObject()
            json.key("scheme")
            json.string(String(value.utf8.prefix { $0 != UInt8(ascii: " ") })!)
            json.key("header")
            summary.headerJSON.map { json.raw($0.utf8) } ?? json.null()
            json.key("claims")
            summary.claimsJSON.map { json.raw($0.utf8) } ?? json.null()
            json.endObject()
        } else {
            json.null()
        }
        json.key(keys[2])
        json.number(block.firstValue(.apnsPriority).flatMap { Int($0) })
        json.key(keys[3])
        json.number(block.firstValue(.apnsExpiration).flatMap { Int64($0) })
        json.key(keys[4])
        json.string(block.firstValue(.apnsCollapseID))
    }

    private static func writeAuthentication(_ auth: AuthenticationResult?, to json: inout JSONWriter) {
        guard let auth else {
            json.null()
            return
        }
        json.beginObject()
        json.key("method")
        json.string(auth.method.rawValue)
        if auth.method == .token {
            json.key("teamId")
            json.string(auth.teamID)
            json.key("keyId")
            json.string(auth.keyID)
            json.key("signatureVerified")
            json.bool(auth.signatureVerified)
            json.key("keyUnknown")
            json.bool(auth.keyUnknown)
        } else {
            json.key("certificateSubject")
            json.string(auth.certificateSubject)
            json.key("certificateTopics")
            json.beginArray()
            for topic in auth.certificateTopics { json.string(topic) }
            json.endArray()
        }
        json.endObject()
    }
}
