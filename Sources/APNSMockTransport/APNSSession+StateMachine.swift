import APNSMockCore
import APNSMockStore

extension APNSSession {
    /// The decisions of one APNs connection over time: when each answer goes out, which streams
    /// wait (a delay) or never get one (a hang), GOAWAY and close, and the MAX_CONCURRENT_STREAMS
    /// the connection announces.
    ///
    /// Pure: it is told what happened (a request was decided, a timer fired, a stream or the
    /// connection closed, a shutdown was asked for) and appends the actions to perform; the
    /// session performs them on nghttp2 and the store, the connection handler on the channel.
    /// Tested without sockets.
    struct StateMachine {
        enum Phase: Equatable {
            /// Streams are served.
            case open
            /// GOAWAY went out: streams it covers are finished, then the connection closes.
            case draining
            /// The connection is closing or closed.
            case closed
        }

        enum Action {
            /// Submit `answer` on the stream.
            case respond(streamID: Int32, PreparedAnswer)
            /// Set the record's final response (`nil`: none went out) and outcome.
            case completeRecord(sequence: UInt64, response: DeliveryResponse?, outcome: DeliveryOutcome)
            case resetStream(streamID: Int32, errorCode: UInt32)
            /// `lastStreamID` `nil`: the last stream processed.
            case goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8])
            case announceMaxConcurrentStreams(UInt32)
            /// Call `timerFired(streamID:)` after this many milliseconds.
            case startTimer(streamID: Int32, milliseconds: Int64)
            case cancelTimer(streamID: Int32)
            /// Close the connection: once what is queued has been sent, or at once.
            case close(afterFlush: Bool)
            /// Reset (REFUSED_STREAM) every open stream still being received, but `except`.
            case refuseStreamsBeingReceived(except: Int32)
        }

        /// A stream whose answer waits (a delay) or never comes (a hang).
        struct Waiting {
            var sequence: UInt64
            var answer: PreparedAnswer
            var final: RequestDecision.Final
            /// A hang: no timer runs.
            var hung: Bool
        }

        private(set) var phase = Phase.open
        private(set) var waiting: [Int32: Waiting] = [:]
        /// The limit the server is configured with.
        let configuredStreams: UInt32
        /// The limit last announced.
        private(set) var announcedStreams: UInt32
        /// A limit set by a fault rule: kept until another rule changes it.
        private(set) var ruleStreams: UInt32?
        /// A token connection that has not yet had a push pass authentication (one stream).
        private(set) var authLimited: Bool
        /// The last stream id a GOAWAY named: streams above it are not answered (the client
        /// retries them elsewhere).
        private(set) var goAwayLastStreamID: Int32?

        /// - Parameter authLimited: the connection starts with one stream until a push passes
        ///   token authentication (the session announced 1 in its first SETTINGS).
        init(configuredStreams: UInt32, authLimited: Bool) {
            self.configuredStreams = configuredStreams
            self.authLimited = authLimited
            announcedStreams = authLimited ? 1 : configuredStreams
        }

        /// Whether `decision` takes the common path: answered at once, nothing else to do. The
        /// session then records and answers without asking the state machine.
        static func isImmediate(_ decision: RequestDecision) -> Bool {
            decision.delayMilliseconds == nil && decision.final == .answer && decision.maxConcurrentStreams == nil
                && !decision.firstAuthenticatedPush && decision.streamLimit == nil && !decision.refuseOpenStreams
        }

        /// A request was decided at `now`. The record holds `decision.answer` as its response
        /// already when `recordComplete`.
        mutating func requestDecided(
            _ decision: RequestDecision, recordComplete: Bool, now: Int64, into actions: inout [Action]
        ) {
            if let last = goAwayLastStreamID, decision.streamID > last {
                // Above the GOAWAY's last stream: not processed. REFUSED_STREAM tells the client
                // so at once (safe to retry, RFC 9113 §8.7) instead of leaving it to wait.
                actions.append(
                    .resetStream(streamID: decision.streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                actions.append(.completeRecord(sequence: decision.sequence, response: nil, outcome: .goAway))
                return
            }
            if let limit = decision.maxConcurrentStreams {
                ruleStreams = limit
                announce(limit, into: &actions)
            }
            if decision.firstAuthenticatedPush, authLimited {
                authLimited = false
                // A limit set by a rule stays; otherwise the configured one applies now.
                if ruleStreams == nil { announce(configuredStreams, into: &actions) }
            }
            switch decision.streamLimit {
            case .limit(let limit)?: limitStreams(limit, into: &actions)
            case .restore?: restoreStreamLimit(into: &actions)
            case nil: break
            }
            if decision.refuseOpenStreams {
                for (streamID, entry) in waiting.sorted(by: { $0.key < $1.key }) where streamID != decision.streamID {
                    if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
                    actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                    actions.append(.completeRecord(sequence: entry.sequence, response: nil, outcome: .reset))
                    waiting[streamID] = nil
                }
                actions.append(.refuseStreamsBeingReceived(except: decision.streamID))
            }
            if let delay = decision.delayMilliseconds, phase != .closed {
                waiting[decision.streamID] = Waiting(
                    sequence: decision.sequence, answer: decision.answer, final: decision.final, hung: false)
                actions.append(.startTimer(streamID: decision.streamID, milliseconds: max(0, delay)))
                return
            }
            settle(
                streamID: decision.streamID, sequence: decision.sequence, answer: decision.answer,
                final: decision.final, recordComplete: recordComplete, now: now, into: &actions)
        }

        /// The delay of `streamID` has run out.
        mutating func timerFired(streamID: Int32, now: Int64, into actions: inout [Action]) {
            guard let entry = waiting[streamID], !entry.hung else { return }
            waiting[streamID] = nil
            settle(
                streamID: streamID, sequence: entry.sequence, answer: entry.answer, final: entry.final,
                recordComplete: false, now: now, into: &actions)
        }

        /// The stream closed before its answer went out (the client reset it).
        mutating func streamClosed(streamID: Int32, into actions: inout [Action]) {
            guard let entry = waiting.removeValue(forKey: streamID) else { return }
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(.completeRecord(sequence: entry.sequence, response: nil, outcome: .cancelled))
        }

        /// The connection has closed: every waiting stream ends unanswered.
        mutating func connectionClosed(into actions: inout [Action]) {
            phase = .closed
            for (streamID, entry) in waiting.sorted(by: { $0.key < $1.key }) {
                if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
                actions.append(.completeRecord(sequence: entry.sequence, response: nil, outcome: .connectionClosed))
            }
            waiting.removeAll()
        }

        /// A graceful end (SIGTERM, the shutdown mode, an idle timeout): GOAWAY NO_ERROR with
        /// `debugData` and the last processed stream; streams it covers are still answered,
        /// delayed ones when their time comes, then the connection closes.
        mutating func shutdown(debugData: [UInt8], into actions: inout [Action]) {
            guard phase == .open else { return }
            phase = .draining
            actions.append(.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: nil, debugData: debugData))
        }

        /// The client opened more streams than the limit it acknowledged and `stream-limit-goaway`
        /// is on: GOAWAY REFUSED_STREAM with APNs's plain-text debug data, naming the last stream
        /// processed, then the connection closes (streams still waiting end unanswered).
        mutating func streamLimitViolated(into actions: inout [Action]) {
            guard phase != .closed else { return }
            phase = .closed
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.refusedStream.rawValue, lastStreamID: nil,
                    debugData: Array(ConnectionBehavior.streamLimitDebugText.utf8)))
            actions.append(.close(afterFlush: true))
        }

        /// Announces a new MAX_CONCURRENT_STREAMS (a behavior's); a rule's limit wins.
        mutating func limitStreams(_ limit: UInt32, into actions: inout [Action]) {
            guard ruleStreams == nil else { return }
            announce(limit, into: &actions)
        }

        /// Restores the limit that applies without a behavior's: the rule's, one stream before
        /// authentication, else the configured one.
        mutating func restoreStreamLimit(into actions: inout [Action]) {
            announce(ruleStreams ?? (authLimited ? 1 : configuredStreams), into: &actions)
        }

        private mutating func announce(_ limit: UInt32, into actions: inout [Action]) {
            guard limit != announcedStreams else { return }
            announcedStreams = limit
            actions.append(.announceMaxConcurrentStreams(limit))
        }

        private mutating func settle(
            streamID: Int32, sequence: UInt64, answer: PreparedAnswer, final: RequestDecision.Final,
            recordComplete: Bool, now: Int64, into actions: inout [Action]
        ) {
            func answerNow() {
                actions.append(.respond(streamID: streamID, answer))
                if !recordComplete {
                    actions.append(
                        .completeRecord(
                            sequence: sequence, response: answer.response(respondedAt: now), outcome: .answered))
                }
            }
            if phase == .closed {
                if !recordComplete {
                    actions.append(.completeRecord(sequence: sequence, response: nil, outcome: .connectionClosed))
                }
                return
            }
            switch final {
            case .answer:
                answerNow()
            case .hang:
                waiting[streamID] = Waiting(sequence: sequence, answer: answer, final: final, hung: true)
                actions.append(.completeRecord(sequence: sequence, response: nil, outcome: .hung))
            case .reset(let code):
                actions.append(.resetStream(streamID: streamID, errorCode: code))
                actions.append(.completeRecord(sequence: sequence, response: nil, outcome: .reset))
            case .goAway(let code, let lastStreamID, let debugData):
                actions.append(.goAway(errorCode: code, lastStreamID: lastStreamID, debugData: debugData))
                if phase == .open { phase = .draining }
                if let lastStreamID { goAwayLastStreamID = min(lastStreamID, goAwayLastStreamID ?? .max) }
                if lastStreamID.map({ streamID <= $0 }) ?? true {
                    answerNow()
                } else {
                    actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                    actions.append(.completeRecord(sequence: sequence, response: nil, outcome: .goAway))
                }
                if code != HTTP2ErrorCode.noError.rawValue {
                    phase = .closed
                    actions.append(.close(afterFlush: true))
                }
            case .goAwayInsteadOfAnswer:
                actions.append(
                    .goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: 0, debugData: answer.body ?? []))
                if !recordComplete {
                    actions.append(
                        .completeRecord(
                            sequence: sequence, response: answer.response(respondedAt: now, goAway: true),
                            outcome: .goAway))
                }
                phase = .closed
                actions.append(.close(afterFlush: true))
            case .close(let respondFirst):
                if respondFirst {
                    answerNow()
                } else {
                    actions.append(.completeRecord(sequence: sequence, response: nil, outcome: .connectionClosed))
                }
                phase = .closed
                actions.append(.close(afterFlush: respondFirst))
            }
        }
    }
}
