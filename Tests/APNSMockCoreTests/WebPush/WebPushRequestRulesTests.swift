import APNSMockCore
import Testing

/// One row of the web push rule table: a change to the valid baseline and Apple's answer.
struct WebPushCase: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let reason: APNSReason?
    let check: WebPushCheck?
    let change: @Sendable (inout WebPushRequestBuilder) -> Void

    var testDescription: String { name }

    static func accepted(_ name: String, _ change: @escaping @Sendable (inout WebPushRequestBuilder) -> Void)
        -> WebPushCase
    {
        WebPushCase(name: name, status: 201, reason: nil, check: nil, change: change)
    }

    static func rejected(
        _ name: String, _ status: Int, _ reason: APNSReason, at check: WebPushCheck,
        _ change: @escaping @Sendable (inout WebPushRequestBuilder) -> Void
    ) -> WebPushCase {
        WebPushCase(name: name, status: status, reason: reason, check: check, change: change)
    }

    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let verdict = WebPushRequestBuilder().with(change).evaluate()
        #expect(verdict.status == status, "\(verdict.detail ?? "")", sourceLocation: sourceLocation)
        #expect(verdict.reason == reason, sourceLocation: sourceLocation)
        #expect(verdict.failedCheck == check, sourceLocation: sourceLocation)
        #expect(verdict.isAccepted == (reason == nil), sourceLocation: sourceLocation)
        #expect((verdict.detail != nil) == (reason != nil), sourceLocation: sourceLocation)
        if let reason { #expect(APNSStatus.forReason(reason) == status, sourceLocation: sourceLocation) }
    }
}

/// `WebPushRequestRules`: a push as Apple's "Sending web push notifications in web apps and
/// browsers", RFC 8030, RFC 8291 and RFC 8292 describe it (APNS-REFERENCE §10).
@Suite("WebPushRequestRules: the rule table, one defect per row")
struct WebPushRequestRulesTests {
    @Test("The valid baseline is accepted (201), decrypted, and the verdict carries its facts")
    func baseline() {
        let verdict = WebPushRequestBuilder().evaluate()
        #expect(verdict.status == 201 && verdict.reason == nil && verdict.failedCheck == nil && verdict.detail == nil)
        #expect(verdict.subscriptionID == WebPushRequestBuilder.subscriptionID)
        #expect(verdict.subscription?.origin == "https://example.com")
        #expect(verdict.vapid?.subject == "mailto:push@example.com")
        #expect(verdict.vapid?.audience == VAPIDBuilder.audience)
        #expect(verdict.vapid?.publicKey == VAPIDBuilder().subscriptionKey)
        #expect(verdict.ttl == 60)
        #expect(verdict.urgency == .high)
        #expect(verdict.topic == "order-42")
        #expect(verdict.contentEncoding == "aes128gcm")
        #expect(verdict.plaintext == Array(WebPushRequestBuilder.plaintext.utf8))
        #expect(verdict.decryptionProblem == nil)
    }

    @Test("The checks run in the documented order")
    func checkOrder() {
        #expect(WebPushRequestRules.checkOrder == WebPushCheck.allCases)
        // Bad TTL and bad Urgency together: TTL runs first.
        let verdict = WebPushRequestBuilder().with {
            $0.ttl = "soon"
            $0.urgency = "urgent"
        }.evaluate()
        #expect(verdict.reason == .badTtl)
        // A wrong method is answered before anything else is looked at.
        let first = WebPushRequestBuilder().with {
            $0.method = "GET"
            $0.path = "/"
            $0.ttl = nil
        }.evaluate()
        #expect(first.reason == .methodNotAllowed && first.subscriptionID == nil)
    }

