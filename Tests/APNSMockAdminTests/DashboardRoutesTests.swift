import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// The dashboard's three files: served from the compiled-in bytes with their media types and a
/// strict Content-Security-Policy, without the admin token (they hold no data) while the API
/// behind them still asks for it; and nothing in them loads from another origin.
@Suite struct DashboardRoutesTests {
    static let executor = AdminExecutor()

    static func app(token: String?) -> some ApplicationProtocol {
        Application(
            router: AdminRouter.build(
                store: DeliveryStore(capacity: 16), registry: Registry(keys: [], devices: []), executor: executor,
                access: AdminAccess(token: token)))
    }

    /// The file in the repository, as `Sources/APNSMockAdmin/Dashboard/<name>`.
    static func repositoryFile(_ name: String) throws -> [UInt8] {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        let file = "/" + path.joined(separator: "/") + "/Sources/APNSMockAdmin/Dashboard/" + name
        return Array(try #require(FileManager.default.contents(atPath: file), "cannot read \(file)"))
    }

    @Test(arguments: [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/dashboard.js", "dashboard.js", "text/javascript; charset=utf-8"),
        ("/dashboard.css", "dashboard.css", "text/css; charset=utf-8"),
    ])
    func servedWithItsTypeAndPolicyWithoutTheToken(path: String, file: String, contentType: String) async throws {
        let bytes = try Self.repositoryFile(file)
        try await Self.app(token: "s3cret-token").test(.router) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == contentType)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                let policy = response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy.contains("default-src 'none'"))
                #expect(policy.contains("script-src 'self'"))
                #expect(policy.contains("connect-src 'self'"))
                #expect(!policy.contains("unsafe"))
                #expect(Array(buffer: response.body) == bytes)
            }
            // What the page reads still needs the token.
            try await client.execute(uri: "/v1/events", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    /// No CDN, no inline script or style: the Content-Security-Policy would refuse them.
    @Test func theFilesLoadNothingFromElsewhereAndHaveNoInlineCode() throws {
        let html = String(decoding: try Self.repositoryFile("index.html"), as: UTF8.self)
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.contains("style=\""))
        #expect(html.range(of: #" on[a-z]+="#, options: .regularExpression) == nil, "no inline event handlers")
        let scripts = html.components(separatedBy: "<script").dropFirst()
        #expect(scripts.count == 1)
        #expect(scripts.allSatisfy { $0.hasPrefix(" src=\"/dashboard.js\"") })
        let script = String(decoding: try Self.repositoryFile("dashboard.js"), as: UTF8.self)
        #expect(!script.contains("innerHTML"), "untrusted text is set as textContent only")
        #expect(!script.contains("eval("))
        #expect(!script.contains("http://") && !script.contains("https://"))
        #expect(script.contains("new EventSource") == false, "EventSource cannot send the bearer token")
    }

    /// The dashboard's paths are the open paths beside `/health`, and every one is routed.
    @Test func theOpenPathsAreHealthAndTheDashboard() {
        #expect(AdminAccess.openPaths == ["/health", "/", "/dashboard.js", "/dashboard.css"])
    }
}
