/// The answer the mock gives one request: what its HTTP/2 response carries. The one type for
/// it from the decision to the wire; the record keeps what of it went out (`DeliveryResponse`).
public struct APNSAnswer: Sendable, Equatable {
    public var status: Int
    public var reason: APNSReason?
    /// A 410's `timestamp` (epoch milliseconds).
    public var timestamp: Int64?
    /// The response's id: the `apns-id` header of a device push, the `apns-request-id` header
    /// of a broadcast or channel-management answer (`idHeader` says which).
    public var apnsID: ResponseMessageID
    /// The header `apnsID` goes out in.
    public var idHeader: IDHeader = .apnsID
    /// The `apns-unique-id` header (device pushes: sandbox 200s; broadcasts: every 200).
    public var uniqueID: ResponseMessageID?
    /// The `apns-channel-id` header of a channel created (201).
    public var channelID: String?
    /// The JSON body: a rejection's `{"reason":…}`, or a channel read's or list's answer; `nil`
    /// for other successes.
    public var body: [UInt8]?
    /// DATA frames the body is split over (at least 1).
    public var dataFrames: Int

    /// The header a response's id goes out in.
    public enum IDHeader: Sendable, Equatable {
        /// `apns-id`: device pushes.
        case apnsID
        /// `apns-request-id`: broadcasts and channel management ("Sending broadcast push
        /// notification requests to APNs", "Sending channel management requests to APNs").
        case requestID

        /// The header's name.
        public var name: String {
            switch self {
            case .apnsID: "apns-id"
            case .requestID: "apns-request-id"
            }
        }
    }

    public init(
        status: Int, reason: APNSReason? = nil, timestamp: Int64? = nil, apnsID: ResponseMessageID,
        uniqueID: ResponseMessageID? = nil, body: [UInt8]? = nil, dataFrames: Int = 1
    ) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.apnsID = apnsID
        self.uniqueID = uniqueID
        self.body = body
        self.dataFrames = dataFrames
    }

    /// The answer the rules' `verdict` calls for: a success (a device push's 200 with an
    /// `apns-unique-id` in the sandbox, a broadcast's 200 with one in every environment, a
    /// channel request's 200, 201 or 204), or the rejection with its JSON body. Broadcast and
    /// channel answers carry `apns-request-id` instead of `apns-id`; what a channel request
    /// returns (a new id, a configuration) is added when the registry carries it out.
    public static func from(
        _ verdict: APNSVerdict, apnsID: ResponseMessageID, environment: APNSEnvironment, random: inout FastRandom
    ) -> APNSAnswer {
        guard verdict.kind == .push else {
            return fromChannelAPI(verdict, apnsID: apnsID, environment: environment, random: &random)
        }
        var answer = APNSAnswer(status: verdict.status, timestamp: verdict.timestamp, apnsID: apnsID)
        if verdict.isAccepted {
            if successCarriesUniqueID(kind: .push, environment: environment) {
                answer.uniqueID = .generate(using: &random, lowercase: true)
            }
        } else {
            answer.rejected(by: verdict)
        }
        return answer
    }

    /// A broadcast's or channel request's answer: `apns-request-id`, and a broadcast's 200 has
    /// an `apns-unique-id` in every environment.
    @inline(never)
    private static func fromChannelAPI(
        _ verdict: APNSVerdict, apnsID: ResponseMessageID, environment: APNSEnvironment, random: inout FastRandom
    ) -> APNSAnswer {
        var answer = APNSAnswer(status: verdict.status, timestamp: verdict.timestamp, apnsID: apnsID)
        // Apple's Web Push answers carry `apns-id` ("Sending web push notifications in web apps
        // and browsers"); broadcasts and channel management `apns-request-id`.
        answer.idHeader = verdict.kind == .webPush ? .apnsID : .requestID
        if verdict.isAccepted {
            if successCarriesUniqueID(kind: verdict.kind, environment: environment) {
                answer.uniqueID = .generate(using: &random, lowercase: true)
            }
        } else {
            answer.rejected(by: verdict)
        }
        return answer
    }

    /// Whether a success answer to a request of `kind` carries `apns-unique-id`: a device
    /// push's in the sandbox only ("Handling notification responses from APNs"), a broadcast's
    /// in every environment ("Sending broadcast push notification requests to APNs"), a
    /// channel request's never. Also for a success a fault rule makes of a rejection.
    @inline(__always)
    public static func successCarriesUniqueID(kind: RecordKind, environment: APNSEnvironment) -> Bool {
        switch kind {
        case .push: environment == .sandbox
        case .broadcast: true
        case .channel, .webPush: false
        }
    }

    /// The rejection `verdict` says, with its JSON body.
    private mutating func rejected(by verdict: APNSVerdict) {
        let reason = verdict.reason ?? .internalServerError
        self.reason = reason
        body = APNSErrorBody.encode(reason: reason, timestamp: verdict.timestamp)
    }

    /// Replaces the answer with a rejection (a mode's or a behavior's): no timestamp, no
    /// unique id, the reason's body.
    public mutating func reject(_ status: Int, _ reason: APNSReason) {
        self.status = status
        self.reason = reason
        timestamp = nil
        uniqueID = nil
        channelID = nil
        body = APNSErrorBody.encode(reason: reason, timestamp: nil)
    }
}
