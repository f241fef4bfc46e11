import APNSMockCore

/// One recorded request and its answer: what the transport hands to the `DeliveryStore`, and
/// what the store hands back to readers.
///
/// Its fields are defined once, in `DeliveryRecord.Field` (JSON keys, matcher fields, storage).
/// The admin JSON (`DeliveryRecordJSON`) switches over that list, so the compiler points at it
/// for a new field; the stored form (`RecordCodec` for variable fields, `StoredDelivery` and the
/// store's `record`/`decode` for fixed ones) is checked by `RecordFieldTableTests`.
public struct DeliveryRecord: Sendable {
    /// Sequence number: starts at 1, never goes back, not even after a reset (0 until stored).
    public var sequence: UInt64 = 0
    /// What the record is of (`push`).
    public var kind: RecordKind
    /// When the request's headers arrived, epoch milliseconds.
    public var receivedAt: Int64
    public var connectionID: UInt64
    public var streamID: Int32
    public var environment: APNSEnvironment
    public var method: String
    public var path: String
    public var authority: String?
    /// Regular headers in order, duplicates kept; the store keeps `authorization` without its
    /// signature.
    public var headerBlock: HeaderBlock
    /// The device token: lower case when well-formed, else as the path had it.
    public var token: String?
    public var topic: String?
    /// The push type as sent, or as judged when the header is missing.
    public var pushType: APNSPushType?
    /// The `apns-id` of the answer: echoed or generated.
    public var apnsID: ResponseMessageID
    /// The `apns-unique-id` of the answer (sandbox 200s).
    public var uniqueID: ResponseMessageID?
    /// The payload bytes kept (at most the largest limit).
    public var payload: [UInt8]
    /// The payload bytes received in all.
    public var payloadSize: Int
    /// What provider authentication learned, or saw when the request failed earlier.
    public var authentication: AuthenticationResult?
    /// The answer; `nil` while the request has none (yet), or never got one.
    public var response: DeliveryResponse?
    /// What became of the request: answered, waiting, or never answered and why.
    public var outcome: DeliveryOutcome
    /// The fault rule that acted on the request, if one did.
    public var faultID: String?
    /// The broadcast channel: the one a broadcast or channel request named (`apns-channel-id`)
    /// or created, or, for a delivery that reached a subscribed device by a broadcast
    /// (`viaChannel`), the channel it came by.
    public var channelID: String?
    /// A delivery the mock made to a subscribed device for a broadcast, not a request a client
    /// sent (its `channelID` is the broadcast's channel).
    public var viaChannel = false
    /// Why the request was rejected, or what the mock's own controls (a mode, a behavior, the
    /// throttle, a fault rule) did to its answer, in words; `nil` for a plain success. Apple's
    /// reason on the wire never changes; this is what the mock can say that Apple cannot.
    public var detail: String?
    /// The payload's lint and preview: not stored, computed on the first read of the record
    /// and cached by the store (`DeliveryStore.analyzed`); `nil` until then. The preview is
    /// left out when the push was rejected.
    public var analysis: PayloadAnalysis?
    /// What became of an accepted push after its 200, oldest first (`delivery` is the last):
    /// what the delivery model decided for a device with state. Empty for a push the model did
    /// not judge; `delivery` then says it was delivered when answered.
    public var deliveryHistory: [DeviceDelivery] = []
    /// A web push's facts, as the JSON object `WebPushVerdict.recordJSON` writes; `nil` for
    /// every other kind.
    public var webPush: [UInt8]?

    public init(
        receivedAt: Int64, connectionID: UInt64, streamID: Int32, environment: APNSEnvironment, method: String,
        path: String, authority: String?, headerBlock: HeaderBlock, token: String?, topic: String?,
        pushType: APNSPushType?, apnsID: ResponseMessageID, uniqueID: ResponseMessageID?, payload: [UInt8],
        payloadSize: Int, authentication: AuthenticationResult? = nil, response: DeliveryResponse?,
        outcome: DeliveryOutcome? = nil, faultID: String? = nil, kind: RecordKind = .push, channelID: String? = nil,
        viaChannel: Bool = false, detail: String? = nil, webPush: [UInt8]? = nil
    ) {
        self.kind = kind
        self.webPush = webPush
        self.detail = detail
        self.channelID = channelID
        self.viaChannel = viaChannel
        self.receivedAt = receivedAt
        self.connectionID = connectionID
        self.streamID = streamID
        self.environment = environment
        self.method = method
        self.path = path
        self.authority = authority
        self.headerBlock = headerBlock
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.payload = payload
        self.payloadSize = payloadSize
        self.authentication = authentication
        self.response = response
        self.outcome = outcome ?? (response == nil ? .pending : response!.goAway ? .goAway : .answered)
        self.faultID = faultID
    }

    /// What became of the push after its answer: the last of `deliveryHistory`, or, for an
    /// accepted push to a device (a request's, or a broadcast's delivery) or an accepted web
    /// push that the delivery model did not judge, delivered when answered. `nil` for other
    /// records.
    public var delivery: DeviceDelivery? {
        if let last = deliveryHistory.last { return last }
        guard token != nil, let response else { return nil }
        switch kind {
        case .push: guard response.status == 200 else { return nil }
        case .webPush: guard response.status == WebPushRequestRules.successStatus else { return nil }
        case .broadcast, .channel: return nil
        }
        return .delivered(at: response.respondedAt > 0 ? response.respondedAt : receivedAt)
    }

    /// Request headers in order, duplicates kept.
    public var headers: [HTTPHeaderField] { headerBlock.fields }

    /// The first value of header `name` (lower case).
    public func header(_ name: String) -> String? { headerBlock.firstValue(named: name) }

    /// The answer's status; `nil` while unanswered.
    public var status: Int? { response?.status }

    /// The answer's reason.
    public var reason: APNSReason? { response?.reason }

    /// Whether the `apns-id` was generated, not sent by the client.
    public var apnsIDGenerated: Bool { apnsID.isGenerated }

    /// What the payload is; parses it (computed on read, never on the answer path).
    public var payloadKind: PayloadKind {
        if payloadSize > payload.count { return .truncated }
        return PayloadKind.classify(payload)
    }
}

extension DeliveryRecord: DeliveryFacts {
    public var matchToken: String? { token }
    public var matchTopic: String? { topic }
    public var matchPushType: APNSPushType? { pushType }
    public var matchStatus: Int? { response?.status }
    public var matchReason: String? { response?.reason?.rawValue }
    public var matchAPNSID: String? { apnsID.text }
    public var matchEnvironment: APNSEnvironment { environment }
    public var matchAuthMethod: AuthenticationResult.Method? { authentication?.method }
    public func matchHeader(_ name: String) -> String? { headerBlock.firstValue(named: name) }
    public var matchWebPush: JSONValue? { webPush.flatMap { JSONValue.parse($0) } }
    public var matchPayload: [UInt8] { payload }
    public var matchConnectionID: UInt64? { connectionID }
    public var matchFaultID: String? { faultID }
    public var matchOutcome: DeliveryOutcome? { outcome }
    public var matchKind: RecordKind { kind }
    public var matchChannelID: String? { channelID }
    public var matchAnalysis: PayloadAnalysis? { analysis }
    public var matchDelivery: DeviceDelivery? { delivery }
}
