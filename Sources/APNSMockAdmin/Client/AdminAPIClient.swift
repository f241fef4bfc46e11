import APNSMockCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// A client of a running apns-mock's admin API (plain HTTP/1.1 over SwiftNIO, one connection
/// per call): every call names its operation of the document (`AdminOperation`), so no caller
/// writes a path.
///
/// Matcher filters are free-form query parameters (`payload.aps.alert.title=Hi`), so a call
/// takes its query as name/value pairs, percent-encoded here (`PercentEncoding`). An answer of
/// any status is an answer; only a call without one throws `AdminAPIClientError`.
public struct AdminAPIClient: Sendable {
    /// The admin API's host (a name or an address; IPv6 without brackets).
    public let host: String
    /// The admin API's port.
    public let port: Int
    /// The bearer token sent as `authorization`, when the server requires one.
    public let token: String?
    private let group: any EventLoopGroup

    /// A client of the admin API at `url` (`http://HOST[:PORT]`, a trailing path ignored);
    /// `nil` when `url` is not such a URL.
    public init?(url: String, token: String? = nil, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        guard let (host, port) = Self.hostAndPort(url) else { return nil }
        self.host = host
        self.port = port
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        self.group = group
    }

    /// Sends one call of `operation` and reads its whole answer.
    /// - Parameters:
    ///   - pathParameters: the values of the path's `{name}` parameters (percent-encoded here).
    ///   - query: the query's parameters in order, unencoded.
    ///   - body: a JSON body (sent with `content-type: application/json`).
    ///   - timeout: bounds connecting and the whole answer.
    /// - Returns: the answer, whatever its status; a failed future with an
    ///   `AdminAPIClientError` when there is none.
    public func send(
        _ operation: AdminOperation, pathParameters: [String: String] = [:], query: [(String, String)] = [],
        body: [UInt8]? = nil, timeout: TimeAmount = .seconds(30)
    ) -> EventLoopFuture<AdminAPIResponse> {
        let loop = group.next()
        let target: String
        do {
            target = try Self.target(operation, pathParameters: pathParameters, query: query)
        } catch {
            return loop.makeFailedFuture(error)
        }
        var headers = HTTPHeaders()
        headers.add(name: "host", value: host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)")
        headers.add(name: "connection", value: "close")
        headers.add(name: "content-length", value: String(body?.count ?? 0))
        if let token { headers.add(name: "authorization", value: "Bearer \(token)") }
        if body != nil { headers.add(name: "content-type", value: "application/json") }
        let head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: operation.method), uri: target, headers: headers)
        let promise = loop.makePromise(of: AdminAPIResponse.self)
        let bytes = body ?? []
        let host = host
        ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        AdminAPIResponseReader(request: head, body: bytes, timeout: timeout, promise: promise))
                }
            }
            .connect(host: host, port: port)
            .whenFailure { error in promise.fail(AdminAPIClientError.unreachable(from: error, host: host)) }
        return promise.futureResult
    }

    /// Sends one call of `operation` and reads its whole answer (see the future-returning
    /// `send`).
    /// - Throws: `AdminAPIClientError` when there is no answer.
    public func response(
        _ operation: AdminOperation, pathParameters: [String: String] = [:], query: [(String, String)] = [],
        body: [UInt8]? = nil, timeout: TimeAmount = .seconds(30)
    ) async throws -> AdminAPIResponse {
        try await send(operation, pathParameters: pathParameters, query: query, body: body, timeout: timeout).get()
    }

    /// The request target of a call: the operation's path with its parameters filled in and
    /// percent-encoded, then `?` and the query when there is one.
    /// - Throws: `AdminAPIClientError.missingPathParameter` for a path parameter not given.
    public static func target(
        _ operation: AdminOperation, pathParameters: [String: String] = [:], query: [(String, String)] = []
    ) throws(AdminAPIClientError) -> String {
        var path = ""
        var rest = Substring(operation.path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            path += rest[..<open]
            let name = String(rest[rest.index(after: open)..<close])
            guard let value = pathParameters[name] else { throw .missingPathParameter(operation, name) }
            path += PercentEncoding.encoded(value)
            rest = rest[rest.index(after: close)...]
        }
        path += rest
        let pairs = query.map { (name: $0.0, value: $0.1) }
        return pairs.isEmpty ? path : path + "?" + PercentEncoding.query(pairs)
    }

    /// Host and port of `http://HOST[:PORT][/…]` (port 80 when none; `[v6]` for an IPv6 host).
    static func hostAndPort(_ url: String) -> (String, Int)? {
        guard url.hasPrefix("http://") else { return nil }
        var authority = url.dropFirst("http://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { return nil }
        var port = 80
        if let portText, !portText.isEmpty {
            guard portText.allSatisfy(\.isASCII), let number = Int(portText), (0...65535).contains(number) else {
                return nil
            }
            port = number
        }
        return (String(host), port)
    }
}
