import APNSMockCore

/// An admin API error: `{"error":{"code":"…","message":"…"}}` with a stable code.
public struct AdminError: Error, Sendable, Equatable {
    private enum Code: String, Sendable {
        case badParameter, notFound, badRequest, unauthorized, forbidden, methodNotAllowed
        case featureNotEnabled, channelLimitReached, channelExists, faultRuleExists
        case shuttingDown
    }
    private let code: Code
    /// A sentence naming the offending field or parameter.
    public let message: String
    /// The HTTP status for this error.
    public var status: Int {
        switch code {
        case .badParameter, .badRequest: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .notFound: 404
        case .methodNotAllowed: 405
        case .featureNotEnabled, .channelLimitReached, .channelExists, .faultRuleExists: 409
        case .shuttingDown: 503
        }
    }
    /// The stable code, as sent in JSON.
    public var codeString: String { code.rawValue }

    public static func badParameter(_ message: String) -> AdminError {
        AdminError(code: .badParameter, message: message)
    }
    public static func notFound(_ message: String) -> AdminError { AdminError(code: .notFound, message: message) }
    public static func badRequest(_ message: String) -> AdminError { AdminError(code: .badRequest, message: message) }
    public static func unauthorized(_ message: String) -> AdminError {
        AdminError(code: .unauthorized, message: message)
    }
    /// A request the admin API will not serve whoever sends it (403): a page of another origin
    /// calling `POST /mcp`.
    public static func forbidden(_ message: String) -> AdminError { AdminError(code: .forbidden, message: message) }
    /// A path the API has, with a method it does not take (405; the answer names the methods in `Allow`).
    public static func methodNotAllowed(_ message: String) -> AdminError {
        AdminError(code: .methodNotAllowed, message: message)
    }

    /// A channel for an app whose broadcast capability is off (409; APNs answers such requests
    /// `FeatureNotEnabled`).
    public static func featureNotEnabled(_ message: String) -> AdminError {
        AdminError(code: .featureNotEnabled, message: message)
    }
    /// A channel beyond the limit of channels per app and environment (409; APNs answers
    /// `CannotCreateChannelConfig`).
    public static func channelLimitReached(_ message: String) -> AdminError {
        AdminError(code: .channelLimitReached, message: message)
    }
    /// A channel with an id a current channel has (409).
    public static func channelExists(_ message: String) -> AdminError {
        AdminError(code: .channelExists, message: message)
    }

    /// `POST /v1/faults` with the id of a rule that exists (409; `PUT /v1/faults/{id}` replaces it).
    public static func faultRuleExists(_ message: String) -> AdminError {
        AdminError(code: .faultRuleExists, message: message)
    }

    /// A wait or a verification that the mock's graceful shutdown (SIGTERM, `stop()`) ended
    /// before it was over (503).
    public static func shuttingDown(_ message: String) -> AdminError {
        AdminError(code: .shuttingDown, message: message)
    }

    public static func == (lhs: AdminError, rhs: AdminError) -> Bool { lhs.code == rhs.code }

    /// The JSON body.
    var body: [UInt8] {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("error")
        json.beginObject()
        json.key("code")
        json.string(code.rawValue)
        json.key("message")
        json.string(message)
        json.endObject()
        json.endObject()
        return json.bytes
    }
}