    static let rows: [WebPushCase] = [
        // Apple's status table: 405 "only POST".
        .rejected("GET → 405 MethodNotAllowed", 405, .methodNotAllowed, at: .method) { $0.method = "GET" },
        .rejected("PUT → 405 MethodNotAllowed", 405, .methodNotAllowed, at: .method) { $0.method = "PUT" },
        // Apple: 404 "invalid :path".
        .rejected("The root path → 404 BadPath", 404, .badPath, at: .path) { $0.path = "/" },
        .rejected("Two path segments → 404 BadPath", 404, .badPath, at: .path) { $0.path = "/a/b" },
        .rejected("An unknown subscription id → 404 BadPath", 404, .badPath, at: .subscription) {
            $0.path = "/no-such-subscription"
        },
        .accepted("A query string after the id is ignored (mock's choice)") {
            $0.path = "/" + WebPushRequestBuilder.subscriptionID + "?x=1"
        },
        // Apple: 410 "expired"; the reasons are the mock's choice.
        .rejected("A deleted subscription → 410 Unregistered", 410, .unregistered, at: .subscription) {
            $0.subscription?.deletedAt = VAPIDBuilder.now - 1000
        },
        .rejected("An expired subscription → 410 ExpiredToken", 410, .expiredToken, at: .subscription) {
            $0.subscription?.expiresAt = VAPIDBuilder.now
        },
        .accepted("A subscription that expires later") { $0.subscription?.expiresAt = VAPIDBuilder.now + 1000 },
        // Apple: 403 "an error with your authentication" (the VAPID rows are in VAPIDVerifierTests).
        .rejected(
            "No Authorization → 403 BadAuthorizationHeader", 403, .badAuthorizationHeader, at: .authorization
        ) { $0.vapid.authorization = .some(nil) },
        .rejected(
            "Authorization twice → 403 BadAuthorizationHeader", 403, .badAuthorizationHeader, at: .authorization
        ) { $0.extraHeaders = [HTTPHeaderField(name: "Authorization", value: VAPIDBuilder().authorizationHeader!)] },
        .rejected("A second VAPID key → 403 VapidPkHashMismatch", 403, .vapidPkHashMismatch, at: .authorization) {
            $0.vapid.signer = VAPIDBuilder.otherKey
        },
        .rejected("aud of another origin → 403 BadJwtToken", 403, .badJwtToken, at: .authorization) {
            $0.vapid.audience = .string("https://web.push.apple.com")
        },
        .rejected("A VAPID JWT past its exp → 403 BadJwtToken", 403, .badJwtToken, at: .authorization) {
            $0.now = VAPIDBuilder.now + 13 * 3_600_000
        },
        // RFC 8030 §5.2: TTL is required, delta-seconds; Apple: BadTtl.
        .rejected("No TTL → 400 BadTtl", 400, .badTtl, at: .ttl) { $0.ttl = nil },
        .rejected("TTL -1 → 400 BadTtl", 400, .badTtl, at: .ttl) { $0.ttl = "-1" },
        .rejected("TTL 1.5 → 400 BadTtl", 400, .badTtl, at: .ttl) { $0.ttl = "1.5" },
        .rejected("TTL 'abc' → 400 BadTtl", 400, .badTtl, at: .ttl) { $0.ttl = "abc" },
        .rejected("An empty TTL → 400 BadTtl", 400, .badTtl, at: .ttl) { $0.ttl = "" },
        .rejected("TTL twice → 400 BadTtl", 400, .badTtl, at: .ttl) {
            $0.extraHeaders = [HTTPHeaderField(name: "ttl", value: "60")]
        },
        .accepted("TTL 0 (RFC 8030 allows it; pywebpush's default)") { $0.ttl = "0" },
        .accepted("TTL with spaces around it") { $0.ttl = " 2419200 " },
        // RFC 8030 §5.3; Apple: BadUrgency.
        .rejected("Urgency 'urgent' → 400 BadUrgency", 400, .badUrgency, at: .urgency) { $0.urgency = "urgent" },
        .rejected("Urgency 'HIGH' → 400 BadUrgency (RFC 8030's values are lower case)", 400, .badUrgency, at: .urgency)
        { $0.urgency = "HIGH" },
        .rejected("An empty Urgency → 400 BadUrgency", 400, .badUrgency, at: .urgency) { $0.urgency = "" },
        .accepted("No Urgency (normal)") { $0.urgency = nil },
        .accepted("Urgency very-low") { $0.urgency = "very-low" },
        .accepted("Urgency low") { $0.urgency = "low" },
        .accepted("Urgency normal") { $0.urgency = "normal" },
        // RFC 8030 §5.4: at most 32 base64url characters; Apple: BadWebPushTopic.
        .rejected("A 33-character Topic → 400 BadWebPushTopic", 400, .badWebPushTopic, at: .topic) {
            $0.topic = String(repeating: "a", count: 33)
        },
        .rejected("A Topic with a space → 400 BadWebPushTopic", 400, .badWebPushTopic, at: .topic) {
            $0.topic = "order 42"
        },
        .rejected("A Topic with ':' → 400 BadWebPushTopic", 400, .badWebPushTopic, at: .topic) {
            $0.topic = "msg:42"
        },
        .rejected("A Topic with base64 padding → 400 BadWebPushTopic", 400, .badWebPushTopic, at: .topic) {
            $0.topic = "abc="
        },
        .rejected("An empty Topic → 400 BadWebPushTopic", 400, .badWebPushTopic, at: .topic) { $0.topic = "" },
        .rejected(
            "A 13-character Topic (4n+1, refused by Apple as observed) → 400 BadWebPushTopic", 400, .badWebPushTopic,
            at: .topic
        ) { $0.topic = "frenz-ai-done" },
        .accepted("A 32-character Topic") { $0.topic = String(repeating: "A", count: 32) },
        .accepted("A 12-character Topic") { $0.topic = "neueangebote" },
        .accepted("No Topic") { $0.topic = nil },
        // Apple: 413, 4 KB (RFC 8030 §7.2, RFC 8291 §4: 4096 bytes of body).
        .rejected("A 4097-byte body → 413 PayloadTooLarge", 413, .payloadTooLarge, at: .payloadSize) {
            $0.body = [UInt8](repeating: 1, count: 4097)
        },
        .rejected(
            "5000 bytes announced, the first 100 kept → 413 PayloadTooLarge", 413, .payloadTooLarge, at: .payloadSize
        ) {
            $0.body = [UInt8](repeating: 1, count: 100)
            $0.bodyLength = 5000
        },
        .accepted("A 4096-byte body (it does not decrypt: still 201)") {
            $0.body = [UInt8](repeating: 1, count: 4096)
        },
        // RFC 8291 §4: aes128gcm only; Apple: BadWebPushRequest "doesn't conform to the encryption rules".
        .rejected(
            "A body without Content-Encoding → 400 BadWebPushRequest", 400, .badWebPushRequest, at: .contentEncoding
        ) { $0.contentEncoding = nil },
        .rejected(
            "Content-Encoding aesgcm (the draft) → 400 BadWebPushRequest", 400, .badWebPushRequest, at: .contentEncoding
        ) { $0.contentEncoding = "aesgcm" },
        .rejected(
            "Content-Encoding gzip → 400 BadWebPushRequest", 400, .badWebPushRequest, at: .contentEncoding
        ) { $0.contentEncoding = "gzip" },
        .rejected(
            "Content-Encoding twice → 400 BadWebPushRequest", 400, .badWebPushRequest, at: .contentEncoding
        ) { $0.extraHeaders = [HTTPHeaderField(name: "content-encoding", value: "aes128gcm")] },
        .accepted("No body and no Content-Encoding (a push without payload)") {
            $0.body = []
            $0.contentEncoding = nil
        },
        .accepted("Content-Encoding in capitals") { $0.contentEncoding = "AES128GCM" },
    ]

