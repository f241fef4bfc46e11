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
    /// `expired-token-poison` struck this connection: every push is answered 403.
    private(set) var poisoned = false
    /// `token-update-lockout`: 429 TooManyProviderTokenUpdates until this time.
    private(set) var lockedOutUntil: Int64 = 0
    /// `streams-after-rejection` lowered this connection's stream limit.
    private(set) var limitedAfterRejection = false

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
    /// - Parameter draining: the connection has sent GOAWAY (the shutdown mode spares it).
    mutating func decide(_ ready: ReadyRequest, serverName: String?, receivedAt: Int64, draining: Bool = false)
        -> RequestDecision
    {
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
        var faultID: String?
        let active = context.faults.active
        if active.rawValue != 0 {
            faultID = applyFaults(
                active, to: &decision, verdict: verdict, request: request, environment: environment, now: now,
                draining: draining)
            answer = decision.answer
        }
        let complete = Self.recordsAnswer(decision)
        let receipt = context.store.record(
            DeliveryRecord(
                receivedAt: receivedAt, connectionID: connectionID, streamID: ready.streamID,
                environment: environment, method: request.method, path: request.path, authority: authority,
                headerBlock: request.headerBlock, token: verdict.deviceToken ?? verdict.rawDeviceToken,
                topic: verdict.topic, pushType: verdict.pushType, apnsID: apnsID, uniqueID: answer.uniqueID,
                payload: request.payload, payloadSize: request.payloadSize, authentication: verdict.authentication,
                response: complete
                    ? answer.response(respondedAt: now, goAway: decision.final == .goAwayInsteadOfAnswer) : nil,
                outcome: complete ? nil : decision.final == .hang ? .hung : .pending, faultID: faultID))
        decision.sequence = receipt.sequence
        decision.answer.apnsID = receipt.apnsID
        return decision
    }

    // MARK: faults, modes, behaviors (only when something is switched on)

    /// Changes `decision` for the modes, behaviors, throttle and fault rules that are on, in
    /// that order (a rule sees the answer the others made); returns the id of the fault rule
    /// that acted.
    private mutating func applyFaults(
        _ active: FaultControl.Active, to decision: inout RequestDecision, verdict: APNSVerdict, request: APNSRequest,
        environment: APNSEnvironment, now: Int64, draining: Bool
    ) -> String? {
        let faults = context.faults
        func replace(_ status: Int, _ reason: APNSReason) {
            decision.answer.status = status
            decision.answer.reason = reason
            decision.answer.timestamp = nil
            decision.answer.uniqueID = nil
            decision.answer.body = APNSErrorBody.encode(reason: reason, timestamp: nil)
            if decision.final == .goAwayInsteadOfAnswer { decision.final = .answer }
        }
        if active.contains(.shutdown), !draining, faults.isShuttingDown {
            replace(503, .shutdown)
        } else if active.contains(.unavailable), faults.unavailableUntil(now: now) != nil {
            replace(503, .serviceUnavailable)
        }
        let behaviors = active.contains(.behaviors) ? faults.behaviors : [:]
        if poisoned {
            replace(403, .expiredProviderToken)
        } else if now < lockedOutUntil {
            replace(429, .tooManyProviderTokenUpdates)
        }
        if active.contains(.throttle), decision.answer.status == 200, let token = verdict.deviceToken,
            faults.throttled(token: token, now: now)
        {
            replace(429, .tooManyRequests)
        }
        var faultID: String?
        if active.contains(.rules) {
            let facts = LiveRequestFacts(
                verdict: verdict, request: request, environment: environment, answer: decision.answer,
                connectionID: connectionID, analysisOptions: context.rules.policy.payloadAnalysis,
                registry: context.registry)
            if let hit = faults.evaluate(facts, connectionID: connectionID, now: now) {
                faultID = hit.ruleID
                apply(hit, to: &decision, environment: environment)
            }
        }
        if !behaviors.isEmpty { noteBehaviors(behaviors, decision: &decision, now: now) }
        return faultID
    }

    /// What a fault rule's action does to the decision.
    private mutating func apply(
        _ hit: FaultControl.Hit, to decision: inout RequestDecision, environment: APNSEnvironment
    ) {
        decision.delayMilliseconds = hit.delayMilliseconds
        switch hit.action.effect {
        case nil:
            break
        case .respond(let response)?:
            decision.answer.status = response.status
            decision.answer.reason = response.reason
            decision.answer.timestamp = response.timestamp
            decision.answer.dataFrames = response.dataFrames
            if response.status == 200 {
                decision.answer.body = nil
                if environment == .sandbox, decision.answer.uniqueID == nil {
                    decision.answer.uniqueID = .generate(using: &random, lowercase: true)
                }
            } else {
                decision.answer.uniqueID = nil
                decision.answer.body = response.body
            }
            if decision.final == .goAwayInsteadOfAnswer { decision.final = .answer }
        case .hang?:
            decision.final = .hang
        case .resetStream(let code)?:
            decision.final = .reset(errorCode: code.rawValue)
        case .goAway(let code, let lastStreamID, let debugData)?:
            decision.final = .goAway(errorCode: code.rawValue, lastStreamID: lastStreamID, debugData: debugData)
        case .close(let respondFirst)?:
            decision.final = .close(respondFirst: respondFirst)
        case .setMaxConcurrentStreams(let limit)?:
            decision.maxConcurrentStreams = limit
        }
    }

    /// The behaviors' reaction to the answer that goes out: they change how this connection
    /// answers from now on.
    private mutating func noteBehaviors(
        _ behaviors: [ConnectionBehavior: Int64], decision: inout RequestDecision, now: Int64
    ) {
        let reason = decision.answer.reason
        if let lockout = behaviors[.tokenUpdateLockout], reason == .tooManyProviderTokenUpdates, now >= lockedOutUntil {
            lockedOutUntil = now + lockout
        }
        if behaviors[.expiredTokenPoison] != nil, reason == .expiredProviderToken, !poisoned {
            poisoned = true
            decision.streamLimit = .limit(1)
            decision.refuseOpenStreams = true
            return
        }
        if behaviors[.streamsAfterRejection] != nil, !poisoned {
            if decision.answer.status != 200, !limitedAfterRejection {
                limitedAfterRejection = true
                decision.streamLimit = .limit(1)
            } else if decision.answer.status == 200, limitedAfterRejection {
                limitedAfterRejection = false
                decision.streamLimit = .restore
            }
        }
    }
}

