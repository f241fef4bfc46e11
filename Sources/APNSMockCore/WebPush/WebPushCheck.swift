/// One step of `WebPushRequestRules`, named in a verdict that failed it;
/// `WebPushRequestRules.checkOrder` lists them in the order they run.
public enum WebPushCheck: String, Sendable, Hashable, CaseIterable {
    /// The method is `POST` (405 `MethodNotAllowed`).
    case method
    /// The path names a subscription: `<prefix><id>` (404 `BadPath`).
    case path
    /// The subscription exists (404 `BadPath`), is not deleted or expired (410).
    case subscription
    /// VAPID: `Authorization: vapid t=<JWT>, k=<key>` (403 `BadAuthorizationHeader`,
    /// `BadVapidPublicKey`, `VapidPkHashMismatch`, `BadJwtToken`).
    case authorization
    /// `TTL` is there, once, a whole number of seconds (400 `BadTtl`).
    case ttl
    /// `Urgency`, when there, is one of RFC 8030's four values (400 `BadUrgency`).
    case urgency
    /// `Topic`, when there, is at most 32 base64url characters (400 `BadWebPushTopic`).
    case topic
    /// The body is at most 4096 bytes (413 `PayloadTooLarge`).
    case payloadSize
    /// A body comes with `Content-Encoding: aes128gcm` (400 `BadWebPushRequest`).
    case contentEncoding
}
