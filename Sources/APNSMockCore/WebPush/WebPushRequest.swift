/// A request to the Web Push listener as the rules see it: method, path, headers in order (names
/// in any letter case, repeats kept), and the body.
public struct WebPushRequest: Sendable {
    /// The method (`POST`).
    public var method: String
    /// The path, such as `/<subscription id>`.
    public var path: String
    /// The headers in the order received; names compare case-insensitively.
    public var headers: [HTTPHeaderField]
    /// The body's bytes, as far as the transport kept them (it may stop after the size limit).
    public var body: [UInt8]
    /// The body's full size in bytes, at least `body.count`: what arrived or what
    /// `Content-Length` announced when the transport stopped reading.
    public var bodyLength: Int

    /// A request whose body is `body`, or `bodyLength` bytes of which `body` is the start.
    public init(method: String, path: String, headers: [HTTPHeaderField], body: [UInt8] = [], bodyLength: Int? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
        self.bodyLength = max(bodyLength ?? body.count, body.count)
    }

    /// The values of the header `name` (any letter case), in order.
    public func values(of name: String) -> [String] {
        headers.filter { $0.name.utf8.count == name.utf8.count && $0.name.lowercased() == name.lowercased() }
            .map(\.value)
    }
}
