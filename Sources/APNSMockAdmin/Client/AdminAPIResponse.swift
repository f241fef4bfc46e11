/// What the admin API answered to one `AdminAPIClient` call: its status, headers and whole body
/// (chunked bodies decoded).
public struct AdminAPIResponse: Sendable {
    /// The HTTP status (200, 404, …).
    public var status: Int
    /// The header fields as sent, names as written by the server.
    public var headers: [(name: String, value: String)]
    /// The body's bytes.
    public var body: [UInt8]

    /// An answer.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
