import APNSMockCore

extension FuzzTarget {
    /// A web push as the Web Push listener would hand it to the rules: a flags byte saying which
    /// headers are present, then lines for `Authorization`, `TTL`, `Urgency`, `Topic` and
    /// `Content-Encoding`, then the body. The rules judge it against one subscription (RFC 8291
    /// Appendix A's keys) and decrypt an accepted body; the body is also decrypted and linted on
    /// its own, since random bytes seldom carry a VAPID token the key verifies.
    static let webPush = FuzzTarget(
        name: "web-push",
        summary: "headers and a body -> WebPushRequestRules (VAPID, TTL, Urgency, Topic), RFC 8291 decryption, lint",
        maximumLength: 6144
    ) { bytes in
        let (body, verdict) = judgeWebPush(bytes)
        precondition(
            (verdict.status == WebPushRequestRules.successStatus) == (verdict.reason == nil),
            "a web push verdict is 201 exactly when it has no reason")
        if case .success(let plaintext) = WebPushPayloadDecryption.decrypt(
            body, with: FuzzFixtures.webPushSubscription.keys)
        {
            _ = DeclarativeWebPushLinter.lint(plaintext)
        }
        _ = DeclarativeWebPushLinter.lint(body)
    }

    /// The web push an input of the `web-push` target describes, and the rules' verdict on it.
    static func judgeWebPush(_ bytes: [UInt8]) -> (body: [UInt8], verdict: WebPushVerdict) {
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let names = ["authorization", "ttl", "urgency", "topic", "content-encoding"]
        var headers: [HTTPHeaderField] = []
        for (bit, name) in names.enumerated() {
            let value = FuzzInput.text(input.line())
            if flags & (1 << bit) != 0 { headers.append(HTTPHeaderField(name: name, value: value)) }
        }
        let body = input.rest()
        let subscription = FuzzFixtures.webPushSubscription
        let rules = WebPushRequestRules()
        let request = WebPushRequest(
            method: flags & 0x80 == 0 ? "POST" : "PUT",
            path: flags & 0x40 == 0 ? rules.endpointPath(for: subscription.id) : "/other", headers: headers,
            body: body)
        let verdict = rules.evaluate(request, endpointOrigin: FuzzFixtures.webPushOrigin, now: FuzzFixtures.now) {
            $0 == subscription.id ? subscription : nil
        }
        return (body, verdict)
    }
}
