/// An HTTP/1.1 answer as bytes: status line, header fields, `Content-Length`, and body.
public struct HTTP1Response: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields other than `content-length` and `connection`, which `bytes` writes.
    public var headers: [HTTPHeaderField]
    /// The body.
    public var body: [UInt8]
    /// Whether the connection stays open: when not, `Connection: close` is sent (RFC 9112 §9.6).
    public var keepAlive: Bool

    public init(status: Int, headers: [HTTPHeaderField] = [], body: [UInt8] = [], keepAlive: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.keepAlive = keepAlive
    }

    /// The answer on the wire.
    public var bytes: [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for header in headers { text += "\(header.name): \(header.value)\r\n" }
        text += "content-length: \(body.count)\r\n"
        if !keepAlive { text += "connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8) + body
    }

    /// `HTTP/1.1 100 Continue`, sent before a body whose request asked for it.
    public static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The reason phrase of `status` (RFC 9110 §15); clients ignore it (RFC 9112 §4).
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
