import APNSMockCore
import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A valid web push to a known subscription (VAPID, `TTL`, `Urgency`, `Topic`, an `aes128gcm`
/// body), with every part changeable for the rule table.
struct WebPushRequestBuilder: Sendable {
    static let subscriptionID = "sub-0123456789abcdef"
    static let keys = WebPushSubscriptionKeys.generate()
    static let plaintext = #"{"web_push":8030,"notification":{"title":"Hi","navigate":"https://example.com/"}}"#
    static let body = WebPushTestMessage(plaintext).encrypt(for: keys)

    var method = "POST"
    var path = "/" + Self.subscriptionID
    var vapid = VAPIDBuilder()
    var ttl: String? = "60"
    var urgency: String? = "high"
    var topic: String? = "order-42"
    var contentEncoding: String? = "aes128gcm"
    var extraHeaders: [HTTPHeaderField] = []
    var body = Self.body
    var bodyLength: Int?
    var subscription: WebPushSubscription? = WebPushSubscription(
        id: Self.subscriptionID, applicationServerKey: VAPIDBuilder().subscriptionKey, keys: Self.keys,
        origin: "https://example.com")
    var now = VAPIDBuilder.now

    var request: WebPushRequest {
        var headers: [HTTPHeaderField] = []
        if let authorization = vapid.authorizationHeader {
            headers.append(HTTPHeaderField(name: "authorization", value: authorization))
        }
        if let ttl { headers.append(HTTPHeaderField(name: "TTL", value: ttl)) }
        if let urgency { headers.append(HTTPHeaderField(name: "Urgency", value: urgency)) }
        if let topic { headers.append(HTTPHeaderField(name: "Topic", value: topic)) }
        if let contentEncoding { headers.append(HTTPHeaderField(name: "Content-Encoding", value: contentEncoding)) }
        headers += extraHeaders
        return WebPushRequest(method: method, path: path, headers: headers, body: body, bodyLength: bodyLength)
    }

    func evaluate() -> WebPushVerdict {
        let known = subscription
        return WebPushRequestRules().evaluate(request, endpointOrigin: VAPIDBuilder.audience, now: now) { id in
            known?.id == id ? known : nil
        }
    }

    func with(_ change: (inout WebPushRequestBuilder) -> Void) -> WebPushRequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }
}
