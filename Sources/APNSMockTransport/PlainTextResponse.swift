/// A short HTTP/1.1 answer in words for a client that will not be served: `text/plain`,
/// `Content-Length` and `Connection: close`; the connection closes after it.
struct PlainTextResponse {
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

    /// For a client that sent cleartext (`http://`) to the TLS port.
    static let tlsRequired = PlainTextResponse(
        status: 400, reasonPhrase: "Bad Request",
        text:
            "apns-mock: this port speaks TLS (HTTP/2 over TLS, like APNs), not plain HTTP. "
            + "Use https:// instead of http:// (curl: --cacert certs/ca.pem to trust the mock's certificate).\n")
}
