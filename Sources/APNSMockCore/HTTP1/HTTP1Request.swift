/// One HTTP/1.x request as `HTTP1RequestParser` read it: the request line, the header fields in
/// the order sent, and the body (de-chunked), kept up to the parser's `keptBodyLimit`.
public struct HTTP1Request: Sendable, Equatable {
    /// The method, as sent (`POST`).
    public var method: String
    /// The request target, as sent (`/push/abc`, or an absolute URL).
    public var target: String
    /// The minor version: 1 for HTTP/1.1, 0 for HTTP/1.0.
    public var minorVersion: Int
    /// The header fields, names lower-cased, values without surrounding whitespace.
    public var headers: [HTTPHeaderField]
    /// The body's first `keptBodyLimit` bytes.
    public var body: [UInt8]
    /// How long the body was, kept or not.
    public var bodyLength: Int
    /// Whether the connection stays open after the answer (RFC 9112 §9.3: HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool

    public init(
        method: String, target: String, minorVersion: Int = 1, headers: [HTTPHeaderField], body: [UInt8] = [],
        bodyLength: Int? = nil, keepAlive: Bool = true
    ) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
        self.bodyLength = bodyLength ?? body.count
        self.keepAlive = keepAlive
    }

    /// The values of the header fields called `name` (lower case), in the order sent.
    public func values(of name: String) -> [String] {
        headers.lazy.filter { $0.name == name }.map(\.value)
    }

    /// The path of `target`: the target itself in origin form (`/a?b`), the part after the
    /// authority in absolute form (`https://host/a?b`, RFC 9112 §3.2.2).
    public var path: String {
        guard !target.hasPrefix("/"), let schemeEnd = target.firstRange(of: "://") else { return target }
        let afterAuthority = target[schemeEnd.upperBound...].drop(while: { $0 != "/" && $0 != "?" })
        if afterAuthority.isEmpty { return "/" }
        return afterAuthority.hasPrefix("/") ? String(afterAuthority) : "/" + afterAuthority
    }
}
