import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// `GET /v1/report`: its window parameters, and the report of records in a store. (Real
/// clients misbehaving are in the end-to-end `ProviderReportEndToEndTests`.)
@Suite struct ReportRoutesTests {
    static let now: Int64 = 1_750_000_000_000

    static func window(_ query: [(String, String)]) throws(AdminError) -> ReportWindow {
        try ReportRoutes.window(query, now: now)
    }

    @Test func windows() throws {
        #expect(try Self.window([]) == ReportWindow())
        #expect(try Self.window([("since", "5"), ("until", "9")]) == ReportWindow(since: 5, until: 9))
        #expect(try Self.window([("window", "10m")]) == ReportWindow(since: Self.now - 600_000))
        #expect(try Self.window([("window", "30")]) == ReportWindow(since: Self.now - 30_000))
        #expect(
            try Self.window([("until", "100000"), ("window", "1s")]) == ReportWindow(since: 99_000, until: 100_000))
        #expect(try Self.window([("window", "99999999999h")]) == ReportWindow(since: 0))
    }

    @Test(arguments: [
        [("since", "yesterday")], [("since", "-1")], [("until", "1e3")], [("window", "ten")], [("window", "-5s")],
        [("since", "5"), ("until", "5")], [("window", "1m"), ("since", "1")], [("since", "1"), ("since", "2")],
        [("limit", "3")], [("since", "9999999999999999")],
    ])
    func badParametersAreRefused(_ query: [(String, String)]) {
        #expect(throws: AdminError.badParameter("")) { try Self.window(query) }
    }

    @Test func theRouteReportsTheStoredRecords() async throws {
        let store = DeliveryStore()
        var headers = HeaderBlock()
        headers.append(name: "apns-topic", value: "com.example.app")
        for index in 0..<3 {
            store.append(
                DeliveryRecord(
                    receivedAt: Self.now + Int64(index), connectionID: UInt64(index + 1), streamID: 1,
                    environment: .sandbox, method: "POST", path: "/3/device/abcd", authority: nil, headerBlock: headers,
                    token: "abcd", topic: "com.example.app", pushType: .alert,
                    apnsID: .echoed("00000000-0000-4000-8000-00000000000\(index)"), uniqueID: nil,
                    payload: Array(#"{"aps":{"alert":"hi"}}"#.utf8), payloadSize: 22,
                    authentication: AuthenticationResult(
                        method: .certificate, certificateSubject: "UID=com.example.app"),
                    response: DeliveryResponse(status: 200, reason: nil, respondedAt: Self.now + Int64(index) + 1)))
        }
        let executor = AdminExecutor()
        defer { Task { await executor.shutdown() } }
        let router = AdminRouter.build(store: store, registry: Registry(), executor: executor, now: { Self.now + 10 })
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/report", method: .get) { response in
                #expect(response.status == .ok)
                let json = try #require(JSONValue.parse(String(buffer: response.body)))
                #expect(json["generatedAt"] == .integer(Self.now + 10))
                #expect(json["deliveries"] == .integer(3))
                guard case .array(let providers) = json["providers"] ?? .null else {
                    Issue.record("no providers: \(json.jsonText)")
                    return
                }
                #expect(providers.first?["identity"]?["name"] == .string("certificate UID=com.example.app"))
                #expect(providers.first?["providerTokens"] == .null)
                #expect(providers.first?["connections"]?["opened"] == .integer(3))
                #expect(json["findings"]?["warning"] == .integer(1))  // push-type-missing
            }
            try await client.execute(uri: "/v1/report?window=2s&since=1", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(#""code":"badParameter""#))
            }
        }
    }
}
