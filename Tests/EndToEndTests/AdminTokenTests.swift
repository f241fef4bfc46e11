import APNSMock
import APNSMockTransport
import Foundation
import Testing

/// `--admin-token` and the refusal to expose the admin API without one, as users meet them:
/// curl against the live admin port, the real `verify` command, and start-up.
@Suite(.serialized) struct AdminTokenTests {
    static let token = "ci-admin-token-1234"

    @Test func everyAdminCallButHealthNeedsTheToken() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = Self.token }) { mock in
            let admin = mock.endpoints.adminURL
            func status(_ path: String, _ headers: [String] = []) async throws -> String {
                let output = try await E2E.run(
                    "curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}"] + headers + [admin + path])
                return output.stdout
            }
            #expect(try await status("/health") == "200")
            #expect(try await status("/v1/deliveries") == "401")
            #expect(try await status("/v1/deliveries", ["-H", "authorization: Bearer nope"]) == "401")
            #expect(try await status("/v1/deliveries", ["-H", "authorization: Bearer \(Self.token)"]) == "200")
            let body = try await E2E.run("curl", ["-sS", admin + "/v1/keys"])
            #expect(body.stdout.contains(#"{"error":{"code":"unauthorized","message":"#), "\(body.stdout)")
        }
    }

    @Test func verifyPresentsTheTokenFromItsFlagOrTheEnvironment() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = Self.token }) { mock in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString).yaml")
                .path
            try "expect:\n  - {name: nothing yet, match: {topic: com.example.app}, count: {atLeast: 1}}\n".write(
                toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let admin = ["verify", "--admin", mock.endpoints.adminURL, file]
            let without = try await E2E.run(CLITests.executable, admin, environment: ["APNS_MOCK_ADMIN_TOKEN": ""])
            #expect(without.status == 2, "\(without.stdout)\(without.stderr)")
            #expect(without.stderr.contains("requires a token"), "\(without.stderr)")
            // Authorized: the expectations are evaluated (and fail, as nothing was pushed): exit 1.
            let flag = try await E2E.run(CLITests.executable, admin + ["--admin-token", Self.token])
            #expect(flag.status == 1, "\(flag.stdout)\(flag.stderr)")
            let environment = try await E2E.run(
                CLITests.executable, admin, environment: ["APNS_MOCK_ADMIN_TOKEN": Self.token])
            #expect(environment.status == 1, "\(environment.stdout)\(environment.stderr)")
            #expect(environment.stdout.contains("expectations failed"))
        }
    }

    /// Other computers may reach 0.0.0.0 (every interface): refused without a token, before
    /// anything binds.
    @Test func aNonLoopbackAdminAddressNeedsATokenOrInsecure() async throws {
        let refused = await #expect(throws: AdminExposureError.self) {
            _ = try await APNSMockApplication(configuration: E2E.mockConfiguration { $0.adminHost = "0.0.0.0" })
        }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("--admin-insecure"))
        // With a token, or --admin-insecure, the check lets it through: 192.0.2.1 (TEST-NET-1) is
        // no address of this machine, so what fails next is the bind, not the exposure check.
        for configure in [
            { (c: inout APNSMockConfiguration) in c.adminToken = Self.token },
            { (c: inout APNSMockConfiguration) in c.adminInsecure = true },
        ] {
            await #expect(throws: BindError.self) {
                _ = try await APNSMockApplication(
                    configuration: E2E.mockConfiguration {
                        $0.adminHost = "192.0.2.1"
                        $0.adminPort = 1
                        configure(&$0)
                    })
            }
        }
        let cli = try await E2E.run(
            CLITests.executable, ["serve", "--port", "0", "--admin-port", "0", "--admin-host", "0.0.0.0"],
            environment: ["APNS_MOCK_ADMIN_TOKEN": ""])
        #expect(cli.status == 1)
        #expect(cli.stderr.hasPrefix("Error: the admin API would listen on 0.0.0.0"), "\(cli.stderr)")
        #expect(cli.stdout.isEmpty)
    }
}
