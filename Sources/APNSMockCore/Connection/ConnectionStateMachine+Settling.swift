extension ConnectionStateMachine {
    /// Carries out `decision`. Returns `true` for the common case, an answer that goes out now
    /// with nothing else to do (no actions appended: the caller records and sends it), after
    /// noting the stream as answered.
    static func decided(
        _ decision: RequestDecision, firstAuthenticated: Bool, now: Int64, serving: inout Serving, course: inout Course,
        into actions: inout [Action]
    ) -> Bool {
        let streamID = decision.streamID
        if decision.fate == .answer, decision.held == nil, decision.delayMilliseconds == nil,
            decision.maxConcurrentStreams == nil,
            decision.streamLimit == nil, !decision.refuseOpenStreams,
            !(firstAuthenticated && serving.limits.authLimited), course.stage != .closing,
            serving.goAwayLastStreamID.map({ streamID <= $0 }) ?? true
        {
            serving.highestAnswered = max(serving.highestAnswered, streamID)
            return true
        }
        do {
            if let last = serving.goAwayLastStreamID, streamID > last {
                // Above the GOAWAY's last stream: not processed. REFUSED_STREAM tells the client
                // so at once (safe to retry, RFC 9113 §8.7) instead of leaving it to wait.
                actions.append(
                    .record(
                        streamID: streamID,
                        RecordedAnswer(
                            outcome: .goAway, answer: decision.answer, faultID: decision.faultID,
                            detail: decision.detail)))
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                return false
            }
            if let limit = decision.maxConcurrentStreams {
                serving.limits.rule = limit
                Self.announce(limit, limits: &serving.limits, into: &actions)
            }
            if firstAuthenticated, serving.limits.authLimited {
                serving.limits.authLimited = false
                // A limit set by a rule stays; otherwise the configured one applies now.
                if serving.limits.rule == nil {
                    Self.announce(serving.limits.configured, limits: &serving.limits, into: &actions)
                }
            }
            switch decision.streamLimit {
            case .limit(let limit)?:
                // A rule's limit wins over a behavior's.
                if serving.limits.rule == nil { Self.announce(limit, limits: &serving.limits, into: &actions) }
            case .restore?:
                let limits = serving.limits
                Self.announce(
                    limits.rule ?? (limits.authLimited ? 1 : limits.configured), limits: &serving.limits,
                    into: &actions)
            case nil:
                break
            }
            if decision.refuseOpenStreams {
                Self.refuseOwedStreams(outcome: .reset, owed: &serving.owed, into: &actions) { $0 != streamID }
                actions.append(.refuseStreamsBeingReceived(except: streamID))
            }
            if let delay = decision.delayMilliseconds {
                serving.owed.insert(
                    OwedStream(
                        answer: decision.answer, fate: decision.fate, labels: decision.labels, hung: false,
                        held: decision.held), for: streamID)
                actions.append(
                    .record(
                        streamID: streamID,
                        RecordedAnswer(
                            outcome: .pending, answer: decision.answer, faultID: decision.faultID,
                            detail: decision.detail)))
                actions.append(.startTimer(streamID: streamID, milliseconds: max(0, delay)))
                return false
            }
            Self.settle(
                streamID: streamID, answer: decision.answer, fate: decision.fate, labels: decision.labels,
                held: decision.held, record: nil, faultID: decision.faultID, detail: decision.detail, now: now,
                serving: &serving, course: &course, into: &actions)
        }
        return false
    }

    /// Whether `fate` answers `streamID` now (so that a success's effect must run first).
    private static func answersNow(streamID: Int32, fate: RequestDecision.Fate, highestAnswered: Int32) -> Bool {
        switch fate {
        case .answer, .close(respondFirst: true): return true
        case .goAway(_, let requested, _, _):
            return requested.map { streamID <= max($0, highestAnswered) } ?? true
        case .hang, .reset, .goAwayInsteadOfAnswer, .close(respondFirst: false): return false
        }
    }

    /// Refuses the owed streams `refused` picks (RST_STREAM REFUSED_STREAM, timers cancelled)
    /// and completes their records with `outcome`, in stream order.
    private static func refuseOwedStreams(
        outcome: DeliveryOutcome, owed: inout OwedStreams, into actions: inout [Action],
        where refused: (Int32) -> Bool
    ) {
        owed.removeAll(where: refused) { streamID, entry in
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
            actions.append(
                .complete(
                    streamID: streamID, sequence: entry.record, RecordedAnswer(outcome: outcome, answer: entry.answer)))
        }
    }

    private static func announce(_ limit: UInt32, limits: inout StreamLimits, into actions: inout [Action]) {
        guard limit != limits.announced else { return }
        limits.announced = limit
        actions.append(.announceMaxConcurrentStreams(limit))
    }

    /// Carries out `fate` for a stream now: `record` is its record's sequence number when it
    /// exists already (it waited), so that the record is written (`record`) or completed
    /// (`complete`) once.
    ///
    /// A success to `held` (a request whose success has an effect) waits for the effect first:
    /// before any action, the machine asks for it (`applyEffect`) and settles in
    /// `effectApplied`, with the answer the effect completed (`effect`).
    static func settle(
        streamID: Int32, answer: APNSAnswer, fate: RequestDecision.Fate, labels: AnswerLabels,
        held: HeldRequest? = nil, effect: EffectOutcome? = nil, record: UInt64?, faultID: String?,
        detail: String? = nil, now: Int64, serving: inout Serving, course: inout Course, into actions: inout [Action]
    ) {
        func note(_ recordedAnswer: RecordedAnswer) {
            var recordedAnswer = recordedAnswer
            recordedAnswer.faultID = faultID
            recordedAnswer.detail = detail
            actions.append(
                record.map { .complete(streamID: streamID, sequence: $0, recordedAnswer) }
                    ?? .record(streamID: streamID, recordedAnswer))
        }
        func answerNow() {
            note(RecordedAnswer(outcome: .answered, answer: answer, answeredAt: now, effect: effect))
            actions.append(.respond(streamID: streamID, answer, labels))
            serving.highestAnswered = max(serving.highestAnswered, streamID)
        }
        if course.stage == .closing {
            note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            return
        }
        if let held, (200...299).contains(answer.status),
            answersNow(streamID: streamID, fate: fate, highestAnswered: serving.highestAnswered)
        {
            serving.pendingEffect = PendingEffect(
                streamID: streamID, answer: answer, fate: fate, labels: labels, record: record, faultID: faultID,
                detail: detail, at: now)
            actions.append(.applyEffect(streamID: streamID, at: now, held))
            return
        }
        switch fate {
        case .answer:
            answerNow()
        case .hang:
            serving.owed.insert(OwedStream(answer: answer, fate: fate, labels: labels, hung: true), for: streamID)
            note(RecordedAnswer(outcome: .hung, answer: answer))
        case .reset(let code):
            note(RecordedAnswer(outcome: .reset, answer: answer))
            actions.append(.resetStream(streamID: streamID, errorCode: code))
        case .goAway(let code, let requested, let debugData, let order):
            // Never below a stream already answered: that would take back its answer.
            let lastStreamID = requested.map { max($0, serving.highestAnswered) }
            let covered = lastStreamID.map { streamID <= $0 } ?? true
            // The transport sends frames in the order of the actions: an answer before the GOAWAY
            // goes out whole (its DATA too) before it.
            if covered, order == .answerFirst { answerNow() }
            actions.append(.goAway(errorCode: code, lastStreamID: lastStreamID, debugData: debugData))
            if course.stage == .serving { course.stage = .draining }
            if let lastStreamID {
                let last = min(lastStreamID, serving.goAwayLastStreamID ?? .max)
                serving.goAwayLastStreamID = last
                // Streams waiting above it (a delay) were not processed, as the GOAWAY says: refused
                // and recorded now, not when their delay ends (a client such as Netty forgets them at
                // once, and the connection may close first).
                refuseOwedStreams(outcome: .goAway, owed: &serving.owed, into: &actions) { $0 > last }
            }
            if covered {
                if order == .goAwayFirst { answerNow() }
            } else {
                note(RecordedAnswer(outcome: .goAway, answer: answer))
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
            }
            if code != HTTP2ErrorCode.noError.rawValue {
                course.stage = .closing
                course.reason = course.reason ?? .goAwayWithError(code)
                actions.append(.close(afterFlush: true))
            }
        case .goAwayInsteadOfAnswer:
            // The reason goes out as the GOAWAY's debug data; the stream gets no status.
            note(RecordedAnswer(outcome: .goAway, answer: answer, answeredAt: now))
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: serving.highestAnswered,
                    debugData: answer.body ?? []))
            course.stage = .closing
            course.reason = course.reason ?? .goAwayInsteadOfAnswer(answer.reason?.rawValue)
            actions.append(.close(afterFlush: true))
        case .close(let respondFirst):
            if respondFirst {
                answerNow()
            } else {
                note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            }
            course.stage = .closing
            course.reason = course.reason ?? .faultRuleClose
            actions.append(.close(afterFlush: respondFirst))
        }
    }
}
