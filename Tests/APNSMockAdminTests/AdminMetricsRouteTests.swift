import APNSMockRegistry
import APNSMockStore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// `GET /metrics`: Prometheus text, behind the token, and every admin request counted by its
/// route's pattern (never the raw path).
@Suite struct AdminMetricsRouteTests {
    static let executor = AdminExecutor()

    static func app(token: String?) -> some ApplicationProtocol {
        Application(
            router: AdminRouter.build(
                store: DeliveryStore(capacity: 16), registry: Registry(keys: [], devices: []), executor: executor,
                access: AdminAccess(token: token)))
    }

    @Test func adminRequestsAreCountedByRoutePattern() async throws {
        try await Self.app(token: nil).test(.router) { client in
            for id in ["7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D", "8F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"] {
                try await client.execute(uri: "/v1/deliveries/\(id)", method: .get) { response in
                    #expect(response.status == .notFound)
                }
            }
            try await client.execute(uri: "/no/such/path", method: .get) { response in
                #expect(response.status == .notFound)
            }
            try await client.execute(uri: "/health", method: .post) { response in
                #expect(response.status == .methodNotAllowed)
            }
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
                let lines = String(buffer: response.body).split(separator: "\n").map(String.init)
                #expect(
                    lines.contains(
                        #"apns_mock_admin_requests_total{route="/v1/deliveries/{apnsId}",method="GET",status="404"} 2"#)
                )
                #expect(
                    lines.contains(#"apns_mock_admin_requests_total{route="unmatched",method="GET",status="404"} 1"#))
                #expect(
                    lines.contains(#"apns_mock_admin_requests_total{route="unmatched",method="POST",status="405"} 1"#))
                #expect(lines.contains("# TYPE apns_mock_admin_requests_total counter"))
                #expect(lines.contains("apns_mock_records_stored_total 0"))
                #expect(!lines.contains { $0.contains("7F4C2B9E") }, "raw paths never become labels")
            }
        }
    }

    @Test func metricsNeedTheTokenAndRefusalsAreCounted() async throws {
        let token = "s3cret-token"
        try await Self.app(token: token).test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"]) {
                response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.contains(#"apns_mock_admin_requests_total{route="/metrics",method="GET",status="401"} 1"#))
            }
        }
    }
}
