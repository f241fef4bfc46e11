import APNSMock
import Foundation
import Testing

/// The dashboard at `/` in a real browser: Debian's chromium, headless, driven by playwright
/// (`Clients/dashboard_test.py`, in the venv `make test` creates) while httpx pushes over HTTP/2.
/// Under `make test` (APNS_MOCK_E2E_REQUIRED=1) a missing chromium or playwright fails the test.
@Suite(.serialized) struct DashboardBrowserTests {
    static let python = ProcessInfo.processInfo.environment["APNS_MOCK_PYTHON"]
    static let chromium = "/usr/bin/chromium"
    static let script = E2E.clientsDirectory + "/dashboard_test.py"
    static let enabled =
        E2E.clientsRequired || (python != nil && FileManager.default.isExecutableFile(atPath: chromium))

    /// Runs the script against `mock`; exit 3 means playwright or chromium is missing.
    static func runScript(_ mock: RunningMock, _ extra: [String] = []) async throws {
        let python = try #require(python, "APNS_MOCK_PYTHON is not set (make test sets it)")
        let output = try await E2E.run(
            python,
            [
                script, mock.endpoints.adminURL, String(mock.endpoints.apnsPort), E2E.caFile, try E2E.providerToken(),
                "--channels-port", String(mock.endpoints.channelsPort),
            ] + extra,
            timeout: 120)
        #expect(
            output.status == 0,
            "dashboard_test.py exited \(output.status)\(output.status == 3 ? " (install chromium and playwright: make test-deps)" : ""):\n\(output.stderr)\n\(output.stdout)"
        )
    }

    /// Banners within a second of the push, the Live Activity state, a rejection's reason and
    /// detail, the filter, the keyboard and the detail pane, a fault rule and a mode set from
    /// the page, the connection log, the registry, a narrow window.
    @Test(.enabled(if: enabled, "needs APNS_MOCK_PYTHON with playwright and /usr/bin/chromium (make test-deps)"))
    func pushesShowAsNotificationsAndThePanelsDriveTheMock() async throws {
        try await E2E.withMock { mock in try await Self.runScript(mock) }
    }

    /// Broadcasts and channels as what they are: "Loading…" until the first answer (the page's
    /// GET held back), then "No deliveries yet"; channel-management requests as operations
    /// ("Channel created", "Channels listed"); a broadcast as "Broadcast → 2 devices" with its
    /// channel and a link to itself and its deliveries; each device's card with its token
    /// shortened and "via channel …"; the filter and the open record in the address's fragment,
    /// written as they change and restored from an address.
    @Test(.enabled(if: enabled, "needs APNS_MOCK_PYTHON with playwright and /usr/bin/chromium (make test-deps)"))
    func broadcastsChannelOperationsAndTheAddressShowWhatTheyAre() async throws {
        try await E2E.withMock { mock in try await Self.runScript(mock, ["--part", "broadcast"]) }
    }

    /// The Device tab: a push to a device registered offline is listed under "Stored by APNs";
    /// set online from the page, the device shows it with its preview title and badge; a newer
    /// push with its collapse id replaces it; the registry sets presence keeping the device's
    /// topic; an unknown token has an empty view, a malformed one the API's words. Then web
    /// pushes from pywebpush as Safari shows them: the site, the decrypted title and body, a
    /// Declarative Web Push message's page and badge, and a body that could not be decrypted.
    @Test(.enabled(if: enabled, "needs APNS_MOCK_PYTHON with playwright and /usr/bin/chromium (make test-deps)"))
    func theDeviceViewShowsWhatReachedTheDevice() async throws {
        try await E2E.withMock { mock in try await Self.runScript(mock, ["--part", "device"]) }
    }

    /// With `--admin-token` the page asks for the token, then streams with it, and keeps it
    /// across a reload (session storage); from `#token=…` too, which leaves the address and keeps
    /// a filter given beside it.
    @Test(.enabled(if: enabled, "needs APNS_MOCK_PYTHON with playwright and /usr/bin/chromium (make test-deps)"))
    func aTokenTypedIntoThePageOpensIt() async throws {
        let token = "dashboard-\(UUID().uuidString)"
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = token }) { mock in
            try await Self.runScript(mock, ["--admin-token", token])
        }
    }
}
