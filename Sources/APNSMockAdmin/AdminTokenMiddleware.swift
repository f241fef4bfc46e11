import Hummingbird

/// Answers 401 to admin calls without the bearer token `AdminAccess` asks for, before any route
/// runs; `AdminAccess.openPaths` pass without one.
struct AdminTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AdminAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if AdminAccess.openPaths.contains(request.uri.path)
            || access.admits(authorization: request.headers[.authorization])
        {
            return try await next(request, context)
        }
        let error = AdminError.unauthorized(
            request.headers[.authorization] == nil
                ? "this admin API requires 'authorization: Bearer <token>' (the server's --admin-token)"
                : "the bearer token does not match the server's --admin-token")
        var response = AdminRouter.errorResponse(error)
        response.headers[.wwwAuthenticate] = #"Bearer realm="apns-mock admin""#
        return response
    }
}
