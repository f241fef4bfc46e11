/// Why a connection closed, for the connection log's `closed` event: who closed it (`by`) and
/// why, in words (`description`).
public enum CloseReason: Sendable, Equatable, CustomStringConvertible {
    /// The client closed TLS or TCP.
    case clientClosed
    /// The socket failed (a reset by the peer, a write error).
    case connectionError(String)
    /// The server could not set up TLS or HTTP/2 for the connection.
    case cannotSetUp(String)
    /// The `refuse-tls` mode refused the handshake.
    case refuseTLSMode
    /// A cleartext HTTP/1.x request (an `http://` URL) was told to use TLS.
    case cleartextRequest
    /// Cleartext HTTP/2 (h2c) was told to use TLS.
    case cleartextHTTP2
    case handshakeFailed(String)
    /// The client sent something else than the HTTP/2 client preface after TLS.
    case noClientPreface
    /// The client chose h2 by ALPN and sent a bad preface: GOAWAY PROTOCOL_ERROR.
    case invalidPreface
    /// The HTTP/2 session failed with a connection error (libnghttp2 sent its GOAWAY).
    case http2Error
    /// The HTTP/2 session ended after a GOAWAY, its streams done.
    case sessionEnded
    /// A fault rule's `close`.
    case faultRuleClose
    /// A GOAWAY with an error code (a fault rule's).
    case goAwayWithError(UInt32)
    /// The answer was a GOAWAY carrying its reason (BadCertificateEnvironment).
    case goAwayInsteadOfAnswer(String?)
    /// The client opened more streams than it acknowledged (`stream-limit-goaway`).
    case streamLimitExceeded
    /// The client opened a stream numbered below one it had opened (RFC 9113 §5.1.1).
    case streamIDWentBack(Int32, highest: Int32)
    /// The client put excessive load on the connection: GOAWAY ENHANCE_YOUR_CALM.
    case clientFlooded(ClientFlood)
    /// A graceful end (SIGTERM, the shutdown mode) before the connection spoke HTTP/2.
    case shutdownBeforeHTTP2
    case idleTimeout
    /// TLS and HTTP/2 were not set up within `--handshake-timeout`.
    case handshakeTimeout
    /// `POST /v1/connections/close` (or the library's equivalent).
    case closedByAdmin
    /// The connection was still open when a graceful shutdown's grace ran out.
    case shutdownGraceEnded

    /// `client` or `server`: who closed the connection.
    public var by: String {
        switch self {
        case .clientClosed, .connectionError: "client"
        default: "server"
        }
    }

    public var description: String {
        switch self {
        case .clientClosed: "the client closed the connection"
        case .connectionError(let error): "connection error: \(error)"
        case .cannotSetUp(let error): "cannot set up the connection: \(error)"
        case .refuseTLSMode: "refuse-tls mode"
        case .cleartextRequest: "cleartext request on the TLS port"
        case .cleartextHTTP2: "cleartext HTTP/2 (h2c) on the TLS port"
        case .handshakeFailed(let message): "TLS handshake failed: \(message)"
        case .noClientPreface: "no HTTP/2 client preface"
        case .invalidPreface: "invalid connection preface"
        case .http2Error: "HTTP/2 connection error"
        case .sessionEnded: "HTTP/2 session ended"
        case .faultRuleClose: "a fault rule closed the connection"
        case .goAwayWithError(let code): "GOAWAY \(HTTP2ErrorCode(code)) (a fault rule)"
        case .goAwayInsteadOfAnswer(let reason): "GOAWAY instead of an answer (\(reason ?? "no reason"))"
        case .streamLimitExceeded: "the client opened more streams than it acknowledged (stream-limit-goaway)"
        case .streamIDWentBack(let streamID, let highest):
            "the client opened stream \(streamID) after stream \(highest) (RFC 9113 §5.1.1: PROTOCOL_ERROR)"
        case .clientFlooded(let flood): "\(flood) (GOAWAY ENHANCE_YOUR_CALM)"
        case .shutdownBeforeHTTP2: "shutdown before HTTP/2"
        case .idleTimeout: "idle timeout"
        case .handshakeTimeout: "no TLS handshake and HTTP/2 preface within the handshake timeout"
        case .closedByAdmin: "closed through the admin API"
        case .shutdownGraceEnded: "still open when the shutdown grace ran out"
        }
    }
}
