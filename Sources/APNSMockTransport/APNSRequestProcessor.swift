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

    /// The answer for one request.
    struct Answer {
        var status: Int
        /// The `apns-id` header of the answer.
        var apnsID: ResponseMessageID
        /// The `apns-unique-id` header (sandbox 200s).
        var uniqueID: ResponseMessageID?
        /// The JSON error body; `nil` for a 200.
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
        var answer = Answer(
            status: verdict.status, apnsID: apnsID, uniqueID: nil, body: nil, goAwayDebugData: nil,
            firstAuthenticatedPush: firstAuthenticated)
        if verdict.isAccepted {
            if environment == .sandbox { answer.uniqueID = .generate(using: &random, lowercase: true) }
        } else {
            let body = APNSErrorBody.encode(
                reason: verdict.reason ?? .internalServerError, timestamp: verdict.timestamp)
            answer.body = body
            if verdict.goAway { answer.goAwayDebugData = body }
        }
        let receipt = context.store.record(
            DeliveryRecord(
                receivedAt: receivedAt, connectionID: connectionID, streamID: ready.streamID,
                environment: environment, method: request.method, path: request.path, authority: authority,
                headerBlock: request.headerBlock, token: verdict.deviceToken ?? verdict.rawDeviceToken,
                topic: verdict.topic, pushType: verdict.pushType, apnsID: apnsID, uniqueID: answer.uniqueID,
                payload: request.payload, payloadSize: request.payloadSize, authentication: verdict.authentication,
                response: DeliveryResponse(
                    status: verdict.status, reason: verdict.reason, timestamp: verdict.timestamp, respondedAt: now,
                    goAway: verdict.goAway)))
        answer.apnsID = receipt.apnsID
        return answer
    }
}
