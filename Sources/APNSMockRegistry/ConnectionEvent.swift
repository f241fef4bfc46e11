import APNSMockCore

/// One thing that happened on an APNs connection, with its data: what the connection log keeps,
/// what `GET /v1/connections` shows (`kind` and `details`, in that order) and what the provider
/// report reads (by case, never by matching strings).
public enum ConnectionEvent: Sendable, Equatable {
    /// Who sent a frame or closed the connection.
    public enum Side: String, Sendable, Equatable {
        case client, server
    }

    /// The TLS handshake's outcome.
    public struct Handshake: Sendable, Equatable {
        public var tlsVersion: String
        public var alpn: String?
        public var serverName: String?
        /// The client certificate's subject and whether it chains to the client CA, if one was presented.
        public var clientCertificate: (subject: String, trusted: Bool)?

        public init(
            tlsVersion: String, alpn: String?, serverName: String?, clientCertificate: (subject: String, trusted: Bool)?
        ) {
            self.tlsVersion = tlsVersion
            self.alpn = alpn
            self.serverName = serverName
            self.clientCertificate = clientCertificate
        }

        public static func == (a: Handshake, b: Handshake) -> Bool {
            a.tlsVersion == b.tlsVersion && a.alpn == b.alpn && a.serverName == b.serverName
                && a.clientCertificate?.subject == b.clientCertificate?.subject
                && a.clientCertificate?.trusted == b.clientCertificate?.trusted
        }
    }

    /// The SETTINGS the server sent (the first ones in full; later ones change the stream limit).
    public struct Settings: Sendable, Equatable {
        public var maxConcurrentStreams: UInt32
        public var headerTableSize: UInt32?
        public var initialWindowSize: UInt32?
        public var maxFrameSize: UInt32?
        public var maxHeaderListSize: UInt32?

        public init(
            maxConcurrentStreams: UInt32, headerTableSize: UInt32? = nil, initialWindowSize: UInt32? = nil,
            maxFrameSize: UInt32? = nil, maxHeaderListSize: UInt32? = nil
        ) {
            self.maxConcurrentStreams = maxConcurrentStreams
            self.headerTableSize = headerTableSize
            self.initialWindowSize = initialWindowSize
            self.maxFrameSize = maxFrameSize
            self.maxHeaderListSize = maxHeaderListSize
        }
    }

    case opened
    case handshake(Handshake)
    /// `alpnRefused`: `nil` when the handshake never ran (the refuse-tls mode).
    case handshakeFailed(error: String, alpnRefused: Bool?)
    case settingsSent(Settings)
    case goAway(sentBy: Side, errorCode: HTTP2ErrorCode, lastStreamID: Int32, debug: String)
    case streamReset(by: Side, streamID: Int32, errorCode: HTTP2ErrorCode)
    case closed(by: String, reason: String)

    /// The event's `kind` in JSON.
    public var kind: String {
        switch self {
        case .opened: "opened"
        case .handshake: "handshake"
        case .handshakeFailed: "handshakeFailed"
        case .settingsSent: "settingsSent"
        case .goAway(let side, _, _, _): side == .server ? "goawaySent" : "goawayReceived"
        case .streamReset: "streamReset"
        case .closed: "closed"
        }
    }

    /// The event's fields after `at` and `kind` in JSON, in order.
    public var details: [(key: String, value: JSONValue)] {
        switch self {
        case .opened:
            return []
        case .handshake(let handshake):
            var details: [(key: String, value: JSONValue)] = [
                ("tlsVersion", .string(handshake.tlsVersion)), ("alpn", handshake.alpn.map { .string($0) } ?? .null),
                ("serverName", handshake.serverName.map { .string($0) } ?? .null),
            ]
            if let certificate = handshake.clientCertificate {
                details.append(("clientCertificate", .string(certificate.subject)))
                details.append(("clientCertificateTrusted", .bool(certificate.trusted)))
            }
            return details
        case .handshakeFailed(let error, let alpnRefused):
            var details: [(key: String, value: JSONValue)] = [("error", .string(error))]
            if let alpnRefused { details.append(("alpnRefused", .bool(alpnRefused))) }
            return details
        case .settingsSent(let settings):
            var details: [(key: String, value: JSONValue)] = [
                ("maxConcurrentStreams", .integer(Int64(settings.maxConcurrentStreams)))
            ]
            for (key, value) in [
                ("headerTableSize", settings.headerTableSize), ("initialWindowSize", settings.initialWindowSize),
                ("maxFrameSize", settings.maxFrameSize), ("maxHeaderListSize", settings.maxHeaderListSize),
            ] {
                if let value { details.append((key, .integer(Int64(value)))) }
            }
            return details
        case .goAway(_, let errorCode, let lastStreamID, let debug):
            return [
                ("errorCode", .string(errorCode.description)), ("lastStreamId", .integer(Int64(lastStreamID))),
                ("debug", .string(debug)),
            ]
        case .streamReset(let side, let streamID, let errorCode):
            return [
                ("by", .string(side.rawValue)), ("streamId", .integer(Int64(streamID))),
                ("errorCode", .string(errorCode.description)),
            ]
        case .closed(let by, let reason):
            return [("by", .string(by)), ("reason", .string(reason))]
        }
    }
}
