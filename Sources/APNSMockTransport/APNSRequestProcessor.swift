import APNSMockCore
import APNSMockRegistry
import APNSMockStore

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
    /// The registry as last read, and its change count then: re-read only after a change.
    private var registry = RegistrySnapshot()
    private var registryChangeCount = UInt64.max

    init(context: APNSListenerContext, connectionID: UInt64, authentication: AuthenticationMode = .token) {
        self.context = context
        self.connectionID = connectionID
        self.authentication = authentication
    }

    /// Whether the record of `decision` was stored with its final response (it is answered,
    /// or ended by GOAWAY, at once); otherwise the state machine completes it.
    static func recordsAnswer(_ decision: RequestDecision) -> Bool {
        decision.delayMilliseconds == nil && (decision.final == .answer || decision.final == .goAwayInsteadOfAnswer)
    }

    /// Judges one request, stores its record and says how it is answered.
    mutating func decide(_ ready: ReadyRequest, serverName: String?, receivedAt: Int64) -> RequestDecision {
        let parts = ready.request
        let authority = parts.authority ?? parts.host
        let environment = context.environmentMode.resolve(serverName: serverName, authority: authority)
        let request = APNSRequest(
            method: parts.method, path: parts.path, authority: authority, headerBlock: parts.headers,
            payload: parts.payload, payloadSize: parts.payloadSize, headerListTooLarge: parts.headerListTooLarge)
        // One clock read per push: the rules judge at the moment the request is answered.
        let now = receivedAt
        let changeCount = context.registry.changeCount
        if changeCount != registryChangeCount {
            registry = context.registry.snapshot()
            registryChangeCount = changeCount
        }
        let verdict = context.rules.evaluate(
            request,
            context: ConnectionContext(
                environment: environment, authentication: authentication, authState: authState,
                registry: registry, now: now))
        if let token = verdict.newToken { context.registry.remember(token) }
        var firstAuthenticated = false
        if let next = verdict.nextAuthState {
            firstAuthenticated = !authState.isEstablished && next.isEstablished
            authState = next
        }
        let apnsID: ResponseMessageID
        if let sent = verdict.sentMessageID, APNSMessageID.isValid(sent) {
            apnsID = .echoed(sent)
        } else {
            apnsID = .generate(using: &random)
        }
        var answer = PreparedAnswer(
            status: verdict.status, reason: verdict.reason, timestamp: verdict.timestamp, apnsID: apnsID, uniqueID: nil,
            body: nil)
        var decision = RequestDecision(
            streamID: ready.streamID, sequence: 0, answer: answer, delayMilliseconds: nil, final: .answer,
            maxConcurrentStreams: nil, firstAuthenticatedPush: firstAuthenticated)
        if verdict.isAccepted {
            if environment == .sandbox { answer.uniqueID = .generate(using: &random, lowercase: true) }
        } else {
            answer.reason = verdict.reason ?? .internalServerError
            answer.body = APNSErrorBody.encode(reason: answer.reason!, timestamp: verdict.timestamp)
            if verdict.goAway { decision.final = .goAwayInsteadOfAnswer }
        }
        decision.answer = answer
        let complete = Self.recordsAnswer(decision)
        let receipt = context.store.record(
            DeliveryRecord(
                receivedAt: receivedAt, connectionID: connectionID, streamID: ready.streamID,
                environment: environment, method: request.method, path: request.path, authority: authority,
                headerBlock: request.headerBlock, token: verdict.deviceToken ?? verdict.rawDeviceToken,
                topic: verdict.topic, pushType: verdict.pushType, apnsID: apnsID, uniqueID: answer.uniqueID,
                payload: request.payload, payloadSize: request.payloadSize, authentication: verdict.authentication,
                response: complete ? answer.response(respondedAt: now, goAway: verdict.goAway) : nil,
                outcome: complete ? nil : decision.final == .hang ? .hung : .pending))
        decision.sequence = receipt.sequence
        decision.answer.apnsID = receipt.apnsID
        return decision
    }
}
