import APNSMockAdmin
import ArgumentParser
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock healthcheck`: exit 0 when the admin API answers `GET /health` with 200, 1 when it
/// answers otherwise or cannot be reached. The container image's `HEALTHCHECK` runs it (no curl
/// in the image).
struct HealthcheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Exit 0 when apns-mock's admin API answers GET /health, else 1 (for HEALTHCHECK and scripts).")

    @Option(
        help: ArgumentHelp(
            "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).", valueName: "url"))
    var admin: String?
    @Option(help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds")) var timeout = 3

    func run() throws {
        var options = AdminOptions()
        options.admin = admin
        let base = options.base
        guard let client = AdminAPIClient(url: base) else {
            fail(2, AdminOptions.notAnAdminURL("healthcheck", base))
        }
        do {
            let response = try client.send(.health, timeout: .seconds(Int64(max(1, timeout)))).wait()
            if let problem = AdminOptions.tlsPortAnswer("healthcheck", base: base, response) { fail(1, problem) }
            guard response.status == 200 else {
                fail(1, "apns-mock healthcheck: \(base)/health answered \(response.status)")
            }
        } catch {
            fail(1, "apns-mock healthcheck: cannot reach \(base): \(error)")
        }
    }
}
