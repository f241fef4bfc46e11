import APNSMockCore
import Testing

@testable import APNSMockRegistry

/// The setup's channels in the registry: created at start, and again by `reset` (`POST
/// /v1/reset`), with their subscribers and the capability switch of `broadcastDisabled`.
@Suite struct RegistryChannelSetupTests {
    static let token = String(repeating: "ab", count: 32)
    static let fixedID = "dGVzdC1jaGFubmVsLTE="
    static let sandbox = ChannelScope(bundleID: "com.example.app", environment: .sandbox)
    static let production = ChannelScope(bundleID: "com.example.app", environment: .production)
    static let setup = [
        ChannelSpec(scope: production, storagePolicy: .noMessageStored),
        ChannelSpec(id: fixedID, scope: sandbox, pushType: "liveactivity", subscribers: [token]),
    ]

    @Test func theSetupIsCreatedAtStart() throws {
        let registry = Registry(channels: Self.setup, broadcastDisabled: ["com.example.off"], channelLimit: 5, now: 7)
        let directory = registry.channelDirectory()
        #expect(directory.limit == 5)
        #expect(directory.totalCount == 2)
        let fixed = try #require(registry.channel(Self.fixedID))
        #expect(fixed.scope == Self.sandbox && fixed.pushType == "liveactivity" && fixed.createdAt == 7)
        #expect(registry.subscribers(of: fixed.id) == [Self.token])
        let issued = try #require(directory.channels(in: Self.production).first)
        #expect(issued.id != Self.fixedID && ChannelID.isValid(issued.id))
        #expect(issued.storagePolicy == .noMessageStored && registry.subscriberCount(of: issued.id) == 0)
        #expect(!directory.isBroadcastEnabled(bundleID: "com.example.off"))
        #expect(directory.isBroadcastEnabled(bundleID: "com.example.app"))
    }

    @Test func resetPutsTheSetupBack() throws {
        let registry = Registry(channels: Self.setup, broadcastDisabled: ["com.example.off"], channelLimit: 3, now: 7)
        let firstIssued = try #require(registry.channelDirectory().channels(in: Self.production).first?.id)
        var random = FastRandom()
        let made = try registry.createChannel(
            in: Self.sandbox, storagePolicy: .mostRecentMessageStored, createdAt: 8, using: &random)
        registry.unsubscribe(Self.token, from: Self.fixedID)
        registry.subscribe("cdcdcdcdcdcdcdcd", to: Self.fixedID)
        registry.setBroadcastEnabled(true, bundleID: "com.example.off")
        registry.setBroadcastEnabled(false, bundleID: "com.example.other")

        registry.reset(keys: [], devices: [], channels: Self.setup, broadcastDisabled: ["com.example.off"], now: 9)
        let directory = registry.channelDirectory()
        #expect(directory.totalCount == 2)
        #expect(registry.channel(made.id) == nil)
        #expect(directory.wasIssued(made.id))
        let fixed = try #require(registry.channel(Self.fixedID))
        #expect(registry.subscribers(of: fixed.id) == [Self.token] && fixed.createdAt == 9)
        // A setup channel without a fixed id gets a new one: ids are never issued twice.
        let reissued = try #require(directory.channels(in: Self.production).first?.id)
        #expect(reissued != firstIssued)
        #expect(!directory.isBroadcastEnabled(bundleID: "com.example.off"))
        #expect(directory.isBroadcastEnabled(bundleID: "com.example.other"))
        #expect(directory.limit == 3)

        // Without setup channels, a reset leaves none.
        registry.reset(keys: [], devices: [])
        #expect(registry.channelDirectory().totalCount == 0)
        #expect(registry.channelDirectory().isBroadcastEnabled(bundleID: "com.example.off"))
    }

    /// Setup entries that cannot be created are left out (`ChannelSpec.checkSetup` refuses them
    /// at start); a fixed id is never handed to an entry without one.
    @Test func entriesThatCannotBeCreatedAreLeftOut() {
        let registry = Registry(
            channels: [
                ChannelSpec(scope: Self.sandbox), ChannelSpec(id: Self.fixedID, scope: Self.sandbox),
                ChannelSpec(scope: ChannelScope(bundleID: "com.example.off", environment: .sandbox)),
            ], broadcastDisabled: ["com.example.off"], channelLimit: 1, now: 0)
        let directory = registry.channelDirectory()
        #expect(directory.totalCount == 1)
        #expect(registry.channel(Self.fixedID) != nil)
    }
}
