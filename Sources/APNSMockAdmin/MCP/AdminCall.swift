import APNSMockCore

/// One call of the admin API, as an MCP tool makes it: a method, a path, query parameters and
/// a JSON body. Tools speak only the documented routes, so each tool is one of these.
struct AdminCall: Sendable, Equatable {
    enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    var method: Method
    /// The path, its parameters already percent-encoded (`/v1/faults/outage`).
    var path: String
    var query: [Query] = []
    var body: JSONValue?

    /// One query parameter, unencoded.
    struct Query: Sendable, Equatable {
        var name: String
        var value: String
    }

    init(_ method: Method, _ path: String, query: [Query] = [], body: JSONValue? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
    }

    /// A call of a method the document names (`"GET"`, …).
    init(method: String, path: String, query: [Query] = [], body: JSONValue? = nil) {
        guard let method = Method(rawValue: method) else {
            preconditionFailure("an MCP tool calls \(method) \(path), a method it does not make")
        }
        self.init(method, path, query: query, body: body)
    }

    /// The path and query string as sent (`/v1/deliveries?status=410&payload.aps.badge=3`).
    var target: String {
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    /// A path segment or query component, percent-encoded by the project's one encoder
    /// (`PercentEncoding`: everything but RFC 3986's unreserved characters).
    static func encode(_ text: String) -> String { PercentEncoding.encoded(text) }
}

/// What the admin API answered to an `AdminCall`.
struct AdminCallResult: Sendable, Equatable {
    var status: Int
    var body: [UInt8]

    /// The body as JSON, when it is JSON.
    var json: JSONValue? { JSONValue.parse(body) }

    /// The admin API's error message (`{"error":{"message":…}}`), for a failed call.
    var errorMessage: String? { json?["error"]?["message"]?.scalarText }
}
