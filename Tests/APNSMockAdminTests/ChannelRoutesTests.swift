import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import APNSMockAdmin

/// `/v1/channels` and `/v1/apps/{bundleId}/broadcast` over the router: create, read, list with
/// filters, delete, subscriptions, the capability switch, and `POST /v1/reset` re-creating the
/// setup's channels.
@Suite struct ChannelRoutesTests {
    static let now: Int64 = 1_795_331_883_008
    static let token = String(repeating: "ab", count: 32)
    static let otherToken = "cdcdcdcdcdcdcdcd"
    /// Holds `/` and `+`: a path must send them percent-encoded.
    static let slashID = "ab/+cd/+ef=="
    static let slashIDInPath = "ab%2F%2Bcd%2F%2Bef%3D%3D"

    /// A router over `registry`, its executor shut down afterwards.
    static func withRouter(
        _ registry: Registry = Registry(), reset: @escaping @Sendable () async -> Void = {},
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let executor = AdminExecutor()
        let router = AdminRouter.build(
            store: DeliveryStore(), registry: registry, executor: executor, reset: reset, now: { Self.now })
        do {
            try await Application(router: router).test(.router) { client in try await body(client) }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    /// The answer's status and JSON object (`nil` for an empty body).
    struct Answer {
        var status: HTTPResponse.Status
        var json: [String: Any]?
        var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json?["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    static func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil
    ) async throws -> Answer {
        let response = try await client.executeRequest(
            uri: uri, method: method, headers: body == nil ? [:] : [.contentType: "application/json"],
            body: body.map { ByteBuffer(string: $0) })
        let bytes = Data(response.body.readableBytesView)
        let json = bytes.isEmpty ? nil : try JSONSerialization.jsonObject(with: bytes) as? [String: Any]
        return Answer(status: response.status, json: json)
    }

    static func ids(_ answer: Answer) -> [String] {
        (answer.json?["channels"] as? [[String: Any]] ?? []).compactMap { $0["channelId"] as? String }
    }

    @Test func createReadAndDelete() async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            let created = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            #expect(created.status == .created)
            let json = try #require(created.json)
            let id = try #require(json["channelId"] as? String)
            #expect(ChannelID.isValid(id))
            #expect(json["bundleId"] as? String == "com.example.app")
            #expect(json["environment"] as? String == "sandbox")
            #expect(json["messageStoragePolicy"] as? Int == 1)
            #expect(json["pushType"] as? String == "LiveActivity")
            #expect(json["createdAt"] as? Int64 == Self.now)
            #expect(json["subscribers"] as? Int == 0)
            #expect(json["tokens"] == nil, "a create's answer lists no tokens")
            #expect(registry.channel(id)?.scope == ChannelScope(bundleID: "com.example.app", environment: .sandbox))

            let read = try await Self.call(client, .get, "/v1/channels/\(Self.encoded(id))")
            #expect(read.status == .ok)
            #expect(read.json?["channelId"] as? String == id)

            #expect(try await Self.call(client, .delete, "/v1/channels/\(Self.encoded(id))").status == .noContent)
            #expect(registry.channel(id) == nil)
            let gone = try await Self.call(client, .get, "/v1/channels/\(Self.encoded(id))")
            #expect(gone.status == .notFound && gone.errorCode == "notFound")
            #expect(gone.errorMessage.contains("no channel with channelId '\(id)'"))
            let again = try await Self.call(client, .delete, "/v1/channels/\(Self.encoded(id))")
            #expect(again.status == .notFound && again.errorCode == "notFound")
        }
    }

    /// Every character base64 uses outside letters and digits, percent-encoded in the path.
    @Test func channelIdsArePercentDecoded() async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            let created = try await Self.call(
                client, .post, "/v1/channels",
                #"{"bundleId":"com.example.app","environment":"production","messageStoragePolicy":0,"pushType":"liveactivity","channelId":"\#(Self.slashID)"}"#
            )
            #expect(created.status == .created)
            #expect(created.json?["channelId"] as? String == Self.slashID)
            #expect(created.json?["messageStoragePolicy"] as? Int == 0)
            #expect(created.json?["pushType"] as? String == "liveactivity")
            for path in [Self.slashIDInPath, "ab%2f%2bcd%2f%2bef==", "ab%2F+cd%2F+ef=="] {
                let read = try await Self.call(client, .get, "/v1/channels/\(path)")
                #expect(read.status == .ok, "\(path)")
                #expect(read.json?["channelId"] as? String == Self.slashID)
            }
            let subscribed = try await Self.call(
                client, .put, "/v1/channels/\(Self.slashIDInPath)/devices/\(Self.token)")
            #expect(subscribed.status == .ok)
            #expect(registry.subscribers(of: Self.slashID) == [Self.token])
            let deleted = try await Self.call(client, .delete, "/v1/channels/\(Self.slashIDInPath)")
            #expect(deleted.status == .noContent)
            #expect(registry.channel(Self.slashID) == nil)
        }
    }

    @Test(arguments: [
        ("%2", "path parameter 'channelId' is not well percent-encoded"),
        ("abc%zz==", "path parameter 'channelId' is not well percent-encoded"),
        ("abc", "path parameter 'channelId' must be base64"),
        ("ab%3Dcd", "path parameter 'channelId' must be base64"),
        ("%FF%FE%FD%FC", "path parameter 'channelId' is not well percent-encoded"),
    ])
    func malformedChannelIdsAreBadParameters(_ path: String, _ message: String) async throws {
        try await Self.withRouter { client in
            for (method, uri) in [
                (HTTPRequest.Method.get, "/v1/channels/\(path)"), (.delete, "/v1/channels/\(path)"),
                (.put, "/v1/channels/\(path)/devices/\(Self.token)"),
            ] {
                let answer = try await Self.call(client, method, uri)
                #expect(answer.status == .badRequest && answer.errorCode == "badParameter", "\(method) \(uri)")
                #expect(answer.errorMessage.hasPrefix(message), "\(answer.errorMessage)")
            }
        }
    }

    @Test func listingIsOldestFirstWithFilters() async throws {
        let clock = ManualMilliseconds(1000)
        let registry = Registry()
        let executor = AdminExecutor()
        let router = AdminRouter.build(
            store: DeliveryStore(), registry: registry, executor: executor, now: { clock.value })
        try await Application(router: router).test(.router) { client in
            var made: [String] = []
            for (bundleID, environment) in [
                ("com.example.b", "sandbox"), ("com.example.a", "production"), ("com.example.a", "sandbox"),
            ] {
                clock.advance()
                let created = try await Self.call(
                    client, .post, "/v1/channels", #"{"bundleId":"\#(bundleID)","environment":"\#(environment)"}"#)
                made.append(try #require(created.json?["channelId"] as? String))
            }
            #expect(Self.ids(try await Self.call(client, .get, "/v1/channels")) == made)
            #expect(
                Self.ids(try await Self.call(client, .get, "/v1/channels?bundleId=com.example.a")) == [
                    made[1], made[2],
                ])
            #expect(
                Self.ids(try await Self.call(client, .get, "/v1/channels?environment=sandbox")) == [made[0], made[2]])
            #expect(
                Self.ids(try await Self.call(client, .get, "/v1/channels?bundleId=com.example.a&environment=sandbox"))
                    == [made[2]])
            #expect(Self.ids(try await Self.call(client, .get, "/v1/channels?bundleId=com.example.none")).isEmpty)

            registry.subscribe(Self.token, to: made[0])
            registry.subscribe(Self.token, to: made[2])
            registry.subscribe(Self.otherToken, to: made[2])
            let byToken = try await Self.call(client, .get, "/v1/channels?token=\(Self.token.uppercased())")
            #expect(Self.ids(byToken) == [made[0], made[2]])
            let listed = try #require(byToken.json?["channels"] as? [[String: Any]])
            #expect(listed.map { $0["subscribers"] as? Int } == [1, 2])
            #expect(listed.allSatisfy { $0["tokens"] == nil }, "a listing gives counts, not tokens")
            #expect(
                Self.ids(
                    try await Self.call(client, .get, "/v1/channels?token=\(Self.otherToken)&environment=production")
                )
                .isEmpty)
        }
        await executor.shutdown()
    }

    @Test(arguments: [
        (
            "bundle=com.example.app",
            "unknown query parameter 'bundle'; GET /v1/channels takes bundleId, environment, token"
        ),
        ("environment=both", "query parameter 'environment' must be sandbox or production; got 'both'"),
        ("token=xyz", "query parameter 'token' must be an even number of hex digits"),
        ("bundleId=a&bundleId=b", "query parameter 'bundleId' is given twice"),
    ])
    func badListParameters(_ query: String, _ message: String) async throws {
        try await Self.withRouter { client in
            let answer = try await Self.call(client, .get, "/v1/channels?\(query)")
            #expect(answer.status == .badRequest && answer.errorCode == "badParameter")
            #expect(answer.errorMessage.hasPrefix(message), "\(answer.errorMessage)")
        }
    }

    @Test(arguments: [
        ("", "bundleId is required"),
        ("{", "the body is not valid JSON"),
        (#"{"environment":"sandbox"}"#, "bundleId is required"),
        (#"{"bundleId":"com.example.app"}"#, "environment is required: sandbox or production"),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","messageStoragePolicy":3}"#,
            "messageStoragePolicy must be 0–1"
        ),
        (
            #"{"bundleId":"com.example.app","environment":"sandbox","pushType":"alert"}"#,
            "pushType must be LiveActivity"
        ),
        (#"{"bundleId":"com.example.app","environment":"sandbox","channelId":"x"}"#, "channelId must be base64"),
        (
            #"{"bundleId":"com.example.app.voip","environment":"sandbox"}"#,
            "bundleId must be the app's bundle ID, not a topic"
        ),
        (#"{"bundleId":"com.example.app","environment":"sandbox","storage":1}"#, "storage is not a known field"),
    ])
    func badCreateBodiesNameTheField(_ body: String, _ message: String) async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            let answer = try await Self.call(client, .post, "/v1/channels", body)
            #expect(answer.status == .badRequest && answer.errorCode == "badRequest")
            #expect(answer.errorMessage.hasPrefix(message), "\(answer.errorMessage)")
        }
        #expect(registry.channelDirectory().totalCount == 0)
    }

    @Test func createsTheRegistryRefusesAreConflicts() async throws {
        let registry = Registry(channelLimit: 1)
        try await Self.withRouter(registry) { client in
            let body = #"{"bundleId":"com.example.app","environment":"sandbox","channelId":"AAAA"}"#
            #expect(try await Self.call(client, .post, "/v1/channels", body).status == .created)
            let taken = try await Self.call(
                client, .post, "/v1/channels",
                #"{"bundleId":"com.example.other","environment":"sandbox","channelId":"AAAA"}"#)
            #expect(taken.status == .conflict && taken.errorCode == "channelExists")
            #expect(taken.errorMessage.contains("channelId 'AAAA'"))
            let full = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            #expect(full.status == .conflict && full.errorCode == "channelLimitReached")
            #expect(full.errorMessage.contains("'com.example.app' has 1 channels in sandbox"))
            // The limit is per environment.
            let production = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"production"}"#)
            #expect(production.status == .created)

            registry.setBroadcastEnabled(false, bundleID: "com.example.off")
            let off = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.off","environment":"sandbox"}"#)
            #expect(off.status == .conflict && off.errorCode == "featureNotEnabled")
            #expect(off.errorMessage.contains("bundleId 'com.example.off' has its broadcast capability turned off"))
        }
    }

    @Test func subscribeAndUnsubscribe() async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            let created = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            let id = Self.encoded(try #require(created.json?["channelId"] as? String))
            let first = try await Self.call(client, .put, "/v1/channels/\(id)/devices/\(Self.token.uppercased())")
            #expect(first.status == .ok)
            #expect(first.json?["subscribers"] as? Int == 1)
            #expect(first.json?["tokens"] == nil, "a subscription's answer costs the same whatever the channel's size")
            let again = try await Self.call(client, .put, "/v1/channels/\(id)/devices/\(Self.token)")
            #expect(again.json?["subscribers"] as? Int == 1)
            let second = try await Self.call(client, .put, "/v1/channels/\(id)/devices/\(Self.otherToken)")
            #expect(second.json?["subscribers"] as? Int == 2)
            let both = try await Self.call(client, .get, "/v1/channels/\(id)")
            #expect(both.json?["tokens"] as? [String] == [Self.token, Self.otherToken])

            #expect(
                try await Self.call(client, .delete, "/v1/channels/\(id)/devices/\(Self.token)").status == .noContent)
            let read = try await Self.call(client, .get, "/v1/channels/\(id)")
            #expect(read.json?["tokens"] as? [String] == [Self.otherToken])
            // Not subscribed: nothing to end, and that is no error.
            #expect(
                try await Self.call(client, .delete, "/v1/channels/\(id)/devices/\(Self.token)").status == .noContent)

            let badToken = try await Self.call(client, .put, "/v1/channels/\(id)/devices/xyz")
            #expect(badToken.status == .badRequest && badToken.errorCode == "badParameter")
            #expect(badToken.errorMessage.hasPrefix("path parameter 'token' must be an even number of hex digits"))
            let unknown = try await Self.call(client, .put, "/v1/channels/AAAA/devices/\(Self.token)")
            #expect(unknown.status == .notFound && unknown.errorCode == "notFound")
            let unknownDelete = try await Self.call(client, .delete, "/v1/channels/AAAA/devices/\(Self.token)")
            #expect(unknownDelete.status == .notFound)
        }
    }

    @Test func turningTheCapabilityOffDeletesTheAppsChannels() async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            for (bundleID, environment) in [
                ("com.example.app", "sandbox"), ("com.example.app", "production"), ("com.example.other", "sandbox"),
            ] {
                let created = try await Self.call(
                    client, .post, "/v1/channels", #"{"bundleId":"\#(bundleID)","environment":"\#(environment)"}"#)
                #expect(created.status == .created)
            }
            let on = try await Self.call(client, .get, "/v1/apps/com.example.app/broadcast")
            #expect(on.status == .ok)
            #expect(on.json?["bundleId"] as? String == "com.example.app" && on.json?["enabled"] as? Bool == true)
            #expect(on.json?["deletedChannels"] == nil)

            let off = try await Self.call(client, .put, "/v1/apps/com.example.app/broadcast", #"{"enabled":false}"#)
            #expect(off.status == .ok)
            #expect(off.json?["enabled"] as? Bool == false)
            #expect(off.json?["deletedChannels"] as? Int == 2)
            let remaining = try await Self.call(client, .get, "/v1/channels")
            #expect(
                (remaining.json?["channels"] as? [[String: Any]])?.map { $0["bundleId"] as? String } == [
                    "com.example.other"
                ])
            #expect(
                try await Self.call(client, .get, "/v1/apps/com.example.app/broadcast").json?["enabled"] as? Bool
                    == false)
            let refused = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            #expect(refused.errorCode == "featureNotEnabled")

            let back = try await Self.call(client, .put, "/v1/apps/com.example.app/broadcast", #"{"enabled":true}"#)
            #expect(back.json?["enabled"] as? Bool == true && back.json?["deletedChannels"] as? Int == 0)
            #expect(registry.channelDirectory().isBroadcastEnabled(bundleID: "com.example.app"))
        }
    }

    @Test(arguments: [
        ("com.example.app", "", "the body is not valid JSON"),
        ("com.example.app", "{}", "enabled is required"),
        ("com.example.app", #"{"enabled":"no"}"#, "enabled must be true or false"),
        ("com.example.app", #"{"enabled":false,"bundleId":"com.example.app"}"#, "bundleId is not a known field"),
        ("com.example.app", #"{"enabled":false,"on":true}"#, "on is not a known field"),
        (
            "com.example.app.voip", #"{"enabled":false}"#,
            "path parameter 'bundleId' must be the app's bundle ID, not a topic"
        ),
        ("com%20example", #"{"enabled":false}"#, "path parameter 'bundleId' must be a bundle ID"),
    ])
    func badCapabilityRequests(_ bundleID: String, _ body: String, _ message: String) async throws {
        try await Self.withRouter { client in
            let answer = try await Self.call(client, .put, "/v1/apps/\(bundleID)/broadcast", body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage.hasPrefix(message), "\(answer.errorMessage)")
        }
    }

    @Test func channelRoutesTakeNoQueryParameters() async throws {
        try await Self.withRouter { client in
            for (method, uri) in [
                (HTTPRequest.Method.post, "/v1/channels?bundleId=com.example.app"),
                (.get, "/v1/apps/com.example.app/broadcast?enabled=false"),
                (.post, "/v1/channels/AAAA/devices?x=1"),
            ] {
                let answer = try await Self.call(client, method, uri, method == .post ? "{}" : nil)
                #expect(answer.status == .badRequest && answer.errorCode == "badParameter", "\(uri)")
                #expect(answer.errorMessage.contains("is not known here"), "\(answer.errorMessage)")
            }
        }
    }

    /// A channel's tokens come in pages (`after`, `limit`); `POST …/devices` subscribes many
    /// at once, each token checked and repeats subscribed once.
    @Test func bulkSubscriptionAndPagedTokens() async throws {
        let registry = Registry()
        try await Self.withRouter(registry) { client in
            let created = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            let raw = try #require(created.json?["channelId"] as? String)
            let id = Self.encoded(raw)
            let tokens = (0..<25).map { String(format: "%02x", 24 - $0) + String(repeating: "ef", count: 31) }
            let list = tokens.map { "\"\($0.uppercased())\"" }.joined(separator: ",")
            let bulk = try await Self.call(client, .post, "/v1/channels/\(id)/devices", #"{"tokens":[\#(list)]}"#)
            #expect(bulk.status == .ok)
            #expect(bulk.json?["added"] as? Int == 25 && bulk.json?["subscribers"] as? Int == 25)
            let again = try await Self.call(
                client, .post, "/v1/channels/\(id)/devices", #"{"tokens":["\#(tokens[0])","\#(Self.token)"]}"#)
            #expect(again.json?["added"] as? Int == 1 && again.json?["subscribers"] as? Int == 26)
            #expect(registry.subscriberCount(of: raw) == 26)

            var seen: [String] = []
            var after: String?
            var pages = 0
            repeat {
                let query = "limit=10" + (after.map { "&after=\($0)" } ?? "")
                let page = try await Self.call(client, .get, "/v1/channels/\(id)?\(query)")
                #expect(page.status == .ok && page.json?["subscribers"] as? Int == 26)
                seen += page.json?["tokens"] as? [String] ?? []
                after = page.json?["nextAfter"] as? String
                pages += 1
            } while after != nil && pages < 10
            #expect(pages == 3)
            #expect(seen == (tokens + [Self.token]).sorted())

            for (body, message) in [
                (#"{"tokens":["zz"]}"#, "tokens[0] must be"), (#"{"tokens":"ab"}"#, "tokens must be"),
                (#"{}"#, "tokens is required"), (#"{"tokens":[],"other":1}"#, "other"),
            ] {
                let refused = try await Self.call(client, .post, "/v1/channels/\(id)/devices", body)
                #expect(refused.status == .badRequest && refused.errorCode == "badRequest", "\(body)")
                #expect(refused.errorMessage.contains(message), "\(body): \(refused.errorMessage)")
            }
            let unknown = try await Self.call(client, .post, "/v1/channels/AAAA/devices", #"{"tokens":[]}"#)
            #expect(unknown.status == .notFound)
            for query in ["limit=0", "limit=100001", "after=xyz", "limit=1&limit=2", "x=1"] {
                let refused = try await Self.call(client, .get, "/v1/channels/\(id)?\(query)")
                #expect(refused.status == .badRequest && refused.errorCode == "badParameter", "\(query)")
            }
        }
    }

    /// `POST /v1/reset` as the application wires it: provider-made channels go, the setup's
    /// come back (a fixed id the same, with its subscribers), and so does its capability switch.
    @Test func resetRecreatesTheSetupChannels() async throws {
        let fixed = ChannelSpec(
            id: Self.slashID, scope: ChannelScope(bundleID: "com.example.app", environment: .sandbox),
            subscribers: [Self.token])
        let registry = Registry(channels: [fixed], broadcastDisabled: ["com.example.off"], now: 5)
        let reset: @Sendable () async -> Void = {
            registry.reset(
                keys: [], devices: [], channels: [fixed], broadcastDisabled: ["com.example.off"], now: Self.now)
        }
        try await Self.withRouter(registry, reset: reset) { client in
            let initial = try await Self.call(client, .get, "/v1/channels/\(Self.slashIDInPath)")
            #expect(initial.json?["tokens"] as? [String] == [Self.token])
            #expect(initial.json?["createdAt"] as? Int == 5)
            _ = try await Self.call(
                client, .post, "/v1/channels", #"{"bundleId":"com.example.app","environment":"sandbox"}"#)
            _ = try await Self.call(client, .delete, "/v1/channels/\(Self.slashIDInPath)/devices/\(Self.token)")
            _ = try await Self.call(client, .put, "/v1/apps/com.example.off/broadcast", #"{"enabled":true}"#)
            #expect(Self.ids(try await Self.call(client, .get, "/v1/channels")).count == 2)

            #expect(try await Self.call(client, .post, "/v1/reset").status == .ok)
            let after = try await Self.call(client, .get, "/v1/channels")
            #expect(Self.ids(after) == [Self.slashID])
            let channel = try #require((after.json?["channels"] as? [[String: Any]])?.first)
            #expect(channel["subscribers"] as? Int == 1)
            let read = try await Self.call(client, .get, "/v1/channels/\(Self.slashIDInPath)")
            #expect(read.json?["tokens"] as? [String] == [Self.token])
            #expect(channel["createdAt"] as? Int64 == Self.now)
            let off = try await Self.call(client, .get, "/v1/apps/com.example.off/broadcast")
            #expect(off.json?["enabled"] as? Bool == false)
        }
    }

    @Test func percentDecoding() {
        #expect(PercentDecoding.decode("abc") == "abc")
        #expect(PercentDecoding.decode("a%2Fb%2bc%3D") == "a/b+c=")
        #expect(PercentDecoding.decode("a+b") == "a+b")
        #expect(PercentDecoding.decode("%E2%80%93") == "–")
        #expect(PercentDecoding.decode("%") == nil)
        #expect(PercentDecoding.decode("%2") == nil)
        #expect(PercentDecoding.decode("%g0") == nil)
        #expect(PercentDecoding.decode("%FF") == nil)
    }

    /// `id` as a path segment: `/`, `+` and `=` percent-encoded.
    static func encoded(_ id: String) -> String {
        id.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B")
            .replacingOccurrences(of: "=", with: "%3D")
    }
}

/// A clock the test moves by hand (epoch ms).
final class ManualMilliseconds: Sendable {
    private let milliseconds: Atomic<Int64>
    init(_ start: Int64) { milliseconds = Atomic(start) }
    var value: Int64 { milliseconds.load(ordering: .relaxed) }
    func advance(by step: Int64 = 1) { milliseconds.add(step, ordering: .relaxed) }
}
