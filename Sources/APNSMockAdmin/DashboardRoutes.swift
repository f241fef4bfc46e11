import Hummingbird
import NIOCore

/// The dashboard: a page at `/` with its script and style sheet, compiled into the binary from
/// `Dashboard/` (`.embedInCode`), which shows the deliveries live and the fault rules, modes,
/// connections and registry through the admin API's own calls.
///
/// The three files hold no data, so they are served without the admin token
/// (`AdminAccess.openPaths`): a browser cannot send a bearer header when it navigates. With
/// `--admin-token` the page asks for the token, keeps it in the tab's `sessionStorage` and
/// sends it on every call it makes, as any other client does.
enum DashboardRoutes {
    /// One served file.
    struct Asset: Sendable {
        var path: String
        var contentType: String
        var bytes: [UInt8]
    }

    /// The file an operation of the document serves (at the operation's path); `nil` for
    /// every operation but the dashboard's three.
    static func asset(for operation: AdminOperation) -> Asset? {
        switch operation {
        case .dashboard:
            Asset(path: operation.path, contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html)
        case .dashboardScript:
            Asset(
                path: operation.path, contentType: "text/javascript; charset=utf-8",
                bytes: PackageResources.dashboard_js)
        case .dashboardStyleSheet:
            Asset(path: operation.path, contentType: "text/css; charset=utf-8", bytes: PackageResources.dashboard_css)
        default: nil
        }
    }

    /// The files, by the path they are served at.
    static let assets: [Asset] = AdminOperation.allCases.compactMap(asset(for:))

    /// The paths of the files: open without the admin token.
    static let paths: Set<String> = Set(assets.map(\.path))

    /// The page may load its own script, style sheet and admin calls, and nothing else: no inline
    /// script or style, no other origin, no plugins, no framing, no form posts elsewhere.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Serves the file of `operation`. Query parameters are ignored (they are the page's, not
    /// an API's).
    static func handler(for operation: AdminOperation) -> AdminRouter.Handler? {
        guard let asset = asset(for: operation) else { return nil }
        return { _, _ in response(asset) }
    }

    static func response(_ asset: Asset) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: asset.contentType,
                .contentSecurityPolicy: contentSecurityPolicy,
                .xContentTypeOptions: "nosniff",
                .cacheControl: "no-cache",
                .init("Referrer-Policy")!: "no-referrer",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: asset.bytes)))
    }
}
