/// The message a storage channel (`message-storage-policy` 1) keeps: its most recent broadcast
/// with a non-zero expiration, until that expiration or 8 hours after it was sent, whichever is
/// first ("Sending broadcast push notification requests to APNs"). The mock delivers it to a
/// device that starts listening to the channel while it is kept.
public struct StoredBroadcast: Sendable, Hashable {
    /// The payload as sent (at most the broadcast limit).
    public var payload: [UInt8]
    /// The broadcast's `apns-request-id`, which the deliveries of it carry.
    public var requestID: String
    /// When the broadcast was answered, epoch ms.
    public var sentAt: Int64
    /// When APNs stops keeping it, epoch ms.
    public var expiresAt: Int64

    /// The longest APNs keeps a channel's message: 8 hours.
    public static let longestKept: Int64 = 8 * 3_600_000

    /// The message a broadcast sent at `sentAt` with `apns-expiration` `expiration` (UNIX
    /// seconds) leaves on a storage channel; `nil` for expiration 0 ("deliver now or never") or
    /// one already past.
    public init?(payload: [UInt8], requestID: String, sentAt: Int64, expiration: Int64) {
        guard expiration > 0 else { return nil }
        let expiresAt = min(expiration * 1000, sentAt + Self.longestKept)
        guard expiresAt > sentAt else { return nil }
        self.payload = payload
        self.requestID = requestID
        self.sentAt = sentAt
        self.expiresAt = expiresAt
    }
}
