import APNSMockCore

/// Turns a ready request into an answer and a record: the one place where the rules, the
/// connection's authentication state, the id generator and the store meet. Transport-free, so
/// the HTTP/2 tests drive it without sockets.
struct APNSRequestProcessor {
    let context: APNSListenerContext
    let connectionID: UInt64
    /// Token or certificate, fixed at the handshake.
    let authentication: AuthenticationMode
    /// What this connection has accepted so far.
    private(set) var authState = ConnectionAuthState()
    var random = FastRandom()

    /// The answer for one request.
    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]?
        /// End the connection with GOAWAY (NO_ERROR, last stream 0, this debug data) instead.
        var goAwayDebugData: [UInt8]?
        /// This push was the first to pass token authentication on the connection.
        var firstAuthenticatedPush: Bool
    }

    init(context: APNSListenerContext, connectionID: UInt64, authentication: AuthenticationMode = .token) {
        self.context = context
        self.connectionID = connectionID
        self.authentication = authentication
    }

    mutating func answer(_ ready: ReadyRequest, serverName: String?, receivedAt: Int64) -> Answer {
        let parts = ready.request
        let authority = parts.authority ?? parts.host
        let environment = context.environmentMode.resolve(serverName: serverName, authority: authority)
        let headers = parts.headers
        let request = APNSRequest(
            method: parts.method, path: parts.path, authority: authority, headers: headers,
            payload: parts.payload, payloadSize: parts.payloadSize, headerListTooLarge: parts.headerListTooLarge)
        // One clock read per push: the rules judge at the moment the request is answered.
        let now = receivedAt
        let verdict = context.rules.evaluate(
            request,
            context: ConnectionContext(
                environment: environment, authentication: authentication, authState: authState,
                registry: context.registry.snapshot(), now: now))
        if let token = verdict.newToken { context.registry.remember(token) }
        var firstAuthenticated = false
        if let next = verdict.nextAuthState {
            firstAuthenticated = !authState.isEstablished && next.isEstablished
            authState = next
        }
        let sentID = request.header("apns-id")
        let echo = sentID.map(APNSMessageID.isValid) ?? false
        let apnsID = echo ? sentID! : APNSMessageID.generate(using: &random)
        var uniqueID: String?
        var answer: Answer
        if verdict.isAccepted {
            var responseHeaders = [("apns-id", apnsID)]
            if environment == .sandbox {
                let id = APNSMessageID.generate(using: &random, lowercase: true)
                uniqueID = id
                responseHeaders.append(("apns-unique-id", id))
            }
            answer = Answer(
                status: 200, headers: responseHeaders, body: nil, goAwayDebugData: nil,
                firstAuthenticatedPush: firstAuthenticated)
        } else {
            let reason = verdict.reason ?? .internalServerError
            let body = APNSErrorBody.encode(reason: reason, timestamp: verdict.timestamp)
            answer = Answer(
                status: verdict.status, headers: [("content-type", "application/json"), ("apns-id", apnsID)],
                body: body, goAwayDebugData: verdict.goAway ? body : nil, firstAuthenticatedPush: firstAuthenticated)
        }
        context.store.append(
            DeliveryDraft(
                receivedAt: receivedAt, respondedAt: now, connectionID: connectionID,
                streamID: ready.streamID, environment: environment, method: request.method, path: request.path,
                authority: authority, headers: headers, deviceToken: verdict.deviceToken, topic: verdict.topic,
                pushType: verdict.pushType, apnsID: apnsID, apnsIDGenerated: !echo, uniqueID: uniqueID,
                payload: request.payload, payloadSize: request.payloadSize, status: verdict.status,
                reason: verdict.reason, authentication: verdict.authentication, goAway: verdict.goAway))
        return answer
    }
}
