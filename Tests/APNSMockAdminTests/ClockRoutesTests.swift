import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin

/// `GET`, `POST` and `DELETE /v1/clock` (issue 32, item 4), on a clock that stands still so
/// that every time is exact.
@Suite struct ClockRoutesTests {
    static let start: Int64 = 1_767_225_600_000

    static func withClock(
        _ body: @escaping @Sendable (any TestClientProtocol, MockClock, DeliveryStore) async throws -> Void
    ) async throws {
        let clock = MockClock(.manual(startsAt: start))
        let store = DeliveryStore()
        let executor = AdminExecutor()
        let router = AdminRouter.build(
            store: store, registry: Registry(), executor: executor, now: clock.now, clock: clock)
        do {
            try await Application(router: router).test(.router) { client in try await body(client, clock, store) }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    @Test func theClockIsReadMovedSetAndReset() async throws {
        try await Self.withClock { client, clock, _ in
            let read = try await ChannelRoutesTests.call(client, .get, "/v1/clock")
            #expect(read.status == .ok)
            #expect(read.json?["now"] as? Int64 == Self.start && read.json?["mode"] as? String == "manual")
            let advanced = try await ChannelRoutesTests.call(client, .post, "/v1/clock", #"{"advance":"61m"}"#)
            #expect(advanced.status == .ok && advanced.json?["now"] as? Int64 == Self.start + 61 * 60_000)
            #expect(clock.now() == Self.start + 61 * 60_000, "what the server dates by")
            let set = try await ChannelRoutesTests.call(client, .post, "/v1/clock", #"{"set":\#(Self.start + 1)}"#)
            #expect(set.status == .ok && set.json?["now"] as? Int64 == Self.start + 1)
            let reset = try await ChannelRoutesTests.call(client, .delete, "/v1/clock")
            #expect(reset.status == .ok && reset.json?["mode"] as? String == "system")
            let wall = WallClock.milliseconds()
            #expect(abs((reset.json?["now"] as? Int64 ?? 0) - wall) < 60_000, "the wall clock again")
            #expect(abs(reset.json?["offsetMs"] as? Int64 ?? .max) < 60_000)
        }
    }

    /// A clock set back before the newest record would date records after "now": refused.
    @Test func theClockIsNotSetBeforeTheNewestRecord() async throws {
        try await Self.withClock { client, clock, store in
            var record = ExpectationVerifierTests.record(status: 200)
            record.receivedAt = Self.start + 5_000
            store.append(record)
            let refused = try await ChannelRoutesTests.call(client, .post, "/v1/clock", #"{"set":\#(Self.start)}"#)
            #expect(refused.status == .badRequest && refused.errorCode == "badRequest")
            #expect(refused.errorMessage.contains("before the newest record"), "\(refused.errorMessage)")
            #expect(clock.now() == Self.start, "unchanged")
            let later = try await ChannelRoutesTests.call(
                client, .post, "/v1/clock", #"{"set":\#(Self.start + 5_000)}"#)
            #expect(later.status == .ok)
        }
    }

    @Test(arguments: [
        (#"{"advance":"-5m"}"#, "'advance' must be a duration"), (#"{"advance":"0s"}"#, "'advance' must be a duration"),
        (#"{"advance":600}"#, "'advance' must be a duration"), (#"{"advance":"400d"}"#, "'advance' must be a duration"),
        (#"{"set":-1}"#, "'set' must be a time"), (#"{"set":1.5}"#, "'set' must be a time"),
        (#"{"set":"now"}"#, "'set' must be a time"), (#"{"advance":"1m","set":5}"#, "one of 'advance' and 'set'"),
        (#"{}"#, "one of 'advance' and 'set'"), (#"{"forward":"1m"}"#, "unknown field 'forward'"),
        (#"[]"#, "must be an object"), ("not json", "not valid JSON"),
    ])
    func badBodiesAreRefusedInPlainWords(_ body: String, _ words: String) async throws {
        try await Self.withClock { client, clock, _ in
            let answer = try await ChannelRoutesTests.call(client, .post, "/v1/clock", body)
            #expect(answer.status == .badRequest)
            #expect(answer.errorMessage.contains(words), "\(answer.errorMessage)")
            #expect(clock.now() == Self.start)
        }
    }
}
