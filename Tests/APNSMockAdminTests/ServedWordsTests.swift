import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import APNSMockAdmin

/// The server's words: each record's `summary`, the `explanation` of a wait that timed out
/// (closest records, "N of M conditions hold", differences, "did you mean", the dashboard link
/// from `Host`) and of a record (`GET /v1/deliveries/{apnsId}`).
@Suite struct ServedWordsTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
    static let other = "5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d5e1d"
    static let id = "8E1C3B5D-9E34-4B4C-A2D6-1F0A3B0C9D11"

    static func record(token: String = token, title: String, apnsID: String = id) -> DeliveryRecord {
        let payload = Array(#"{"aps":{"alert":{"title":"\#(title)"}}}"#.utf8)
        return DeliveryRecord(
            receivedAt: 1, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + token, authority: nil,
            headerBlock: HeaderBlock([HTTPHeaderField(name: "apns-topic", value: "com.example.app")]), token: token,
            topic: "com.example.app", pushType: .alert, apnsID: .echoed(apnsID), uniqueID: nil, payload: payload,
            payloadSize: payload.count, response: DeliveryResponse(status: 200, reason: nil, respondedAt: 2))
    }

    static func withRouter(
        _ records: [DeliveryRecord], _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let store = DeliveryStore()
        for record in records { store.append(record) }
        let executor = AdminExecutor()
        let router = AdminRouter.build(store: store, registry: Registry(), executor: executor)
        do {
            try await Application(router: router).test(.router) { client in try await body(client) }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    static func get(_ client: some TestClientProtocol, _ uri: String, host: String? = nil) async throws -> (
        HTTPResponse.Status, [String: Any]
    ) {
        var headers = HTTPFields()
        if let host { headers[.init("Host")!] = host }
        let response = try await client.executeRequest(uri: uri, method: .get, headers: headers, body: nil)
        let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return (response.status, json ?? [:])
    }

    static let summary = "#1  200  push  740f4707…78ad  com.example.app  alert  apns-id \(id)"

    @Test func everyRecordCarriesItsSummary() async throws {
        try await Self.withRouter([Self.record(title: "Hi")]) { client in
            let (_, list) = try await Self.get(client, "/v1/deliveries")
            #expect((list["deliveries"] as? [[String: Any]])?.first?["summary"] as? String == Self.summary)
            let (status, single) = try await Self.get(client, "/v1/deliveries/\(Self.id)")
            #expect(status == .ok)
            #expect(single["summary"] as? String == Self.summary)
            let (_, waited) = try await Self.get(client, "/v1/deliveries/wait?timeout=0&topic=com.example.app")
            #expect((waited["deliveries"] as? [[String: Any]])?.first?["summary"] as? String == Self.summary)
        }
    }

    @Test func aTimedOutWaitExplainsTheClosestRecordsAndLinksTheDashboardFromHost() async throws {
        try await Self.withRouter([Self.record(title: "Hi")]) { client in
            let (status, answer) = try await Self.get(
                client, "/v1/deliveries/wait?timeout=0&token=\(Self.token)&topic=com.example.other",
                host: "mock.test:4242")
            #expect(status == .requestTimeout)
            #expect(
                answer["explanation"] as? String == """
                    timed out after 0ms: 0 of 1 record matched token=\(Self.token) topic=com.example.other
                    closest records:
                      \(Self.summary)  (1 of 2 conditions hold)
                        topic: expected com.example.other, got com.example.app
                    dashboard: http://mock.test:4242/#filter=token%3D\(Self.token)%26topic%3Dcom.example.other
                    """)
        }
    }

    /// A misspelled payload key: the difference suggests the path the records have, and the
    /// record that differs only by the misspelling is listed, though no condition holds for it.
    @Test func aMisspelledPathGetsDidYouMeanAndItsRecordIsListed() async throws {
        let records = [
            Self.record(title: "Hi"),
            Self.record(token: Self.other, title: "Other", apnsID: "11111111-2222-3333-4444-555555555555"),
        ]
        try await Self.withRouter(records) { client in
            let (status, answer) = try await Self.get(
                client, "/v1/deliveries/wait?timeout=0&payload.aps.alert.titel=Hi")
            #expect(status == .requestTimeout)
            let misses = try #require(answer["nearMisses"] as? [[String: Any]])
            #expect(misses.map { $0["sequence"] as? Int } == [1, 2], "the record with title Hi first")
            let difference = try #require((misses.first?["differences"] as? [[String: Any]])?.first)
            #expect(difference["suggestion"] as? String == "payload.aps.alert.title")
            #expect(misses.first?["satisfied"] as? Int == 0)
            let text = try #require(answer["explanation"] as? String)
            #expect(text.contains("\(Self.summary)  (0 of 1 conditions hold)"), "\(text)")
            #expect(
                text.contains(
                    "    payload.aps.alert.titel: expected Hi, got (none) (did you mean payload.aps.alert.title?)"),
                "\(text)")
            #expect(!text.contains("no recent record matches"), "\(text)")

            // A path the records have: no suggestion.
            let (_, spelled) = try await Self.get(client, "/v1/deliveries/wait?timeout=0&payload.aps.alert.title=Bye")
            let differences = (spelled["nearMisses"] as? [[String: Any]])?.first?["differences"] as? [[String: Any]]
            #expect(differences?.first?["suggestion"] == nil)
        }
    }

    @Test func aRecordIsServedWithItsExplanation() async throws {
        try await Self.withRouter([Self.record(title: "Hi")]) { client in
            let (_, single) = try await Self.get(client, "/v1/deliveries/\(Self.id)")
            let text = try #require(single["explanation"] as? String)
            #expect(text.hasPrefix("\(Self.id): push #1"), "\(text)")
            #expect(text.contains("request: POST /3/device/\(Self.token), topic com.example.app, push type alert"))
            #expect(text.contains("answer: 200"))
        }
    }
}
