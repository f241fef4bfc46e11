import APNSMockCore

/// A device push under construction, field by field, so that a test can break exactly one
/// thing of the valid baseline and leave the rest alone.
///
/// The baseline is the valid request of the rule table: `POST /3/device/<64 hex>`, topic
/// `com.example.app`, push type `alert`, priority 10, expiration 0, a canonical `apns-id`, a
/// short collapse id, a provider token, and the payload `{"aps":{"alert":"hi"}}`.
struct RequestBuilder: Sendable {
    /// A classic 32-byte token, lower case.
    static let validToken = String(repeating: "0123456789abcdef", count: 4)
    static let validMessageID = "123E4567-E89B-42D3-A456-426614174000"
    static let baselinePayload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    var method = "POST"
    /// Everything before the token in `:path`.
    var pathPrefix = RequestRules.devicePathPrefix
    var token = RequestBuilder.validToken
    /// When set, the whole `:path`, ignoring `pathPrefix` and `token`.
    var pathOverride: String?

    var authorization: String? = "bearer aGVhZGVy.Y2xhaW1z.c2ln"
    var messageID: String? = RequestBuilder.validMessageID
    var pushType: String? = "alert"
    var topic: String? = "com.example.app"
    var priority: String? = "10"
    var expiration: String? = "0"
    var collapseID: String? = "game-42"
    /// Sent after the headers above, in this order.
    var extraHeaders: [HTTPHeaderField] = []

    var payload: [UInt8] = RequestBuilder.baselinePayload
    /// The number of body bytes received, when it differs from `payload.count`.
    var payloadSize: Int?
    var headerListTooLarge = false

    var strictPayload = false
    var topicRequired = true

    var path: String { pathOverride ?? pathPrefix + token }

    var headers: [HTTPHeaderField] {
        var fields: [HTTPHeaderField] = []
        func add(_ name: String, _ value: String?) {
            if let value { fields.append(HTTPHeaderField(name: name, value: value)) }
        }
        add("authorization", authorization)
        add("apns-id", messageID)
        add("apns-push-type", pushType)
        add("apns-topic", topic)
        add("apns-priority", priority)
        add("apns-expiration", expiration)
        add("apns-collapse-id", collapseID)
        return fields + extraHeaders
    }

    var request: APNSRequest {
        APNSRequest(
            method: method, path: path, authority: "api.sandbox.push.apple.com", headers: headers,
            payload: payload, payloadSize: payloadSize, headerListTooLarge: headerListTooLarge)
    }

    var rules: RequestRules { RequestRules(policy: ValidationPolicy(strictPayload: strictPayload)) }

    var context: ConnectionContext { ConnectionContext(environment: .sandbox, topicRequired: topicRequired) }

    func evaluate() -> APNSVerdict { rules.evaluate(request, context: context) }

    /// A copy with `change` applied.
    func with(_ change: (inout RequestBuilder) -> Void) -> RequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }

    /// A JSON object payload of exactly `size` bytes: `{"aps":{"alert":"xxx…"}}`.
    static func jsonPayload(size: Int) -> [UInt8] {
        let prefix = Array(#"{"aps":{"alert":""#.utf8)
        let suffix = Array(#""}}"#.utf8)
        precondition(size >= prefix.count + suffix.count)
        return prefix + Array(repeating: UInt8(ascii: "x"), count: size - prefix.count - suffix.count) + suffix
    }

    /// `count` hex digits, upper or lower case.
    static func hexToken(digits count: Int, upperCase: Bool = false) -> String {
        let alphabet = Array(upperCase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String((0..<count).map { alphabet[($0 * 7 + 3) % 16] })
    }
}
