/// The answer the mock gives one request: what its HTTP/2 response carries. The one type for
/// it from the decision to the wire; the record keeps what of it went out (`DeliveryResponse`).
public struct APNSAnswer: Sendable, Equatable {
    public var status: Int
    public var reason: APNSReason?
    /// A 410's `timestamp` (epoch milliseconds).
    public var timestamp: Int64?
    /// The `apns-id` header.
    public var apnsID: ResponseMessageID
    /// The `apns-unique-id` header (sandbox 200s).
    public var uniqueID: ResponseMessageID?
    /// The JSON error body; `nil` for a 200.
    public var body: [UInt8]?
    /// DATA frames the body is split over (at least 1).
    public var dataFrames: Int

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

    /// The answer the rules' `verdict` calls for: a 200 (with an `apns-unique-id` in the
    /// sandbox), or the rejection with its JSON body.
    public static func from(
        _ verdict: APNSVerdict, apnsID: ResponseMessageID, environment: APNSEnvironment, random: inout FastRandom
    ) -> APNSAnswer {
        var answer = APNSAnswer(status: verdict.status, timestamp: verdict.timestamp, apnsID: apnsID)
        if verdict.isAccepted {
            if environment == .sandbox { answer.uniqueID = .generate(using: &random, lowercase: true) }
        } else {
            let reason = verdict.reason ?? .internalServerError
            answer.reason = reason
            answer.body = APNSErrorBody.encode(reason: reason, timestamp: verdict.timestamp)
        }
        return answer
    }

    /// Replaces the answer with a rejection (a mode's or a behavior's): no timestamp, no
    /// unique id, the reason's body.
    public mutating func reject(_ status: Int, _ reason: APNSReason) {
        self.status = status
        self.reason = reason
        timestamp = nil
        uniqueID = nil
        body = APNSErrorBody.encode(reason: reason, timestamp: nil)
    }
}
