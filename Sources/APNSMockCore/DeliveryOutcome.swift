/// What became of a request: answered, still waiting, or never answered and why.
///
/// Records of streams that never got an answer (a hang, a reset, a connection that ended) say
/// so here; their `response` stays `nil`.
public enum DeliveryOutcome: String, Sendable, Hashable, CaseIterable {
    /// The answer has not gone out yet (a delay is running).
    case pending
    /// A fault rule holds the stream and will never answer it.
    case hung
    /// An HTTP/2 response went out.
    case answered
    /// The connection was ended with GOAWAY instead of an answer on the stream.
    case goAway
    /// The mock reset the stream (RST_STREAM) instead of answering.
    case reset
    /// The client reset the stream before its answer went out.
    case cancelled
    /// The connection closed before the answer went out.
    case connectionClosed

    /// The code in a stored record.
    public var code: UInt8 {
        switch self {
        case .pending: 0
        case .hung: 1
        case .answered: 2
        case .goAway: 3
        case .reset: 4
        case .cancelled: 5
        case .connectionClosed: 6
        }
    }

    /// The outcome of a stored `code`.
    public init(code: UInt8) {
        switch code {
        case 1: self = .hung
        case 2: self = .answered
        case 3: self = .goAway
        case 4: self = .reset
        case 5: self = .cancelled
        case 6: self = .connectionClosed
        default: self = .pending
        }
    }

    /// Whether the stream is still waiting (pending or hung): it may still end another way.
    public var isOpen: Bool { self == .pending || self == .hung }
}
