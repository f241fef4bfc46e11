import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension DeliveryRecordJSON {
    /// Why a JSON object is not a record: the key, and what is wrong with it, in words.
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key at fault (`record` for the object as a whole).
        public let key: String
        public let problem: String

        public var description: String { key == "record" ? problem : "\(key): \(problem)" }
    }

    /// The record a journal line describes: the inverse of `journalLine`, field by field
    /// (`DeliveryRecord.Field`, so a new field does not compile until it is read back). The
    /// `wire` copy of the headers and payload is preferred; without it (a record as the admin
    /// API shows it) the `headers` object and the `payload` are read, which loses repeated header
    /// names and the payload's exact spacing. The analysis is not read: it is computed on read.
    public static func decode(_ value: JSONValue) throws(DecodingError) -> DeliveryRecord {
        guard case .object = value else { throw DecodingError(key: "record", problem: "is not a JSON object") }
        let object = ObjectReader(value: value)
        var record = DeliveryRecord(
            receivedAt: 0, connectionID: 0, streamID: 0, environment: .sandbox, method: "", path: "", authority: nil,
            headerBlock: HeaderBlock(), token: nil, topic: nil, pushType: nil, apnsID: .echoed(""), uniqueID: nil,
            payload: [], payloadSize: 0, response: nil)
        let wire = value[wireKey.description]
        for field in DeliveryRecord.Field.all {
            let keys = field.definition.json
            switch field {
            case .sequence: record.sequence = try object.unsigned(keys[0])
            case .kind: record.kind = try object.enumeration(keys[0], RecordKind.self)
            case .receivedAt: record.receivedAt = try object.integer(keys[0])
            case .connectionID: record.connectionID = try object.unsigned(keys[0])
            case .streamID: record.streamID = Int32(clamping: try object.integer(keys[0]))
            case .environment: record.environment = try object.enumeration(keys[0], APNSEnvironment.self)
            case .method: record.method = try object.string(keys[0])
            case .path: record.path = try object.string(keys[0])
            case .authority: record.authority = try object.optionalString(keys[0])
            case .token: record.token = try object.optionalString(keys[0])
            case .headers: record.headerBlock = try headers(object, wire: wire, key: keys[0])
            case .topic: record.topic = try object.optionalString(keys[0])
            case .pushType:
                record.pushType = try object.optionalString(keys[0]).flatMap(APNSPushType.init(rawValue:))
            case .apnsID:
                let text = try object.string(keys[0])
                if try object.bool(keys[1]), let key = UUIDKey(text) {
                    let lowercase = text.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f") }
                    record.apnsID = .generated(high: key.high, low: key.low, lowercase: lowercase)
                } else {
                    record.apnsID = .echoed(text)
                }
            case .uniqueID: record.uniqueID = try object.optionalString(keys[0]).map(ResponseMessageID.echoed)
            case .payload: record.payload = try payload(object, wire: wire, keys: keys)
            case .payloadSize: record.payloadSize = Int(clamping: try object.integer(keys[0]))
            case .authentication: record.authentication = try authentication(value[keys[0]])
            case .response:
                record.response = try response(value[keys[0]], respondedAt: object.optionalInteger("respondedAt"))
            case .outcome: record.outcome = try object.enumeration(keys[0], DeliveryOutcome.self)
            case .faultID: record.faultID = try object.optionalString(keys[0])
            case .channelID:
                record.channelID = try object.optionalString(keys[0])
                record.viaChannel = try object.bool(keys[1])
            case .detail: record.detail = try object.optionalString(keys[0])
            case .delivery: record.deliveryHistory = try deliveryHistory(value[keys[1]], key: keys[1])
            case .webPush:
                // Kept as the JSON it was written as (journals from before Web Push have none).
                if let webPush = value[keys[0]], webPush != .null { record.webPush = Array(webPush.jsonText.utf8) }
            }
        }
        return record
    }

    private static func headers(_ object: ObjectReader, wire: JSONValue?, key: String) throws(DecodingError)
        -> HeaderBlock
    {
        var block = HeaderBlock()
        if case .array(let fields)? = wire?["headers"] {
            for field in fields {
                guard case .array(let pair) = field, pair.count == 2, case .string(let name) = pair[0],
                    case .string(let value) = pair[1]
                else { throw DecodingError(key: "wire.headers", problem: "each header must be [name, value]") }
                block.append(name: name, value: value)
            }
            return block
        }
        guard case .object(let members)? = object.value[key] else {
            throw DecodingError(key: key, problem: "must be an object of header names and values")
        }
        for member in members {
            guard case .string(let value) = member.value else {
                throw DecodingError(key: "\(key).\(member.key)", problem: "must be a string")
            }
            block.append(name: member.key, value: value)
        }
        return block
    }

    private static func payload(_ object: ObjectReader, wire: JSONValue?, keys: [String]) throws(DecodingError)
        -> [UInt8]
    {
        if case .string(let text)? = wire?["payload"] { return Array(text.utf8) }
        if case .string(let text)? = wire?["payloadBase64"] {
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError(key: "wire.payloadBase64", problem: "is not base64")
            }
            return Array(data)
        }
        let kind = try object.enumeration(keys[0], PayloadKind.self)
        switch (kind, object.value[keys[1]]) {
        case (.empty, _), (_, .null?), (_, nil): return []
        case (.notJSON, .string(let text)?), (.truncated, .string(let text)?): return Array(text.utf8)
        case (_, let payload?):
            var json = JSONWriter(capacity: 256)
            payload.write(to: &json)
            return json.bytes
        }
    }

    private static func authentication(_ value: JSONValue?) throws(DecodingError) -> AuthenticationResult? {
        guard let value, value != .null else { return nil }
        guard case .object = value else { throw DecodingError(key: "auth", problem: "must be an object or null") }
        let auth = ObjectReader(value: value, prefix: "auth.")
        var result = AuthenticationResult(method: try auth.enumeration("method", AuthenticationResult.Method.self))
        if result.method == .token {
            result.teamID = try auth.optionalString("teamId")
            result.keyID = try auth.optionalString("keyId")
            result.signatureVerified = try auth.bool("signatureVerified")
            result.keyUnknown = try auth.bool("keyUnknown")
        } else {
            result.certificateSubject = try auth.optionalString("certificateSubject")
            if case .array(let topics)? = value["certificateTopics"] {
                result.certificateTopics = topics.compactMap { if case .string(let topic) = $0 { topic } else { nil } }
            }
        }
        return result
    }

    /// The `deliveryHistory` array (absent in records written before it existed: empty).
    private static func deliveryHistory(_ value: JSONValue?, key: String) throws(DecodingError) -> [DeviceDelivery] {
        guard let value, value != .null else { return [] }
        guard case .array(let entries) = value else { throw DecodingError(key: key, problem: "must be an array") }
        var history: [DeviceDelivery] = []
        for (index, entry) in entries.enumerated() {
            guard case .object = entry else {
                throw DecodingError(key: "\(key)[\(index)]", problem: "must be an object")
            }
            let object = ObjectReader(value: entry, prefix: "\(key)[\(index)].")
            history.append(
                DeviceDelivery(
                    state: try object.enumeration("state", DeviceDelivery.State.self),
                    reason: try object.optionalString("reason").map { text throws(DecodingError) in
                        guard let reason = DeviceDelivery.Reason(rawValue: text) else {
                            throw DecodingError(key: "\(key)[\(index)].reason", problem: "unknown value '\(text)'")
                        }
                        return reason
                    },
                    at: try object.integer("at"), until: try object.optionalInteger("until")))
        }
        return history
    }

    private static func response(_ value: JSONValue?, respondedAt: Int64?) throws(DecodingError) -> DeliveryResponse? {
        guard let value, value != .null else { return nil }
        guard case .object = value else { throw DecodingError(key: "response", problem: "must be an object or null") }
        let response = ObjectReader(value: value, prefix: "response.")
        return DeliveryResponse(
            status: try response.optionalInteger("status").map { Int(clamping: $0) },
            reason: try response.optionalString("reason").map(APNSReason.init(rawValue:)),
            timestamp: try response.optionalInteger("timestamp"), respondedAt: respondedAt ?? 0,
            goAway: try response.bool("goAway"))
    }

    /// Reads typed members of one JSON object, naming the key in every error.
    private struct ObjectReader {
        let value: JSONValue
        var prefix = ""

        func string(_ key: String) throws(DecodingError) -> String {
            guard let text = try optionalString(key) else { throw error(key, "must be a string") }
            return text
        }

        func optionalString(_ key: String) throws(DecodingError) -> String? {
            switch value[key] {
            case .string(let text)?: return text
            case .null?, nil: return nil
            default: throw error(key, "must be a string or null")
            }
        }

        func integer(_ key: String) throws(DecodingError) -> Int64 {
            guard let number = try optionalInteger(key) else { throw error(key, "must be an integer") }
            return number
        }

        func optionalInteger(_ key: String) throws(DecodingError) -> Int64? {
            switch value[key] {
            case .number(_, let text)?:
                guard let number = Int64(text) else { throw error(key, "must be an integer; got \(text)") }
                return number
            case .null?, nil: return nil
            default: throw error(key, "must be an integer or null")
            }
        }

        func unsigned(_ key: String) throws(DecodingError) -> UInt64 {
            guard case .number(_, let text)? = value[key], let number = UInt64(text) else {
                throw error(key, "must be a non-negative integer")
            }
            return number
        }

        func bool(_ key: String) throws(DecodingError) -> Bool {
            switch value[key] {
            case .bool(let flag)?: return flag
            case nil: return false
            default: throw error(key, "must be true or false")
            }
        }

        func enumeration<Value: RawRepresentable<String>>(_ key: String, _ type: Value.Type) throws(DecodingError)
            -> Value
        {
            let text = try string(key)
            guard let known = Value(rawValue: text) else { throw error(key, "unknown value '\(text)'") }
            return known
        }

        private func error(_ key: String, _ problem: String) -> DecodingError {
            DecodingError(key: prefix + key, problem: problem)
        }
    }
}
