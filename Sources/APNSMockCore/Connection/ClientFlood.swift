/// A kind of excessive load a client put on a connection, which the connection ends with GOAWAY
/// ENHANCE_YOUR_CALM (RFC 9113 §7: "the endpoint detected that its peer is exhibiting a behavior
/// that might be generating excessive load"), saying which in the GOAWAY's debug data.
public enum ClientFlood: Sendable, Equatable, CustomStringConvertible {
    /// Streams opened and reset by the client faster than `StreamResetLimit` allows (rapid
    /// reset, CVE-2023-44487).
    case rapidReset
    /// More CONTINUATION frames after one HEADERS than the server accepts (CVE-2024-27316 and
    /// its kin).
    case continuationFlood
    /// SETTINGS, PING or other frames the server must acknowledge, sent faster than the client
    /// reads the acknowledgements.
    case unreadAcknowledgements

    public var description: String {
        switch self {
        case .rapidReset:
            "too many streams reset by the client (rapid reset, CVE-2023-44487)"
        case .continuationFlood:
            "too many CONTINUATION frames for one header block (CONTINUATION flood)"
        case .unreadAcknowledgements:
            "too many SETTINGS/PING acknowledgements left unread (control frame flood)"
        }
    }
}
