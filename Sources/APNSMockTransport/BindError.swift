import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening socket that could not be opened, in plain words: which listener, which address,
/// and why (the port is taken, it needs privileges, the address is not this machine's).
///
/// `description` is one line without library internals, for the command line and for
/// embedders; `reason` lets a caller add its own hint (the flag that sets the port).
public struct BindError: Error, CustomStringConvertible, Sendable {
    /// What the listener serves.
    public enum Listener: String, Sendable {
        case apns = "APNs"
        case admin
        /// Channel management (`--channels-port`).
        case channels = "channel management"
        /// Web Push (`--webpush-port`).
        case webPush = "Web Push"
    }

    /// Why the address could not be bound.
    public enum Reason: Sendable, Equatable {
        /// Another socket (often another apns-mock) listens there.
        case addressInUse
        /// A port below 1024 without the privilege to bind it.
        case permissionDenied
        /// The host is not an address of this machine.
        case addressNotAvailable
        /// The host name does not resolve.
        case unknownHost
        /// Anything else, in words.
        case other(String)
    }

    public let listener: Listener
    public let host: String
    public let port: Int
    public let reason: Reason

    public init(listener: Listener, host: String, port: Int, reason: Reason) {
        self.listener = listener
        self.host = host
        self.port = port
        self.reason = reason
    }

    /// Classifies what NIO threw while binding `host:port`.
    public init(listener: Listener, host: String, port: Int, error: any Error) {
        self.init(listener: listener, host: host, port: port, reason: Self.reason(for: error))
    }

    /// `127.0.0.1:2197`, `[::1]:2197`.
    public var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `admin port 127.0.0.1:2198 is already in use`, `cannot listen on APNs port …: why`.
    public var description: String {
        let what = "\(listener.rawValue) port \(address)"
        switch reason {
        case .addressInUse:
            return "\(what) is already in use"
        case .permissionDenied:
            return "cannot listen on \(what): permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE)"
        case .addressNotAvailable:
            return "cannot listen on \(what): '\(host)' is not an address of this machine"
        case .unknownHost:
            return "cannot listen on \(what): the host name '\(host)' does not resolve"
        case .other(let words):
            return "cannot listen on \(what): \(words)"
        }
    }

    /// The reason behind a bind failure NIO reported.
    static func reason(for error: any Error) -> Reason {
        if let error = error as? IOError {
            switch error.errnoCode {
            case EADDRINUSE: return .addressInUse
            case EACCES, EPERM: return .permissionDenied
            case EADDRNOTAVAIL: return .addressNotAvailable
            default: return .other(String(cString: strerror(error.errnoCode)).lowercased())
            }
        }
        if error is SocketAddressError.UnknownHost { return .unknownHost }
        return .other("\(error)")
    }

    /// Whether `error` is one NIO throws for an address it cannot bind (a socket call that
    /// failed, a host that does not resolve), rather than a failure of a running server.
    public static func isBindFailure(_ error: any Error) -> Bool {
        error is IOError || error is SocketAddressError || error is SocketAddressError.UnknownHost
    }

    /// Whether the host, not the port, is what cannot be bound.
    public var isHostProblem: Bool { reason == .addressNotAvailable || reason == .unknownHost }
}
