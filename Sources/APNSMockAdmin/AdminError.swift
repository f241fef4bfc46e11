import APNSMockCore

/// An admin API error: `{"error":{"code":"…","message":"…"}}` with a stable code.
public struct AdminError: Error, Sendable, Equatable {
    private enum Code: String, Sendable {
        case badParameter, notFound, badRequest, unauthorized, methodNotAllowed
    }
    private let code: Code
    /// A sentence naming the offending field or parameter.
    public let message: String
    /// The HTTP status for this error.
    public var status: Int {
        switch code {
        case .badParameter, .badRequest: 400
        case .unauthorized: 401
        case .notFound: 404
        case .methodNotAllowed: 405
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
    /// A path the API has, with a method it does not take (405; the answer names the methods in `Allow`).
    public static func methodNotAllowed(_ message: String) -> AdminError {
        AdminError(code: .methodNotAllowed, message: message)
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
