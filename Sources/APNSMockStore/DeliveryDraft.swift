import APNSMockCore

/// One answered request, as the transport hands it to the `DeliveryStore`.
public struct DeliveryDraft: Sendable {
    public var receivedAt: Int64
    public var respondedAt: Int64
    public var connectionID: UInt64
    public var streamID: Int32
    public var environment: APNSEnvironment
    public var method: String
    public var path: String
    public var authority: String?
    /// Regular headers in order, duplicates kept; `authorization` as received (the store
    /// keeps it without its signature).
    public var headerBlock: HeaderBlock
    /// The lower-case device token when well-formed.
    public var deviceToken: String?
    public var topic: String?
    public var pushType: APNSPushType?
    /// The `apns-id` of the response: echoed or generated.
    public var apnsID: ResponseMessageID
    public var uniqueID: ResponseMessageID?
    public var payload: [UInt8]
    public var payloadSize: Int
    public var status: Int
    public var reason: APNSReason?
    /// What provider authentication learned, when the request got that far.
    public var authentication: AuthenticationResult?
    /// The answer was GOAWAY (BadCertificateEnvironment), not a response.
    public var goAway: Bool

    public init(
        receivedAt: Int64, respondedAt: Int64, connectionID: UInt64, streamID: Int32, environment: APNSEnvironment,
        method: String, path: String, authority: String?, headerBlock: HeaderBlock, deviceToken: String?,
        topic: String?, pushType: APNSPushType?, apnsID: ResponseMessageID, uniqueID: ResponseMessageID?,
        payload: [UInt8], payloadSize: Int, status: Int, reason: APNSReason?,
        authentication: AuthenticationResult? = nil, goAway: Bool = false
    ) {
        self.authentication = authentication
        self.goAway = goAway
        self.receivedAt = receivedAt
        self.respondedAt = respondedAt
        self.connectionID = connectionID
        self.streamID = streamID
        self.environment = environment
        self.method = method
        self.path = path
        self.authority = authority
        self.headerBlock = headerBlock
        self.deviceToken = deviceToken
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.payload = payload
        self.payloadSize = payloadSize
        self.status = status
        self.reason = reason
    }
}
