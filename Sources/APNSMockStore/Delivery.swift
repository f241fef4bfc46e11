import APNSMockCore

/// One recorded request, decoded for reading (admin API, library users).
public struct Delivery: Sendable {
    /// Sequence number: starts at 1, never goes back, not even after a reset.
    public var sequence: UInt64
    /// When the request's headers arrived, epoch milliseconds.
    public var receivedAt: Int64
    public var connectionID: UInt64
    public var streamID: Int32
    public var environment: APNSEnvironment
    public var method: String
    public var path: String
    public var authority: String?
    /// The device token (lower case when well-formed; as sent when not).
    public var token: String?
    /// Request headers in order, duplicates kept; `authorization` without its signature.
    public var headers: [HTTPHeaderField]
    public var topic: String?
    public var pushType: APNSPushType?
    public var apnsID: String
    public var apnsIDGenerated: Bool
    public var uniqueID: String?
    /// The payload bytes kept (at most the largest limit).
    public var payload: [UInt8]
    public var payloadSize: Int
    public var status: Int
    public var reason: APNSReason?
    /// When the answer was sent, epoch milliseconds.
    public var respondedAt: Int64
    /// What provider authentication learned, when the request got that far.
    public var authentication: AuthenticationResult?
    /// The answer was GOAWAY (BadCertificateEnvironment), not a response.
    public var goAway: Bool

    /// The first value of header `name`.
    public func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }

    /// What the payload is; parses it (computed on read, never on the answer path).
    public var payloadKind: PayloadKind {
        if payloadSize > payload.count { return .truncated }
        return PayloadKind.classify(payload)
    }
}
