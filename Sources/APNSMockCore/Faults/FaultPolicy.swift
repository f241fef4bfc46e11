/// How modes, behaviors, the throttle and fault rules change the answer to one request: pure,
/// given the connection's fault state and the server's fault inputs.
///
/// Order: the modes (shutdown spares a draining connection; unavailable), then the
/// connection's behavior state (poisoned, locked out), the throttle (accepted pushes only), the
/// first acting fault rule (which sees the answer the others made), and last the behaviors'
/// reaction to the answer that goes out.
public enum FaultPolicy {
    /// Changes `decision` for what `inputs` switch on; updates the connection's `state`.
    /// - Parameters:
    ///   - verdict: what the rules said (the token, and the facts a fault rule matches on).
    ///   - draining: the connection has sent GOAWAY already (the shutdown mode spares it).
    ///   - random: for an `apns-unique-id` when a rule turns a rejection into a 200.
    public static func apply(
        _ inputs: FaultInputs, verdict: APNSVerdict, environment: APNSEnvironment, draining: Bool, now: Int64,
        to decision: inout RequestDecision, state: inout ConnectionFaultState, random: inout FastRandom
    ) {
        func reject(_ status: Int, _ reason: APNSReason, _ detail: String) {
            decision.answer.reject(status, reason)
            decision.detail = detail
            if decision.fate == .goAwayInsteadOfAnswer { decision.fate = .answer }
        }
        if inputs.shutdownMode, !draining {
            reject(503, .shutdown, "the shutdown mode is on (POST /v1/modes/shutdown; DELETE ends it)")
        } else if inputs.unavailable {
            // The broadcast and channel APIs spell it with a space ("Handling error responses
            // from APNs", broadcast and channel tables).
            reject(
                503, verdict.kind == .push ? .serviceUnavailable : .serviceUnavailableWithSpace,
                "the unavailable mode is on (POST /v1/modes/unavailable; DELETE ends it)")
        }
        if state.poisoned {
            reject(
                403, .expiredProviderToken,
                "the expired-token-poison behavior: after an ExpiredProviderToken this connection answers every request so"
            )
        } else if now < state.lockedOutUntil {
            reject(
                429, .tooManyProviderTokenUpdates,
                "the token-update-lockout behavior: this connection is locked out for \(state.lockedOutUntil - now) ms more after TooManyProviderTokenUpdates"
            )
        }
        if let throttle = inputs.throttle, decision.answer.status == 200, let token = verdict.deviceToken,
            throttle(token)
        {
            reject(429, .tooManyRequests, "the throttle (--throttle) allows no more pushes to this device token now")
        }
        if let rule = inputs.rule, let hit = rule(verdict, decision.answer) {
            decision.faultID = hit.ruleID
            apply(hit, to: &decision, kind: verdict.kind, environment: environment, random: &random)
            decision.detail = describe(hit)
        }
        if !inputs.behaviors.isEmpty { react(inputs.behaviors, to: &decision, state: &state, now: now) }
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
