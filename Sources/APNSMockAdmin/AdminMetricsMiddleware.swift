import APNSMockMetrics
import Hummingbird

/// Counts every admin request (`apns_mock_admin_requests_total`) by its route's pattern
/// (`/v1/deliveries/{apnsId}`, never the raw path: the label stays bounded), method and status.
/// Added first, so that requests refused without a token (401) and paths no route handles (404,
/// 405: route `unmatched`) are counted too.
struct AdminMetricsMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let metrics: MockMetrics

    /// The route label of requests no route handles.
    static let unmatched = "unmatched"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            let response = try await next(request, context)
            count(request, context, status: response.status.code)
            return response
        } catch {
            count(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }

    private func count(_ request: Request, _ context: Context, status: Int) {
        // Hummingbird sets the matched route's pattern, or "NotFound" when none matched.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? Self.unmatched
        metrics.adminRequest(route: route, method: request.method.rawValue, status: status)
    }
}
