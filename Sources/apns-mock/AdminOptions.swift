import APNSMock
import APNSMockAdmin
import APNSMockCore
import APNSMockTransport
import ArgumentParser
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The options every admin command takes (`--admin`, `--admin-token`, `--json`) and the one way
/// they call the admin API (`AdminAPIClient`, each call naming its operation of the document): a
/// usage error, an unreachable server, an answer that is not HTTP or a refused token is exit 2
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

    /// The bearer token: `--admin-token`, else `$APNS_MOCK_ADMIN_TOKEN`; none when empty.
    var token: String? {
        (adminToken ?? ProcessInfo.processInfo.environment[ServeCommand.adminTokenVariable])
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The client of the admin API at `base`, or the command fails (exit 2) for a `--admin` that
    /// is not an `http://` URL.
    func client(_ command: String) -> AdminAPIClient {
        guard let client = AdminAPIClient(url: base, token: token) else {
            fail(2, Self.notAnAdminURL(command, base))
        }
        return client
    }

    /// Why `base` is not the admin API's URL: an `https://` URL names an APNs or channel-management
    /// port (the TLS ones); anything else is not a URL.
    static func notAnAdminURL(_ command: String, _ base: String) -> String {
        if base.lowercased().hasPrefix("https://") {
            return "apns-mock \(command): --admin must be the admin API's plain-HTTP URL, such as \(defaultURL); "
                + "got '\(base)': https:// is how the APNs and channel-management ports are reached, not the admin API"
        }
        return "apns-mock \(command): --admin must be a URL such as \(defaultURL); got '\(base)'"
    }

    /// The failure for an answer that came from a TLS port of apns-mock (the APNs or the
    /// channel-management port) rather than the admin API; nil for any other answer.
    static func tlsPortAnswer(_ command: String, base: String, _ response: AdminAPIResponse) -> String? {
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 400, text.hasPrefix(PlainTextResponse.tlsRequiredPrefix) else { return nil }
        let port = text.dropFirst(PlainTextResponse.tlsRequiredPrefix.count).prefix { $0 != "," && $0 != "(" }
        return "apns-mock \(command): \(base) is \(port.trimmingWhitespace(newlines: false)), not the admin API: "
            + "give --admin (or APNS_MOCK_ADMIN_URL) the admin port, such as \(defaultURL); "
            + "serve's ready line names it (admin=…)"
    }

    /// Sends one call of `operation`; returns the answer whatever its status, except 401
    /// (exit 2). No answer (unreachable, no whole answer within `timeout` seconds, bytes that
    /// are not HTTP) is exit 2 too.
    func send(
        _ command: String, _ operation: AdminOperation, path: [String: String] = [:], query: [(String, String)] = [],
        body: [UInt8]? = nil, timeout: Int = 30
    ) -> AdminAPIResponse {
        let client = client(command)
        let response: AdminAPIResponse
        do {
            response = try client.send(
                operation, pathParameters: path, query: query, body: body, timeout: .seconds(Int64(timeout))
            ).wait()
        } catch let error as AdminAPIClientError {
            fail(2, Self.noAnswer(command, base: base, error))
        } catch {
            fail(2, "apns-mock \(command): cannot reach the admin API at \(base): \(error)")
        }
        if let problem = Self.tlsPortAnswer(command, base: base, response) { fail(2, problem) }
        if response.status == 401 {
            fail(
                2,
                "apns-mock \(command): the admin API at \(base) requires a token it did not get or that does not match: pass --admin-token (or set APNS_MOCK_ADMIN_TOKEN) as given to serve"
            )
        }
        return response
    }

    /// Sends one call and expects one of `statuses`: any other answer fails the command with
    /// the admin API's message, exit 2 for a 400 (bad input) and 1 otherwise.
    func call(
        _ command: String, _ operation: AdminOperation, path: [String: String] = [:], query: [(String, String)] = [],
        body: [UInt8]? = nil, expecting statuses: Set<Int> = [200]
    ) -> AdminAPIResponse {
        let response = send(command, operation, path: path, query: query, body: body)
        guard statuses.contains(response.status) else {
            fail(response.status == 400 ? 2 : 1, "apns-mock \(command): \(Self.message(response))")
        }
        return response
    }

    /// What a command says when a call got no answer: `cannot reach …` when there was no
    /// connection or no whole answer in time, `no usable answer …` when the bytes were not HTTP.
    static func noAnswer(_ command: String, base: String, _ error: AdminAPIClientError) -> String {
        switch error {
        case .unreachable, .timedOut, .missingPathParameter:
            "apns-mock \(command): cannot reach the admin API at \(base): \(error)"
        case .closedEarly, .malformedAnswer:
            "apns-mock \(command): no usable answer from the admin API at \(base): \(error)"
        }
    }

    /// `GET` of one delivery's resource for a command (`explain`, `export`): the body of a 200,
    /// or the command fails with the admin API's message: exit 1 for an answer that is not 200
    /// (no such delivery), 2 for a bad apns-id or `--admin`, an unreachable API or a 401.
    static func deliveryResource(
        command: String, apnsID: String, operation: AdminOperation, query: [(String, String)] = [], admin: String?,
        token: String?
    ) -> [UInt8] {
        guard APNSMessageID.isValid(apnsID) else {
            fail(2, "apns-mock \(command): the apns-id must be a UUID (8-4-4-4-12 hex digits); got '\(apnsID)'")
        }
        var options = AdminOptions()
        options.admin = admin
        options.adminToken = token
        // An unreachable API, a bad --admin or a 401: exit 2 (in send); any other answer than 200: exit 1.
        let response = options.send(command, operation, path: ["apnsId": apnsID], query: query)
        guard response.status == 200 else { fail(1, "apns-mock \(command): \(Self.message(response))") }
        return response.body
    }

    /// The admin API's error message (`{"error": {"message": …}}`), or the body as text.
    static func message(_ response: AdminAPIResponse) -> String {
        let message =
            JSONValue.parse(response.body)?["error"]?["message"]?.scalarText
            ?? String(decoding: response.body, as: UTF8.self)
        return "\(message) (HTTP \(response.status))"
    }

    /// Prints the answer's JSON as it came (for `--json`).
    static func printJSON(_ response: AdminAPIResponse) {
        DescriptorOutput.standardOutput(response.body + [UInt8(ascii: "\n")])
    }

    /// `FIELD=VALUE` arguments as query parameters (`extra` first), the syntax of
    /// `GET /v1/deliveries`; exit 2 for an argument without `=`. The client percent-encodes them.
    static func query(_ command: String, _ filters: [String], extra: [(String, String)] = []) -> [(String, String)] {
        var parameters = extra
        for filter in filters {
            guard let equals = filter.firstIndex(of: "="), equals != filter.startIndex else {
                fail(2, "apns-mock \(command): a filter is FIELD=VALUE (e.g. status=410, token=…); got '\(filter)'")
            }
            parameters.append((String(filter[..<equals]), String(filter[filter.index(after: equals)...])))
        }
        return parameters
    }
}
