import APNSMockRegistry
import APNSMockStore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

@Suite struct AdminAccessTests {
    static let executor = AdminExecutor()

    static func app(token: String?) -> some ApplicationProtocol {
        Application(
            router: AdminRouter.build(
                store: DeliveryStore(capacity: 16), registry: Registry(keys: [], devices: []), executor: executor,
                access: AdminAccess(token: token)))
    }

    @Test func withoutATokenEveryCallPasses() async throws {
        try await Self.app(token: nil).test(.router) { client in
            try await client.execute(uri: "/v1/deliveries", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func aTokenIsRequiredEverywhereButHealth() async throws {
        try await Self.app(token: "s3cret-token").test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
            for (method, uri) in [
                (HTTPRequest.Method.get, "/v1/deliveries"), (.get, "/v1/keys"), (.post, "/v1/reset"),
                (.delete, "/v1/deliveries"), (.get, "/v1/no-such-route"),
            ] {
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                    #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="apns-mock admin""#)
                    let body = String(buffer: response.body)
                    #expect(body.contains(#""code":"unauthorized""#), "\(body)")
                    #expect(body.contains("Bearer <token>"), "\(body)")
                }
            }
            try await client.execute(
                uri: "/v1/deliveries", method: .get, headers: [.authorization: "Bearer wrong-token"]
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body).contains("does not match"))
            }
            try await client.execute(
                uri: "/v1/deliveries", method: .get, headers: [.authorization: "bearer s3cret-token"]
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test(arguments: [
        ("Bearer s3cret", true), ("BEARER s3cret", true), ("Bearer s3cre", false), ("Bearer s3crett", false),
        ("Bearer ", false), ("Basic s3cret", false), ("s3cret", false), ("Bearer S3CRET", false),
    ])
    func admitsOnlyTheExactToken(header: String, admitted: Bool) {
        #expect(AdminAccess(token: "s3cret").admits(authorization: header) == admitted)
        #expect(AdminAccess(token: nil).admits(authorization: header))
        #expect(!AdminAccess(token: "s3cret").admits(authorization: nil))
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("LOCALHOST", true), ("::1", true),
        ("0.0.0.0", false), ("::", false), ("192.168.1.10", false), ("example.com", false), ("127.0.0", false),
        ("127.0.0.256", false),
    ])
    func loopbackAddresses(host: String, loopback: Bool) {
        #expect(AdminAccess.isLoopback(host: host) == loopback)
    }
}
