/// The answer a `respond` fault sends instead of the one the rules would give.
///
/// JSON: `{"status": 410, "reason": "Unregistered", "timestamp": 1700000000000, "dataFrames": 1}`.
/// Any status from 200 to 599 and any reason (Apple's or invented) are allowed, but like APNs a
/// non-200 answer always carries a reason and a 200 never does.
public struct FaultResponse: Sendable, Hashable {
    /// The most DATA frames a body may be split over.
    public static let dataFramesLimit = 16

    /// The HTTP status, 200...599 (`APNSStatus.answerRange`).
    public var status: Int
    /// The body's `reason`; `nil` exactly when `status` is 200.
    public var reason: APNSReason?
    /// The body's `timestamp` (epoch milliseconds), as APNs sends with 410; allowed with any
    /// reason, never with a 200 (no body).
    public var timestamp: Int64?
    /// How many DATA frames the body is split over, 1...`dataFramesLimit` (always 1 for a 200,
    /// which has no body).
    public var dataFrames: Int

    public init(status: Int, reason: APNSReason? = nil, timestamp: Int64? = nil, dataFrames: Int = 1) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.dataFrames = dataFrames
    }

    /// The response body: `{"reason":"…"}` (with `timestamp` when set) when there is a reason,
    /// else empty.
    public var body: [UInt8] {
        guard let reason else { return [] }
        return APNSErrorBody.encode(reason: reason, timestamp: timestamp)
    }

    /// Reads a `respond` object.
    /// - Parameter location: its key path, for messages (`action.respond`).
    /// - Throws: `FaultRuleError` naming the field.
    public init(json: JSONValue, at location: String) throws(FaultRuleError) {
        let fields = try FaultFieldReader(
            json, at: location, known: ["status", "reason", "timestamp", "dataFrames"],
            shape: #"an object such as {"status": 410, "reason": "Unregistered"}"#)
        guard
            let status = try fields.integer(
                "status", in: Int64(APNSStatus.answerRange.lowerBound)...Int64(APNSStatus.answerRange.upperBound)
            ).map({ Int($0) })
        else {
            throw FaultRuleError("'\(fields.path("status"))' is missing")
        }
        let reason = try fields.string("reason")
        if status == 200, reason != nil {
            throw FaultRuleError("'\(fields.path("reason"))' must be absent when the status is 200: APNs sends no body")
        }
        if status != 200, reason == nil {
            throw FaultRuleError(
                "'\(fields.path("reason"))' is missing: an answer with status \(status) needs a reason, "
                    + "such as BadDeviceToken or an invented one")
        }
        for field in ["timestamp", "dataFrames"] where status == 200 && fields[field] != nil {
            throw FaultRuleError("'\(fields.path(field))' must be absent when the status is 200: APNs sends no body")
        }
        self.init(
            status: status,
            reason: reason.map(APNSReason.init(rawValue:)),
            timestamp: try fields.integer("timestamp", in: 0...Int64.max),
            dataFrames: Int(try fields.integer("dataFrames", in: 1...Int64(Self.dataFramesLimit)) ?? 1)
        )
    }

    /// As a fault rule writes it; `dataFrames` only when not 1.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("status", .integer(Int64(status)))]
        if let reason { members.append(("reason", .string(reason.rawValue))) }
        if let timestamp { members.append(("timestamp", .integer(timestamp))) }
        if dataFrames != 1 { members.append(("dataFrames", .integer(Int64(dataFrames)))) }
        return .object(members)
    }
}
