/// What a fault does to a matching request, besides an optional delay before it.
public enum FaultEffect: Sendable, Hashable {
    /// Answer with this status and body instead of the rules' answer.
    case respond(FaultResponse)
    /// Never answer the stream (the client's timeout is what is being tested).
    case hang
    /// Reset the stream (`RST_STREAM`) with this code instead of answering.
    case resetStream(HTTP2ErrorCode)
    /// Send `GOAWAY` with this code and debug data, then stop taking streams on the connection.
    /// `lastStreamID` `nil`: the last stream the connection processed, as the transport decides.
    /// `order`: whether the request's answer goes out before or after the GOAWAY, when the
    /// GOAWAY covers its stream.
    case goAway(
        errorCode: HTTP2ErrorCode, lastStreamID: Int32?, debugData: [UInt8], order: GoAwayOrder = .default)
    /// Close the TCP connection, after answering this request normally when `respondFirst`.
    case close(respondFirst: Bool)
    /// Advertise this `SETTINGS_MAX_CONCURRENT_STREAMS` on the connection, and answer this
    /// request normally.
    case setMaxConcurrentStreams(UInt32)

    /// The action names an effect is written under, in the order messages list them.
    public static let names = ["respond", "hang", "resetStream", "goaway", "close", "setMaxConcurrentStreams"]

    /// The most debug data a `GOAWAY` may carry: what fits one frame at the smallest
    /// `SETTINGS_MAX_FRAME_SIZE` (16384 bytes, less 8 for the stream id and error code).
    public static let goAwayDebugDataLimit = 16_376

    /// The action's name in JSON (`goaway` for `goAway`).
    public var name: String {
        switch self {
        case .respond: "respond"
        case .hang: "hang"
        case .resetStream: "resetStream"
        case .goAway: "goaway"
        case .close: "close"
        case .setMaxConcurrentStreams: "setMaxConcurrentStreams"
        }
    }

    /// Reads the object of action `name` (one of `names`).
    /// - Parameter location: the object's key path, for messages (`action.respond`).
    /// - Throws: `FaultRuleError` naming the field.
    public init(name: String, json: JSONValue, at location: String) throws(FaultRuleError) {
        switch name {
        case "respond":
            self = .respond(try FaultResponse(json: json, at: location))
        case "hang":
            _ = try FaultFieldReader(json, at: location, known: [], shape: "an empty object {}")
            self = .hang
        case "resetStream":
            let fields = try FaultFieldReader(
                json, at: location, known: ["errorCode"], shape: #"an object such as {"errorCode": "REFUSED_STREAM"}"#)
            let code = try fields["errorCode"].map { value throws(FaultRuleError) in
                try HTTP2ErrorCode(json: value, at: fields.path("errorCode"))
            }
            self = .resetStream(code ?? .refusedStream)
        case "goaway":
            self = try Self.goAway(json, at: location)
        case "close":
            let fields = try FaultFieldReader(
                json, at: location, known: ["respondFirst"], shape: #"an object such as {"respondFirst": false}"#)
            self = .close(respondFirst: try fields.bool("respondFirst") ?? false)
        case "setMaxConcurrentStreams":
            let fields = try FaultFieldReader(
                json, at: location, known: ["value"], shape: #"an object such as {"value": 1}"#)
            guard let value = try fields.integer("value", in: 0...Int64(Int32.max)) else {
                throw FaultRuleError("'\(fields.path("value"))' is missing")
            }
            self = .setMaxConcurrentStreams(UInt32(value))
        default:
            throw FaultRuleError("unknown action '\(location)'; known: delay, \(Self.names.joined(separator: ", "))")
        }
    }

    private static func goAway(_ json: JSONValue, at location: String) throws(FaultRuleError) -> FaultEffect {
        let fields = try FaultFieldReader(
            json, at: location, known: ["errorCode", "lastStreamId", "debug", "reason", "order"],
            shape: #"an object such as {"errorCode": "NO_ERROR", "reason": "Shutdown", "order": "answerFirst"}"#)
        let code = try fields["errorCode"].map { value throws(FaultRuleError) in
            try HTTP2ErrorCode(json: value, at: fields.path("errorCode"))
        }
        let lastStreamID = try fields.integer("lastStreamId", in: 0...Int64(Int32.max)).map { Int32($0) }
        var order = GoAwayOrder.default
        if let value = fields["order"] {
            guard case .string(let name) = value, let named = GoAwayOrder(rawValue: name) else {
                throw FaultRuleError(
                    "'\(fields.path("order"))' must be one of \(GoAwayOrder.names.joined(separator: ", ")) "
                        + "(whether the stream's answer or the GOAWAY goes out first; \(GoAwayOrder.default.rawValue) "
                        + "when left out)")
            }
            order = named
        }
        let debugData: [UInt8]
        switch (fields["debug"], fields["reason"]) {
        case (let debug?, nil):
            guard case .string(let text) = debug else {
                throw FaultRuleError("'\(fields.path("debug"))' must be a string (sent as the debug data, as is)")
            }
            debugData = Array(text.utf8)
        case (nil, .some):
            var writer = JSONWriter(capacity: 64)
            writer.beginObject()
            writer.key("reason")
            writer.string(try fields.string("reason"))
            writer.endObject()
            debugData = writer.bytes
        case (nil, nil):
            debugData = Array(#"{"reason":"Shutdown"}"#.utf8)
        case (.some, .some):
            throw FaultRuleError(
                "'\(fields.path("debug"))' and '\(fields.path("reason"))' cannot both be given: "
                    + "'debug' is sent as is, 'reason' is sent as {\"reason\": …}")
        }
        guard debugData.count <= goAwayDebugDataLimit else {
            throw FaultRuleError(
                "'\(fields.path(fields["debug"] == nil ? "reason" : "debug"))' makes \(debugData.count) bytes of "
                    + "debug data; a GOAWAY frame holds at most \(goAwayDebugDataLimit)")
        }
        return .goAway(errorCode: code ?? .noError, lastStreamID: lastStreamID, debugData: debugData, order: order)
    }

    /// As a fault rule writes it: the object under `name`. A `GOAWAY`'s debug data is written as
    /// `debug`, which sends it back unchanged, and its `order` always (the default included).
    public var json: JSONValue {
        switch self {
        case .respond(let response):
            return response.json
        case .hang:
            return .object([])
        case .resetStream(let code):
            return .object([("errorCode", code.json)])
        case .goAway(let code, let lastStreamID, let debugData, let order):
            var members: [(key: String, value: JSONValue)] = [("errorCode", code.json)]
            if let lastStreamID { members.append(("lastStreamId", .integer(Int64(lastStreamID)))) }
            members.append(("debug", .string(String(decoding: debugData, as: UTF8.self))))
            members.append(("order", .string(order.rawValue)))
            return .object(members)
        case .close(let respondFirst):
            return .object([("respondFirst", .bool(respondFirst))])
        case .setMaxConcurrentStreams(let value):
            return .object([("value", .integer(Int64(value)))])
        }
    }
}
