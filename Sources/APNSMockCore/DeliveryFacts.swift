/// What a `DeliveryMatcher` can ask of a push: a stored record and a request being answered
/// both answer it (a live request has no `status` yet).
public protocol DeliveryFacts {
    /// The device token, lower case when well-formed.
    var matchToken: String? { get }
    /// The topic the push is for.
    var matchTopic: String? { get }
    /// The push type the request was judged as.
    var matchPushType: APNSPushType? { get }
    /// The answer's status; `nil` while unanswered.
    var matchStatus: Int? { get }
    /// The answer's reason; `nil` for a 200 or while unanswered.
    var matchReason: String? { get }
    /// The `apns-id` of the answer (the client's, or the generated one).
    var matchAPNSID: String? { get }
    /// The environment the push was judged in.
    var matchEnvironment: APNSEnvironment { get }
    /// How the push authenticated; `nil` when it did not get that far, or sent nothing.
    var matchAuthMethod: AuthenticationResult.Method? { get }
    /// The first value of the request header `name` (lower case), if present.
    func matchHeader(_ name: String) -> String?
    /// The payload bytes kept.
    var matchPayload: [UInt8] { get }
    /// The APNs connection the request came on.
    var matchConnectionID: UInt64? { get }
    /// The fault rule that acted on the request, if any.
    var matchFaultID: String? { get }
    /// What became of the request; `nil` while it is being decided.
    var matchOutcome: DeliveryOutcome? { get }
    /// What the record is of.
    var matchKind: RecordKind { get }
    /// The broadcast channel the request named, created, or came by.
    var matchChannelID: String? { get }
    /// The payload's lint and preview, computed when first asked for (only `lint` and
    /// `preview.*` conditions ask).
    var matchAnalysis: PayloadAnalysis? { get }
    /// What became of the push after its answer; `nil` before it was answered, or for a
    /// record that is no accepted push to a device.
    var matchDelivery: DeviceDelivery? { get }
    /// A web push's `webPush` object, as its record writes it; `nil` for other records.
    var matchWebPush: JSONValue? { get }
}

extension DeliveryFacts {
    public var matchConnectionID: UInt64? { nil }
    public var matchFaultID: String? { nil }
    public var matchOutcome: DeliveryOutcome? { nil }
    public var matchKind: RecordKind { .push }
    public var matchChannelID: String? { nil }
    public var matchAnalysis: PayloadAnalysis? { nil }
    public var matchDelivery: DeviceDelivery? { nil }
    public var matchWebPush: JSONValue? { nil }
}
