import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// `GET /v1/devices/{token}/notifications` over the router: the view of records the store
/// holds, judged by the delivery model as the device's conditions change.
@Suite struct DeviceViewRoutesTests {
    static let start: Int64 = 1_767_225_600_000
    static let token = String(repeating: "cd", count: 32)

    static func withRouter(
        _ body: @escaping @Sendable (any TestClientProtocol, DeliveryStore, MockClock) async throws -> Void
    ) async throws {
        let clock = MockClock(.manual(startsAt: start))
        let store = DeliveryStore()
        let executor = AdminExecutor()
        let router = AdminRouter.build(
            store: store, registry: Registry(), executor: executor, now: clock.now, clock: clock)
        do {
            try await Application(router: router).test(.router) { client in try await body(client, store, clock) }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    static func push(
        title: String, at time: Int64, collapseID: String? = nil, token: String = token, status: Int = 200
    ) -> DeliveryRecord {
        let payload = Array(#"{"aps":{"alert":{"title":"\#(title)"},"badge":2}}"#.utf8)
        var headers = HeaderBlock()
        headers.append(name: "apns-topic", value: "com.example.app")
        if let collapseID { headers.append(name: "apns-collapse-id", value: collapseID) }
        return DeliveryRecord(
            receivedAt: time, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + token, authority: nil, headerBlock: headers, token: token,
            topic: "com.example.app", pushType: .alert, apnsID: .echoed(UUID().uuidString), uniqueID: nil,
            payload: payload, payloadSize: payload.count,
            response: DeliveryResponse(status: status, reason: status == 200 ? nil : .badDeviceToken, respondedAt: time)
        )
    }

    static func titles(_ items: Any?) -> [String] {
        (items as? [[String: Any]] ?? []).compactMap { ($0["preview"] as? [String: Any])?["title"] as? String }
    }

    @Test func anUnknownTokenHasAnEmptyView() async throws {
        try await Self.withRouter { client, _, _ in
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/devices/\(Self.token)/notifications")
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(json["token"] as? String == Self.token)
            #expect(json["now"] as? Int64 == Self.start)
            #expect((json["notifications"] as? [Any])?.isEmpty == true)
            #expect((json["stored"] as? [Any])?.isEmpty == true)
            #expect((json["liveActivities"] as? [Any])?.isEmpty == true)
            #expect((json["badges"] as? [String: Any])?.isEmpty == true)
            let conditions = try #require(json["conditions"] as? [String: Any])
            #expect(conditions["presence"] as? String == "online" && conditions["installed"] as? Bool == true)
        }
    }

    @Test(arguments: [
        ("abc", "path parameter 'token'"), ("zz" + String(repeating: "ab", count: 31), "path parameter 'token'"),
    ])
    func aMalformedTokenIsABadParameter(token: String, words: String) async throws {
        try await Self.withRouter { client, _, _ in
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/devices/\(token)/notifications")
            #expect(answer.status == .badRequest)
            let error = try #require(answer.json?["error"] as? [String: Any])
            #expect(error["code"] as? String == "badParameter")
            #expect((error["message"] as? String)?.contains(words) == true)
        }
    }

    @Test(arguments: [
        ("limit=0", "query parameter 'limit' must be a whole number from 1 to 10000; got '0'"),
        ("limit=x", "got 'x'"), ("limit=2&limit=3", "query parameter 'limit' is given twice"),
        ("since=1", "unknown query parameter 'since'"),
    ])
    func badQueries(query: String, words: String) async throws {
        try await Self.withRouter { client, _, _ in
            let answer = try await ChannelRoutesTests.call(
                client, .get, "/v1/devices/\(Self.token)/notifications?\(query)")
            #expect(answer.status == .badRequest)
            let error = try #require(answer.json?["error"] as? [String: Any])
            #expect(error["code"] as? String == "badParameter")
            #expect((error["message"] as? String)?.contains(words) == true)
        }
    }

    @Test func storedWhileOfflineThenShownOnceOnline() async throws {
        try await Self.withRouter { client, store, clock in
            let path = "/v1/devices/\(Self.token)/notifications"
            store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.token, now: clock.now())
            store.append(Self.push(title: "Held", at: clock.now()))
            var json = try #require(try await ChannelRoutesTests.call(client, .get, path).json)
            #expect((json["conditions"] as? [String: Any])?["presence"] as? String == "offline")
            #expect(Self.titles(json["notifications"]).isEmpty)
            #expect(Self.titles(json["stored"]) == ["Held"])
            #expect((json["stored"] as? [[String: Any]])?.first?["cause"] as? String == "offline")

            clock.advance(by: 60_000)
            store.setDeviceConditions(.standard, of: Self.token, now: clock.now())
            json = try #require(try await ChannelRoutesTests.call(client, .get, path).json)
            #expect(Self.titles(json["notifications"]) == ["Held"])
            #expect((json["notifications"] as? [[String: Any]])?.first?["deliveredAt"] as? Int64 == clock.now())
            #expect((json["stored"] as? [Any])?.isEmpty == true)
            #expect((json["badges"] as? [String: Any])?["com.example.app"] as? Int == 2)
        }
    }

    @Test func collapseNewestFirstRejectedLeftOutAndTheLimit() async throws {
        try await Self.withRouter { client, store, clock in
            let now = clock.now()
            store.append(Self.push(title: "Score 1-0", at: now, collapseID: "score"))
            store.append(Self.push(title: "Hello", at: now + 1))
            store.append(Self.push(title: "Score 2-0", at: now + 2, collapseID: "score"))
            store.append(Self.push(title: "Rejected", at: now + 3, status: 400))
            store.append(Self.push(title: "Elsewhere", at: now + 4, token: String(repeating: "ef", count: 32)))
            let path = "/v1/devices/\(Self.token.uppercased())/notifications"
            let json = try #require(try await ChannelRoutesTests.call(client, .get, path).json)
            #expect(json["token"] as? String == Self.token)
            #expect(Self.titles(json["notifications"]) == ["Score 2-0", "Hello"])
            #expect((json["notifications"] as? [[String: Any]])?.first?["replaced"] as? Int == 1)
            #expect(json["notificationCount"] as? Int == 2)
            let limited = try #require(try await ChannelRoutesTests.call(client, .get, path + "?limit=1").json)
            #expect(Self.titles(limited["notifications"]) == ["Score 2-0"])
            #expect(limited["notificationCount"] as? Int == 2)
        }
    }
}
