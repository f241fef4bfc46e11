/// What the behaviors have done to one connection so far; owned by its state machine.
public struct ConnectionFaultState: Sendable, Equatable {
    /// `expired-token-poison` struck: every push is answered 403 ExpiredProviderToken.
    public var poisoned = false
    /// `token-update-lockout`: 429 TooManyProviderTokenUpdates until this time (epoch ms).
    public var lockedOutUntil: Int64 = 0
    /// `streams-after-rejection` lowered the stream limit.
    public var limitedAfterRejection = false

    public init() {}
}
