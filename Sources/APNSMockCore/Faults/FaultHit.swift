/// A fault rule that acts on one request: its id, its action, and the delay drawn for it.
public struct FaultHit: Sendable, Equatable {
    public var ruleID: String
    public var action: FaultAction
    /// The delay drawn for this request, if the action has one.
    public var delayMilliseconds: Int64?

    public init(ruleID: String, action: FaultAction, delayMilliseconds: Int64? = nil) {
        self.ruleID = ruleID
        self.action = action
        self.delayMilliseconds = delayMilliseconds
    }
}
