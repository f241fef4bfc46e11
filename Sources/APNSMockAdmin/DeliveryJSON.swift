import APNSMockCore
import APNSMockRegistry
import APNSMockStore

/// Renders a `Delivery` as the admin API's JSON object (camelCase fields, epoch-ms times).
enum DeliveryJSON {
    /// The last provider token decoded: the records of a page mostly share one per connection,
    /// so a page decodes each token once.
    struct TokenCache {
        var authorization: String?
        var summary: JWTSummary?

        mutating func summary(of authorization: String) -> JWTSummary {
            if let summary, authorization == self.authorization { return summary }
            let fresh = JWTSummary(authorization: authorization)
            self.authorization = authorization
            summary = fresh
            return fresh
        }
    }

    static func write(_ delivery: Delivery, to json: inout JSONWriter) {
        var cache = TokenCache()
        write(delivery, to: &json, tokens: &cache)
    }

    static func write(_ delivery: Delivery, to json: inout JSONWriter, tokens: inout TokenCache) {
        json.beginObject()
        json.key("sequence")
        json.number(delivery.sequence)
        json.key("receivedAt")
        json.number(delivery.receivedAt)
        json.key("connectionId")
        json.number(delivery.connectionID)
        json.key("streamId")
        json.number(delivery.streamID)
        json.key("environment")
        json.string(delivery.environment.rawValue)
        json.key("method")
        json.string(delivery.method)
        json.key("path")
        json.string(delivery.path)
        json.key("authority")
        json.string(delivery.authority)
        json.key("token")
        json.string(delivery.token)
        json.key("headers")
        json.beginObject()
        var seen: [String] = []
        for field in delivery.headers where !seen.contains(field.name) {
            seen.append(field.name)
            let values = delivery.headers.filter { $0.name == field.name }.map(\.value)
            json.key(field.name)
            json.string(values.joined(separator: ", "))
        }
        json.endObject()
        json.key("authorization")
        if let value = delivery.header("authorization") {
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
        json.key("topic")
        json.string(delivery.topic)
        json.key("pushType")
        json.string(delivery.pushType?.rawValue)
        json.key("priority")
        json.number(delivery.header("apns-priority").flatMap { Int($0) })
        json.key("expiration")
        json.number(delivery.header("apns-expiration").flatMap { Int64($0) })
        json.key("collapseId")
        json.string(delivery.header("apns-collapse-id"))
        json.key("apnsId")
        json.string(delivery.apnsID)
        json.key("apnsIdGenerated")
        json.bool(delivery.apnsIDGenerated)
        json.key("uniqueId")
        json.string(delivery.uniqueID)
        let kind = delivery.payloadKind
        json.key("payloadKind")
        json.string(kind.rawValue)
        json.key("payload")
        switch kind {
        case .object, .otherJSON: json.raw(delivery.payload)
        case .empty: json.null()
        case .notJSON, .truncated: json.string(String(decoding: delivery.payload, as: UTF8.self))
        }
        json.key("payloadSize")
        json.number(delivery.payloadSize)
        json.key("auth")
        if let auth = delivery.authentication {
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
        } else {
            json.null()
        }
        json.key("response")
        json.beginObject()
        json.key("status")
        json.number(delivery.status)
        json.key("reason")
        json.string(delivery.reason?.rawValue)
        json.key("timestamp")
        json.number(delivery.respondedAt)
        json.key("goAway")
        json.bool(delivery.goAway)
        json.endObject()
        json.endObject()
    }
}
