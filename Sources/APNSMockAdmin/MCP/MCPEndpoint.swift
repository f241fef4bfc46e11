import APNSMockCore
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// `POST /mcp`: the Model Context Protocol over Streamable HTTP (each POST one JSON-RPC message
/// or batch, answered with `application/json`; no server-sent stream, so `GET /mcp` is 405).
/// Behind the admin token like every admin route. Each tool is one admin route, called through
/// the router itself with the caller's `authorization`, so a tool answers exactly what that
/// route answers.
enum MCPEndpoint {
    /// The header naming the protocol revision a client negotiated.
    static let protocolVersionHeader = HTTPField.Name("MCP-Protocol-Version")!

    /// The router's responder, handed over once every route is registered (`set`), and let go
    /// of when the admin API stops (`clear`): the responder holds the `/mcp` route, which holds this.
    final class SelfCalls: Sendable {
        private let box = NIOLockedValueBox<RouterResponder<BasicRequestContext>?>(nil)

        func set(_ responder: RouterResponder<BasicRequestContext>) { box.withLockedValue { $0 = responder } }

        func clear() { box.withLockedValue { $0 = nil } }

        /// Makes `call` through the router with `authorization`, in `context`'s connection, as
        /// if sent to `authority` (the `/mcp` request's `Host`: the wait's dashboard link names it).
        func perform(
            _ call: AdminCall, authorization: String?, authority: String? = nil, context: BasicRequestContext
        ) async -> AdminCallResult {
            guard let responder = box.withLockedValue({ $0 }) else {
                return AdminCallResult(
                    status: 503,
                    body: AdminError.shuttingDown("the admin API is not running (starting or stopped)").body)
            }
            var fields = HTTPFields()
            if let authorization { fields[.authorization] = authorization }
            var body = ByteBuffer()
            if let json = call.body {
                fields[.contentType] = "application/json"
                body = ByteBuffer(string: json.jsonText)
            }
            let head = HTTPRequest(
                method: HTTPRequest.Method(call.method.rawValue) ?? .get, scheme: nil, authority: authority,
                path: call.target, headerFields: fields)
            do {
                let response = try await responder.respond(
                    to: Request(head: head, body: RequestBody(buffer: body)), context: context)
                let collector = BodyCollector()
                try await response.body.write(collector)
                return AdminCallResult(status: response.status.code, body: collector.bytes)
            } catch let error as HTTPError {
                return AdminCallResult(
                    status: error.status.code, body: AdminError.badRequest(error.body ?? "\(error.status)").body)
            } catch {
                return AdminCallResult(status: 500, body: AdminError.badRequest("\(error)").body)
            }
        }
    }

    /// A response body gathered into bytes.
    private final class BodyCollector: ResponseBodyWriter, Sendable {
        private let buffer = NIOLockedValueBox<[UInt8]>([])
        var bytes: [UInt8] { buffer.withLockedValue { $0 } }
        func write(_ part: ByteBuffer) async throws { buffer.withLockedValue { $0 += part.readableBytesView } }
        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    /// `POST /mcp`, making its tools' admin calls through `calls` (which receives the router's
    /// responder once every route is registered); `version`: the server's (`nil`: "development").
    static func handler(calls: SelfCalls, version: String?) -> AdminRouter.Handler {
        let version = version ?? "development"
        return { request, context in
            if let problem = refusal(of: request) { return problem }
            let body: [UInt8]
            do throws(AdminError) {
                body = try await RegistryRoutes.readBody(request)
            } catch {
                return AdminRouter.errorResponse(error)
            }
            let authorization = request.headers[.authorization]
            let authority = request.head.authority
            let dispatcher = MCPDispatcher(tools: MCPToolbox.all, version: version) { call in
                await calls.perform(call, authorization: authorization, authority: authority, context: context)
            }
            switch await dispatcher.reply(to: body) {
            case .message(let message):
                return AdminRouter.json(status: .ok, Array(message.jsonText.utf8))
            case .accepted:
                return Response(status: .accepted)
            case .invalid(let message):
                return AdminRouter.json(status: .badRequest, Array(message.jsonText.utf8))
            }
        }
    }

    /// What the transport's rules refuse before the message is read: a browser page from
    /// another origin (DNS rebinding; 403), a protocol revision not answered here (400).
    static func refusal(of request: Request) -> Response? {
        if let origin = request.headers[.origin], !isLocal(origin: origin, host: request.head.authority) {
            return AdminRouter.errorResponse(
                .forbidden(
                    "POST /mcp from a page at \(origin) is refused: only the admin API's own origin and localhost may call it"
                ))
        }
        if let version = request.headers[Self.protocolVersionHeader],
            !MCPDispatcher.protocolVersions.contains(version)
        {
            return AdminRouter.errorResponse(
                .badRequest(
                    "MCP-Protocol-Version '\(version)' is not answered here; supported: \(MCPDispatcher.protocolVersions.joined(separator: ", "))"
                ))
        }
        return nil
    }

    /// Whether `origin` (`http://localhost:3000`) is a loopback host or the host the request was sent to.
    static func isLocal(origin: String, host: String?) -> Bool {
        guard let schemeEnd = origin.firstRange(of: "://") else { return false }
        let authority = origin[schemeEnd.upperBound...]
        if let host, authority == host[...] { return true }
        let hostname: Substring
        if authority.hasPrefix("[") {
            hostname = authority.prefix { $0 != "]" }.dropFirst()
        } else {
            hostname = authority.prefix { $0 != ":" }
        }
        return hostname == "localhost" || hostname == "127.0.0.1" || hostname == "::1"
    }
}