    @Test("One change per row", arguments: rows)
    func row(_ row: WebPushCase) { row.verify() }

    @Test("A body that does not decrypt is still 201, and the verdict says why")
    func undecryptableBody() {
        let verdict = WebPushRequestBuilder().with {
            $0.body = WebPushTestMessage("for someone else").encrypt(for: .generate())
        }.evaluate()
        #expect(verdict.status == 201 && verdict.isAccepted)
        #expect(verdict.plaintext == nil)
        #expect(verdict.decryptionProblem == .authenticationFailed)
    }

    @Test("decryptingBody: false leaves the decryption to the caller")
    func deferredDecryption() throws {
        let builder = WebPushRequestBuilder()
        let subscription = builder.subscription
        let verdict = WebPushRequestRules().evaluate(
            builder.request, endpointOrigin: VAPIDBuilder.audience, now: builder.now, decryptingBody: false
        ) { $0 == subscription?.id ? subscription : nil }
        #expect(verdict.isAccepted && verdict.decryption == nil)
        let keys = try #require(verdict.subscription?.keys)
        #expect(
            try WebPushPayloadDecryption.decrypt(builder.body, with: keys).get()
                == Array(WebPushRequestBuilder.plaintext.utf8))
    }

    @Test("A push without a body has no decryption")
    func noBody() {
        let verdict = WebPushRequestBuilder().with {
            $0.body = []
            $0.contentEncoding = nil
        }.evaluate()
        #expect(verdict.isAccepted && verdict.decryption == nil)
    }

    @Test("Header names match in any letter case")
    func headerNameCase() {
        let verdict = WebPushRequestBuilder().with {
            $0.ttl = nil
            $0.urgency = nil
            $0.extraHeaders = [
                HTTPHeaderField(name: "tTl", value: "30"), HTTPHeaderField(name: "URGENCY", value: "low"),
            ]
        }.evaluate()
        #expect(verdict.isAccepted && verdict.ttl == 30 && verdict.urgency == .low)
    }

    @Test("A huge TTL counts as 2^31 seconds (RFC 9111 §1.2.2)")
    func hugeTTL() {
        let verdict = WebPushRequestBuilder().with { $0.ttl = "99999999999999999999999" }.evaluate()
        #expect(verdict.isAccepted && verdict.ttl == 2_147_483_648)
    }

    @Test("A refused push keeps the facts found before the failing check")
    func factsOfARefusal() {
        let verdict = WebPushRequestBuilder().with { $0.topic = "bad topic" }.evaluate()
        #expect(verdict.reason == .badWebPushTopic)
        #expect(verdict.subscriptionID == WebPushRequestBuilder.subscriptionID)
        #expect(verdict.vapid?.subject == "mailto:push@example.com")
        #expect(verdict.ttl == 60 && verdict.urgency == .high && verdict.topic == nil)
        #expect(verdict.decryption == nil)
    }

    @Test("Paths: the endpoint's path names the id, under a prefix when the listener uses one")
    func paths() {
        let rules = WebPushRequestRules()
        #expect(rules.endpointPath(for: "abc") == "/abc")
        #expect(rules.subscriptionID(inPath: "/abc") == "abc")
        #expect(rules.subscriptionID(inPath: "/abc?q") == "abc")
        #expect(rules.subscriptionID(inPath: "/") == nil)
        #expect(rules.subscriptionID(inPath: "abc") == nil)
        let prefixed = WebPushRequestRules(pathPrefix: "/push/")
        #expect(prefixed.endpointPath(for: "abc") == "/push/abc")
        #expect(prefixed.subscriptionID(inPath: "/push/abc") == "abc")
        #expect(prefixed.subscriptionID(inPath: "/abc") == nil)
    }

    @Test("Apple's Web Push reasons and their statuses")
    func reasonStatuses() {
        for reason in [APNSReason.badJwtToken, .badVapidPublicKey, .vapidPkHashMismatch, .badAuthorizationHeader] {
            #expect(APNSStatus.forReason(reason) == 403, "\(reason)")
        }
        for reason in [APNSReason.badTtl, .badUrgency, .badWebPushTopic, .badWebPushRequest] {
            #expect(APNSStatus.forReason(reason) == 400, "\(reason)")
        }
        #expect(APNSStatus.forReason(APNSReason.payloadTooLarge) == 413)
        #expect(
            APNSStatus.forReason(APNSReason.unregistered) == 410 && APNSStatus.forReason(APNSReason.expiredToken) == 410
        )
        #expect(
            APNSStatus.forReason(APNSReason.badPath) == 404 && APNSStatus.forReason(APNSReason.methodNotAllowed) == 405)
        #expect(APNSStatus.forReason(APNSReason.tooManyRequests) == 429)
        #expect(APNSReason.webPushReasons.count == 8)
    }
}
