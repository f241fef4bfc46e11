/// How modes, behaviors, the throttle and fault rules change the answer to one request: pure,
/// given a snapshot of the server's fault controls, the request's facts and the connection's
/// fault state.
///
/// Order: the modes (shutdown spares a draining connection; unavailable), then the
/// connection's behavior state (poisoned, locked out), the throttle (accepted pushes only), the
/// first acting fault rule (which sees the answer the others made), and last the behaviors'
/// reaction to the answer that goes out.
///
/// A decision is made in two steps when it needs counts that several connections share (the
/// throttle's, a rule's selection): `begin` changes what the snapshot alone decides and says
/// what to claim; the shared controls settle the claim at once; `finish` completes the
/// decision with what they granted and says how the connection's state changes.
public enum FaultPolicy {
    /// Step one: the modes and the connection's behavior state change `decision`; returns what
    /// the rest of the decision needs from the shared counts, or `nil` when it needs nothing
    /// (then `finish` with `.nothing`).
    /// - Parameters:
    ///   - request: the request, `verdict` what the rules said of it; its answer so far is
    ///     `decision.answer`. A rule that could match sees them as `LiveRequestFacts` (made only
    ///     then), reading a device's locale from `registry` and analysing a payload with
    ///     `analysisOptions` when a `lint` or `preview` condition asks.
    ///   - draining: the connection has sent GOAWAY already (the shutdown mode spares it).
    public static func begin(
        _ inputs: FaultInputs, request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment,
        registry: RegistrySnapshot, analysisOptions: PayloadAnalysisOptions, draining: Bool, now: Int64,
        state: ConnectionFaultState, decision: inout RequestDecision
    ) -> FaultClaim? {
        let snapshot = inputs.snapshot
        if snapshot.shutdownMode, !draining {
            reject(&decision, 503, .shutdown, "the shutdown mode is on (POST /v1/modes/shutdown; DELETE ends it)")
        } else if snapshot.isUnavailable(now: now) {
            // The broadcast and channel APIs spell it with a space ("Handling error responses
            // from APNs", broadcast and channel tables).
            reject(
                &decision, 503, verdict.kind == .push ? .serviceUnavailable : .serviceUnavailableWithSpace,
                "the unavailable mode is on (POST /v1/modes/unavailable; DELETE ends it)")
        }
        if state.poisoned {
            reject(
                &decision, 403, .expiredProviderToken,
                "the expired-token-poison behavior: after an ExpiredProviderToken this connection answers every request so"
            )
        } else if now < state.lockedOutUntil {
            reject(
                &decision, 429, .tooManyProviderTokenUpdates,
                "the token-update-lockout behavior: this connection is locked out for \(state.lockedOutUntil - now) ms more after TooManyProviderTokenUpdates"
            )
        }
        var claim = FaultClaim()
        if snapshot.throttle != nil, decision.answer.status == 200, let token = verdict.deviceToken {
            claim.throttleToken = token
        }
        if let candidates = snapshot.rules.candidates(token: verdict.namedToken) {
            // Most pushes meet no rule that could match them: no facts made, nothing matched.
            let facts = LiveRequestFacts(
                request: request, verdict: verdict, environment: environment, answer: decision.answer,
                connectionID: inputs.connectionID,
                analysis: LiveRequestFacts.AnalysisSource(
                    options: analysisOptions, registry: registry, cache: inputs.analysisCache))
            claim.rules = candidates.matchingIDs(facts, connectionID: facts.connectionID)
            if claim.throttleToken != nil {
                var throttled = decision
                throttleRejection(&throttled)
                claim.rulesIfThrottled = candidates.matchingIDs(
                    facts.answered(throttled.answer), connectionID: facts.connectionID)
            }
        }
        guard claim.throttleToken != nil || !claim.rules.isEmpty else { return nil }
        return claim
    }

    /// Step two: what the shared controls granted (`settled`) and the behaviors finish
    /// `decision`; `state` is the connection's fault state, changed as the behaviors say.
    /// - Parameter random: for an `apns-unique-id` when a rule turns a rejection into a 200.
    public static func finish(
        _ snapshot: FaultSnapshot, settled: FaultClaim.Settled, kind: RecordKind, environment: APNSEnvironment,
        now: Int64, decision: inout RequestDecision, state: inout ConnectionFaultState, random: inout FastRandom
    ) {
        if settled.throttled { throttleRejection(&decision) }
        if let hit = settled.hit {
            decision.faultID = hit.ruleID
            apply(hit, to: &decision, kind: kind, environment: environment, random: &random)
            decision.detail = describe(hit)
        }
        if !snapshot.behaviors.isEmpty { react(snapshot.behaviors, to: &decision, state: &state, now: now) }
    }

