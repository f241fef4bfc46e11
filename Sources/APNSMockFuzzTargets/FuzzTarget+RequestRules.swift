import APNSMockCore

extension FuzzTarget {
    /// A request value and its connection (`FuzzRequest`'s layout) judged by the rules of both
    /// services, twice: the second time on the connection as the first verdict left it (its
    /// auth state, its new token remembered), as the next push on the connection would be.
    static let requestRules = FuzzTarget(
        name: "request-rules",
        summary: "flags byte + 'METHOD PATH', header lines, empty line, body -> ServiceRules verdict",
        maximumLength: 8192
    ) { bytes in
        let input = FuzzRequest(bytes)
        var context = input.context
        for _ in 0..<2 {
            let verdict = input.rules.evaluate(input.request, context: context, service: input.service)
            checkVerdict(verdict)
            if let next = verdict.nextAuthState { context.authState = next }
            if let token = verdict.newToken { context.registry.tokens[token.token] = token.details }
        }
    }

    /// What every verdict must be: an answerable status, a reason exactly when it rejects (with
    /// the status of that reason), and an error body that is JSON.
    static func checkVerdict(_ verdict: APNSVerdict) {
        precondition(APNSStatus.answerRange.contains(verdict.status), "status \(verdict.status)")
        if let reason = verdict.reason {
            precondition(!verdict.isAccepted, "accepted with reason \(reason.rawValue)")
            precondition(APNSStatus.forReason(reason) == verdict.status, "\(reason.rawValue) with \(verdict.status)")
            let body = APNSErrorBody.encode(reason: reason, timestamp: verdict.timestamp)
            precondition(JSONValue.parse(body) != nil, "error body is not JSON")
        } else {
            precondition(verdict.isAccepted, "rejected (\(verdict.status)) without a reason")
        }
    }
}
