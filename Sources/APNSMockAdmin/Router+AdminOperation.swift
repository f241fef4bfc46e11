import Hummingbird

extension Router where Context == BasicRequestContext {
    /// Registers `handler` for `operation`: at the document's method and path. The path is the
    /// document's template as written (`/v1/deliveries/{apnsId}`): Hummingbird reads `{name}` as
    /// a capture (as `:name`) and names the route by the template, so `routes`, the `Allow`
    /// header's table and the metrics' route label are the document's paths.
    @discardableResult
    func on(_ operation: AdminOperation, use handler: @escaping AdminRouter.Handler) -> Self {
        guard let method = HTTPRequest.Method(operation.method) else {
            preconditionFailure("operation \(operation.rawValue) has no HTTP method: '\(operation.method)'")
        }
        return on(RouterPath(operation.path), method: method, use: handler)
    }
}