    /// Whether a TLS handshake is to fail: the refuse-tls mode is on and one of its refusals
    /// was claimed (`FaultControl.claimTLSRefusal`, asked only when this says so).
    public static func refusesHandshake(_ snapshot: FaultSnapshot) -> Bool { snapshot.refusesTLS }

    /// Whether a client that opens more streams than it acknowledged gets APNs's own GOAWAY
    /// (`stream-limit-goaway`) rather than the HTTP/2 library's.
    public static func answersStreamLimitWithGoAway(_ snapshot: FaultSnapshot) -> Bool {
        snapshot.behaviors[.streamLimitGoAway] != nil
    }

    private static func reject(_ decision: inout RequestDecision, _ status: Int, _ reason: APNSReason, _ detail: String)
    {
        decision.answer.reject(status, reason)
        decision.detail = detail
        if decision.fate == .goAwayInsteadOfAnswer { decision.fate = .answer }
    }

    private static func throttleRejection(_ decision: inout RequestDecision) {
        reject(
            &decision, 429, .tooManyRequests, "the throttle (--throttle) allows no more pushes to this device token now"
        )
    }

    /// What a fault rule's action does to the decision.
    static func apply(
        _ hit: FaultHit, to decision: inout RequestDecision, kind: RecordKind = .push, environment: APNSEnvironment,
        random: inout FastRandom
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
                if APNSAnswer.successCarriesUniqueID(kind: kind, environment: environment),
                    decision.answer.uniqueID == nil
                {
                    decision.answer.uniqueID = .generate(using: &random, lowercase: true)
                }
            } else {
                decision.answer.uniqueID = nil
                decision.answer.body = response.body
            }
            if decision.fate == .goAwayInsteadOfAnswer { decision.fate = .answer }
        case .hang?:
            decision.fate = .hang
        case .resetStream(let code)?:
            decision.fate = .reset(errorCode: code.rawValue)
        case .goAway(let code, let lastStreamID, let debugData, let order)?:
            decision.fate = .goAway(
                errorCode: code.rawValue, lastStreamID: lastStreamID, debugData: debugData, order: order)
        case .close(let respondFirst)?:
            decision.fate = .close(respondFirst: respondFirst)
        case .setMaxConcurrentStreams(let limit)?:
            decision.maxConcurrentStreams = limit
        }
    }

    /// What fault rule `hit` did, in words (a record's `detail`).
    static func describe(_ hit: FaultHit) -> String {
        var parts: [String] = []
        if let delay = hit.delayMilliseconds { parts.append("delayed the answer by \(delay) ms") }
        switch hit.action.effect {
        case nil: break
        case .respond(let response)?:
            parts.append("answered \(response.status)" + (response.reason.map { " \($0.rawValue)" } ?? ""))
        case .hang?: parts.append("never answers (hang)")
        case .resetStream(let code)?: parts.append("reset the stream (\(code.description))")
        case .goAway(let code, _, _, let order)?:
            parts.append("sent GOAWAY (\(code.description), \(order.rawValue))")
        case .close(let respondFirst)?:
            parts.append(respondFirst ? "answered, then closed the connection" : "closed the connection")
        case .setMaxConcurrentStreams(let limit)?: parts.append("announced MAX_CONCURRENT_STREAMS \(limit)")
        }
        return "fault rule '\(hit.ruleID)' " + parts.joined(separator: " and ")
    }

    /// The behaviors' reaction to the answer that goes out: they change how the connection
    /// answers from now on.
    static func react(
        _ behaviors: [ConnectionBehavior: Int64], to decision: inout RequestDecision,
        state: inout ConnectionFaultState, now: Int64
    ) {
        let reason = decision.answer.reason
        if let lockout = behaviors[.tokenUpdateLockout], reason == .tooManyProviderTokenUpdates,
            now >= state.lockedOutUntil
        {
            state.lockedOutUntil = now + lockout
        }
        if behaviors[.expiredTokenPoison] != nil, reason == .expiredProviderToken, !state.poisoned {
            state.poisoned = true
            decision.streamLimit = .limit(1)
            decision.refuseOpenStreams = true
            return
        }
        if behaviors[.streamsAfterRejection] != nil, !state.poisoned {
            if decision.answer.status != 200, !state.limitedAfterRejection {
                state.limitedAfterRejection = true
                decision.streamLimit = .limit(1)
            } else if decision.answer.status == 200, state.limitedAfterRejection {
                state.limitedAfterRejection = false
                decision.streamLimit = .restore
            }
        }
    }
}
