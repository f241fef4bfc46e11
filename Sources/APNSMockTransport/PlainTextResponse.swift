import APNSMockCore

/// A short HTTP/1.1 answer in words for a client that will not be served: `text/plain`,
/// `Content-Length` and `Connection: close`; the connection closes after it.
public struct PlainTextResponse: Sendable {
    let status: Int
    let reasonPhrase: String
    /// The body, one or two sentences ending in a newline.
    let text: String

    /// Status line, headers and body.
    var bytes: [UInt8] {
        Array(
            ("HTTP/1.1 \(status) \(reasonPhrase)\r\ncontent-type: text/plain; charset=utf-8\r\n"
                + "content-length: \(text.utf8.count)\r\nconnection: close\r\n\r\n" + text).utf8)
    }

    /// For a client that completed TLS without ALPN and then spoke HTTP/1.x.
    static let http2Only = PlainTextResponse(
        status: 505, reasonPhrase: "HTTP Version Not Supported",
        text:
            "apns-mock: APNs speaks HTTP/2 only. Connect with an HTTP/2 client (ALPN h2 or HTTP/2 prior knowledge).\n")

    /// For a client that sent cleartext (`http://`) to a TLS port of `service`: which port it
    /// reached, to use `https://` there, and that the admin API is the plain-HTTP one (a CLI or
    /// client library given this port as its admin URL says so from these words).
    static func tlsRequired(on service: APNSService) -> PlainTextResponse {
        let port =
            switch service {
            case .push: "an APNs port (HTTP/2 over TLS, like APNs)"
            case .channelManagement: "the channel-management port (HTTP/2 over TLS, like Apple's)"
            case .webPush: "the Web Push port (HTTP/1.1 or HTTP/2 over TLS, like Apple's)"
            }
        return PlainTextResponse(
            status: 400, reasonPhrase: "Bad Request",
            text:
                "apns-mock: this port speaks TLS: it is \(port), not plain HTTP, and not the admin API. "
                + "Use https:// instead of http:// (curl: --cacert certs/ca.pem to trust the mock's certificate); "
                + "the admin API is plain HTTP on its own port (2198 unless --admin-port moved it).\n")
    }

    /// The words every `tlsRequired` answer starts with: a client given a TLS port as the
    /// admin API's URL recognises the answer by them.
    public static let tlsRequiredPrefix = "apns-mock: this port speaks TLS: it is "
}
