/// A Web Push request refused: the status and Apple's `reason` the mock answers with, and a
/// sentence saying what in the request is wrong (for the record, never sent to the client).
public struct WebPushRejection: Error, Sendable, Hashable {
    /// The HTTP status (`APNSStatus.forReason(reason)`).
    public var status: Int
    /// Apple's reason, the `reason` of the JSON body.
    public var reason: APNSReason
    /// One sentence naming the offending header, claim or value.
    public var detail: String

    /// A rejection with `reason`'s status.
    public init(_ reason: APNSReason, _ detail: String) {
        self.status = APNSStatus.forReason(reason)
        self.reason = reason
        self.detail = detail
    }
}
