/// Server-wide options that change what the rules accept.
public struct ValidationPolicy: Sendable, Hashable {
    /// Reject a payload that is not a JSON object with 400 `BadRequestPayload` (the mock's
    /// own choice: Apple documents no reason for it on `/3/device`).
    public var strictPayload: Bool

    public init(strictPayload: Bool = false) {
        self.strictPayload = strictPayload
    }
}
