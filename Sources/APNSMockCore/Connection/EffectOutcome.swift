/// What carrying out a success's effect did (a channel created, read, listed or deleted; a
/// broadcast whose channel was deleted meanwhile; a push-to-start's subscription), as the
/// decision needs it: the transport reports it (`effectApplied`) and the machine finishes the
/// answer with it, so the answer that is recorded and sent is the one decided.
public struct EffectOutcome: Sendable, Equatable {
    /// What the effect changes in the answer.
    public enum Change: Sendable, Equatable {
        /// Nothing (a delete, a broadcast, a push-to-start).
        case none
        /// A channel was created: its id goes out in `apns-channel-id`.
        case channelCreated(id: String)
        /// A read or a list: its JSON body.
        case body([UInt8])
        /// The registry refused it as it is now (a channel deleted or filled since the rules
        /// looked): the answer becomes this rejection.
        case rejected(APNSReason)
    }

    public var change: Change
    /// The channel the record names instead of the verdict's (the channel created, or the one
    /// a push-to-start's activity now listens to).
    public var recordChannelID: String?

    public init(change: Change = .none, recordChannelID: String? = nil) {
        self.change = change
        self.recordChannelID = recordChannelID
    }
}

extension APNSAnswer {
    /// The answer once the effect it was waiting for has run.
    public mutating func settle(with outcome: EffectOutcome) {
        switch outcome.change {
        case .none: break
        case .channelCreated(let id): channelID = id
        case .body(let bytes): body = bytes
        case .rejected(let reason): reject(APNSStatus.forReason(reason), reason)
        }
    }
}
