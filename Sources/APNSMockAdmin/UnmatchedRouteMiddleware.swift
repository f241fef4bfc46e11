import Hummingbird
import NIOConcurrencyHelpers

/// Answers what no admin route handles in the admin API's own error JSON: a path the API does
/// not have gets 404 `notFound`, a path it has with another method 405 `methodNotAllowed` and
/// an `Allow` header.
///
/// Hummingbird's router answers both cases with a bare 404; the paths and methods come from
/// the router itself (`routes`), handed over once every route is registered.
struct UnmatchedRouteMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    /// The registered routes, set once after registration (`routes.set`), read on misses only.
    final class Routes: Sendable {
        private let box = NIOLockedValueBox<[(method: HTTPRequest.Method, path: [Substring])]>([])

        /// Records the router's routes.
        func set(_ routes: [Router<BasicRequestContext>.RouteDescription]) {
            let table = routes.map { route in
                (route.method, route.path.description.split(separator: "/", omittingEmptySubsequences: false))
            }
            box.withLockedValue { $0 = table }
        }

        /// The methods registered for a path that matches `path` (`{name}` matches one segment).
        func methods(for path: String) -> [HTTPRequest.Method] {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            return box.withLockedValue { table in
                table.filter { route in
                    route.path.count == segments.count
                        && zip(route.path, segments).allSatisfy { pattern, segment in
                            (pattern.hasPrefix("{") && pattern.hasSuffix("}") && !segment.isEmpty) || pattern == segment
                        }
                }.map(\.method)
            }
        }
    }

    let routes: Routes

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            let allowed = routes.methods(for: path)
            guard !allowed.isEmpty else {
                return AdminRouter.errorResponse(
                    .notFound("the admin API has no '\(path)'; its endpoints are listed at GET /v1/openapi.yaml"))
            }
            // Each once (`/v1/deliveries/wait` matches `/v1/deliveries/{apnsId}` too). HEAD is not
            // among them: the router is built without automatic HEAD endpoints.
            var methods: [String] = []
            for method in allowed.map(\.rawValue) where !methods.contains(method) { methods.append(method) }
            let list = methods.joined(separator: ", ")
            var response = AdminRouter.errorResponse(
                .methodNotAllowed("\(request.method.rawValue) is not allowed on '\(path)'; allowed: \(list)"))
            response.headers[.allow] = list
            return response
        }
    }
}
