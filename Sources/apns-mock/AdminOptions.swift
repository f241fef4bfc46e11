import APNSMockCore
import ArgumentParser
import Foundation

/// The options every admin command takes (`--admin`, `--admin-token`, `--json`) and the one way
/// they call the admin API: a usage error, an unreachable server or a refused token is exit 2
/// with one line on stderr; an answer the command did not want is exit 1 with the API's message.
struct AdminOptions: ParsableArguments {
    /// The admin port `apns-mock serve` listens on by default.
    static let defaultURL = "http://127.0.0.1:2198"
    /// The variable that names the admin URL when `--admin` is not given.
    static let urlVariable = "APNS_MOCK_ADMIN_URL"

    @Option(
        help: ArgumentHelp(
            "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).", valueName: "url"))
    var admin: String?
    @Option(
        help: ArgumentHelp(
            "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).",
            valueName: "token"))
    var adminToken: String?
    @Flag(help: "Print the admin API's JSON instead of text.") var json = false

    /// The admin URL (`--admin`, `$APNS_MOCK_ADMIN_URL` or the default) without a trailing slash.
    var base: String {
        let url =
            admin ?? ProcessInfo.processInfo.environment[Self.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.defaultURL
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// Sends one request; returns the answer whatever its status, except 401 (exit 2).
    func send(
        _ command: String, _ method: String, _ path: String, body: [UInt8] = [], timeout: Int = 30
    ) -> AdminClient.Response {
        guard let client = AdminClient(url: base) else {
            fail(2, "apns-mock \(command): --admin must be a URL such as \(Self.defaultURL); got '\(base)'")
        }
        var headers = AdminClient.authorization(token: adminToken)
        if !body.isEmpty { headers.append(("content-type", "application/json")) }
        let response: AdminClient.Response
        do {
            response = try client.send(method: method, path: path, headers: headers, body: body, timeout: timeout)
        } catch {
            fail(2, "apns-mock \(command): cannot reach the admin API at \(base): \(error)")
        }
        if response.status == 401 {
            fail(
                2,
                "apns-mock \(command): the admin API at \(base) requires a token it did not get or that does not match: pass --admin-token (or set APNS_MOCK_ADMIN_TOKEN) as given to serve"
            )
        }
        return response
    }

    /// Sends one request and expects one of `statuses`: any other answer fails the command with
    /// the admin API's message, exit 2 for a 400 (bad input) and 1 otherwise.
    func call(
        _ command: String, _ method: String, _ path: String, body: [UInt8] = [], expecting statuses: Set<Int> = [200]
    ) -> AdminClient.Response {
        let response = send(command, method, path, body: body)
        guard statuses.contains(response.status) else {
            fail(response.status == 400 ? 2 : 1, "apns-mock \(command): \(Self.message(response))")
        }
        return response
    }

    /// The admin API's error message (`{"error": {"message": …}}`), or the body as text.
    static func message(_ response: AdminClient.Response) -> String {
        let message =
            JSONValue.parse(response.body)?["error"]?["message"]?.scalarText
            ?? String(decoding: response.body, as: UTF8.self)
        return "\(message) (HTTP \(response.status))"
    }

    /// Prints the answer's JSON as it came (for `--json`).
    static func printJSON(_ response: AdminClient.Response) {
        FileHandle.standardOutput.write(Data(response.body + [UInt8(ascii: "\n")]))
    }

    /// `FIELD=VALUE` arguments as a query string (each part percent-encoded), the syntax of
    /// `GET /v1/deliveries`; exit 2 for an argument without `=`.
    static func query(_ command: String, _ filters: [String], extra: [(String, String)] = []) -> String {
        var parts: [String] = []
        for (name, value) in extra { parts.append("\(encode(name))=\(encode(value))") }
        for filter in filters {
            guard let equals = filter.firstIndex(of: "="), equals != filter.startIndex else {
                fail(2, "apns-mock \(command): a filter is FIELD=VALUE (e.g. status=410, token=…); got '\(filter)'")
            }
            parts.append(
                "\(encode(String(filter[..<equals])))=\(encode(String(filter[filter.index(after: equals)...])))")
        }
        return parts.isEmpty ? "" : "?" + parts.joined(separator: "&")
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