/// A request being answered, as a fault rule's matcher sees it: the rules' verdict and the
/// answer so far (its status and reason).
struct LiveRequestFacts: DeliveryFacts {
    let verdict: APNSVerdict
    let request: APNSRequest
    let environment: APNSEnvironment
    let answer: PreparedAnswer
    let connectionID: UInt64
    let analysisOptions: PayloadAnalysisOptions
    /// For the device's locale, read only when a `lint` or `preview` condition asks.
    let registry: Registry

    var matchToken: String? { verdict.deviceToken ?? verdict.rawDeviceToken }
    var matchTopic: String? { verdict.topic }
    var matchPushType: APNSPushType? { verdict.pushType }
    var matchStatus: Int? { answer.status }
    var matchReason: String? { answer.reason?.rawValue }
    var matchAPNSID: String? { verdict.sentMessageID }
    var matchEnvironment: APNSEnvironment { environment }
    var matchAuthMethod: AuthenticationResult.Method? { verdict.authentication?.method }
    func matchHeader(_ name: String) -> String? { request.headerBlock.firstValue(named: name) }
    var matchPayload: [UInt8] { request.payload }
    var matchConnectionID: UInt64? { connectionID }
    /// Computed only for a rule that matches on `lint` or `preview` (once per match).
    var matchAnalysis: PayloadAnalysis? {
        let token = verdict.deviceToken
        return PayloadAnalyzer.analyze(
            payload: request.payload, payloadSize: request.payloadSize,
            context: analysisOptions.context(
                pushType: verdict.pushType,
                pushTypeHeaderPresent: request.headerBlock.firstValue(named: "apns-push-type") != nil,
                priority: request.headerBlock.firstValue(named: "apns-priority"), topic: verdict.topic,
                locale: token.flatMap { registry.device($0)?.locale }))
    }
}
