import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an `AdminAPIClient` call got no answer, in words (`description`): the admin API could
/// not be reached, did not answer in time, or answered with bytes that are not HTTP.
public enum AdminAPIClientError: Error, Sendable, CustomStringConvertible, Equatable {
    /// No connection: the words say why (`connection refused`, `cannot resolve HOST`).
    case unreachable(String)
    /// The whole answer did not come within this many seconds.
    case timedOut(seconds: Int64)
    /// The connection closed before a whole answer came.
    case closedEarly(gotHead: Bool)
    /// The answer is not HTTP/1.1 as the client reads it (a bad chunk size, a broken status
    /// line, …): the words say what is wrong.
    case malformedAnswer(String)
    /// The operation's path names a parameter the call did not give.
    case missingPathParameter(AdminOperation, String)

    public var description: String {
        switch self {
        case .unreachable(let words): words
        case .timedOut(let seconds): "no complete answer within \(seconds) s"
        case .closedEarly(let gotHead):
            gotHead
                ? "the connection closed before the answer's body ended"
                : "the connection closed before an answer came"
        case .malformedAnswer(let words): "the answer is not valid HTTP: \(words)"
        case .missingPathParameter(let operation, let name):
            "\(operation.rawValue) needs the path parameter '\(name)' (\(operation.path))"
        }
    }

    /// A connection failure in words, as the system says it (`connection refused`).
    static func unreachable(from error: any Error, host: String) -> AdminAPIClientError {
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .unreachable("cannot resolve \(host)")
            }
            if let first = error.connectionErrors.first {
                return unreachable(from: first.error, host: host)
            }
            return .unreachable("cannot resolve \(host)")
        }
        if let error = error as? IOError {
            return .unreachable(String(cString: strerror(error.errnoCode)).lowercased())
        }
        if let error = error as? ChannelError, case .connectTimeout(let amount) = error {
            return .unreachable("no connection within \(amount.nanoseconds / 1_000_000_000) s")
        }
        if error is SocketAddressError { return .unreachable("cannot resolve \(host)") }
        return .unreachable("\(error)")
    }

    /// An error of the HTTP decoder in words.
    static func malformed(from error: any Error) -> AdminAPIClientError {
        guard let error = error as? HTTPParserError else { return .malformedAnswer("\(error)") }
        switch error {
        case .invalidChunkSize: return .malformedAnswer("a chunk's size is not a hexadecimal number")
        case .invalidEOFState, .closedConnection:
            return .malformedAnswer("the connection closed before the answer ended")
        case .invalidStatus, .invalidVersion: return .malformedAnswer("the status line is not HTTP/1.1's")
        case .invalidContentLength, .unexpectedContentLength:
            return .malformedAnswer("its content-length is not a length")
        case .headerOverflow: return .malformedAnswer("its header is too long")
        case .lfExpected, .invalidCharactersUsed, .invalidHeaderToken, .invalidConstant:
            return .malformedAnswer("a line of its head or of its chunks is broken")
        default: return .malformedAnswer("\(error)")
        }
    }
}
