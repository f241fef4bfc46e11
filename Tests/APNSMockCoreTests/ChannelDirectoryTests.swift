import APNSMockCore
import Foundation
import Testing

/// `ChannelDirectory`: the mock's channels, per app and environment, as "Sending channel
/// management requests to APNs" and "Setting up broadcast push notifications" describe them
/// (APNS-REFERENCE §6).
@Suite("ChannelDirectory")
struct ChannelDirectoryTests {
    static let sandbox = ChannelScope(bundleID: "com.example.app", environment: .sandbox)
    static let production = ChannelScope(bundleID: "com.example.app", environment: .production)
    static let otherApp = ChannelScope(bundleID: "com.example.other", environment: .sandbox)

    static func create(
        _ directory: inout ChannelDirectory, in scope: ChannelScope = sandbox,
        policy: MessageStoragePolicy = .mostRecentMessageStored, at createdAt: Int64 = 1_000,
        random: inout FastRandom
    ) throws -> BroadcastChannel {
        try directory.create(
            in: scope, storagePolicy: policy, pushType: "LiveActivity", createdAt: createdAt, using: &random)
    }

    @Test("create: base64 of 16 random bytes, the request's configuration, no subscribers")
    func create() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (1, 2, 3, 4))
        let channel = try directory.create(
            in: Self.sandbox, storagePolicy: .noMessageStored, pushType: "liveactivity", createdAt: 42,
            using: &random)
        #expect(ChannelID.isValid(channel.id))
        #expect(Data(base64Encoded: channel.id)?.count == ChannelID.issuedBytes)
        #expect(channel.scope == Self.sandbox)
        #expect(channel.storagePolicy == .noMessageStored)
        #expect(channel.pushType == "liveactivity")
        #expect(channel.createdAt == 42)
        #expect(directory.channel(channel.id, in: Self.sandbox) == channel)
        #expect(directory.channel(id: channel.id) == channel)
        #expect(directory.count(in: Self.sandbox) == 1)
        #expect(directory.wasIssued(channel.id))
    }

    @Test("Ids are never issued twice: not after a delete, not when the generator repeats itself")
    func neverReissued() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (9, 9, 9, 9))
        let first = try Self.create(&directory, random: &random)
        directory.delete(first.id, in: Self.sandbox)
        #expect(!directory.wasIssued("never") && directory.wasIssued(first.id))
        // The same seed again: the generator's first id is the deleted channel's, which is skipped.
        var replay = FastRandom(seed: (9, 9, 9, 9))
        let second = try Self.create(&directory, random: &replay)
        #expect(second.id != first.id)
        // Many more: all distinct.
        var ids: Set<String> = [first.id, second.id]
        for _ in 0..<500 {
            let channel = try Self.create(&directory, random: &random)
            #expect(ids.insert(channel.id).inserted)
            directory.delete(id: channel.id)
        }
    }

    @Test("An explicit id (setup) is recorded as issued, and refused while its channel exists")
    func explicitID() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (1, 1, 1, 1))
        let id = "dGVzdC1jaGFubmVsLTAwMQ=="
        let channel = try directory.create(
            in: Self.sandbox, storagePolicy: .noMessageStored, pushType: "LiveActivity", createdAt: 1, id: id,
            using: &random)
        #expect(channel.id == id)
        #expect(directory.wasIssued(id))
        #expect(throws: ChannelDirectoryError.channelExists) {
            try directory.create(
                in: Self.production, storagePolicy: .noMessageStored, pushType: "LiveActivity", createdAt: 2,
                id: id, using: &random)
        }
    }

    @Test("At most `limit` channels per app and environment → CannotCreateChannelConfig")
    func limit() throws {
        var directory = ChannelDirectory(limit: 3)
        var random = FastRandom(seed: (5, 6, 7, 8))
        for _ in 0..<3 { _ = try Self.create(&directory, random: &random) }
        #expect(throws: ChannelDirectoryError.limitReached) { try Self.create(&directory, random: &random) }
        #expect(ChannelDirectoryError.limitReached.reason == .cannotCreateChannelConfig)
        // Per environment and per app: the others still have room.
        _ = try Self.create(&directory, in: Self.production, random: &random)
        _ = try Self.create(&directory, in: Self.otherApp, random: &random)
        // A delete makes room again.
        let oldest = try #require(directory.channels(in: Self.sandbox).first)
        directory.delete(oldest.id, in: Self.sandbox)
        _ = try Self.create(&directory, random: &random)
        #expect(directory.count(in: Self.sandbox) == 3)
        #expect(directory.totalCount == 5)
    }

    @Test("Apple's default limit is 10,000")
    func defaultLimit() {
        #expect(ChannelDirectory.defaultLimit == 10_000)
        #expect(ChannelDirectory().limit == 10_000)
    }

    @Test("Environments are separate: a sandbox channel is not found in production")
    func environmentSeparation() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (2, 3, 4, 5))
        let channel = try Self.create(&directory, random: &random)
        #expect(directory.channel(channel.id, in: Self.sandbox) != nil)
        #expect(directory.channel(channel.id, in: Self.production) == nil)
        #expect(directory.channel(channel.id, in: Self.otherApp) == nil)
        #expect(directory.channels(in: Self.production).isEmpty)
        // Deleting through the other environment does nothing.
        #expect(directory.delete(channel.id, in: Self.production) == nil)
        #expect(directory.channel(channel.id, in: Self.sandbox) != nil)
    }

    @Test("Listing: oldest first, only the scope's channels")
    func listing() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (3, 4, 5, 6))
        let late = try Self.create(&directory, at: 300, random: &random)
        let early = try Self.create(&directory, at: 100, random: &random)
        let other = try Self.create(&directory, in: Self.production, at: 200, random: &random)
        #expect(directory.channels(in: Self.sandbox).map(\.id) == [early.id, late.id])
        #expect(directory.allChannels.map(\.id) == [early.id, other.id, late.id])
    }

    @Test("The capability is on by default; off deletes the app's channels in both environments")
    func capability() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (4, 5, 6, 7))
        #expect(directory.isBroadcastEnabled(bundleID: "com.example.app"))
        let sandbox = try Self.create(&directory, at: 1, random: &random)
        let production = try Self.create(&directory, in: Self.production, at: 2, random: &random)
        let other = try Self.create(&directory, in: Self.otherApp, at: 3, random: &random)

        let deleted = directory.setBroadcastEnabled(false, bundleID: "com.example.app")
        #expect(deleted.map(\.id) == [sandbox.id, production.id])
        #expect(!directory.isBroadcastEnabled(bundleID: "com.example.app"))
        #expect(directory.channel(id: sandbox.id) == nil && directory.channel(id: production.id) == nil)
        #expect(directory.channel(id: other.id) == other)
        #expect(throws: ChannelDirectoryError.featureNotEnabled) { try Self.create(&directory, random: &random) }
        #expect(ChannelDirectoryError.featureNotEnabled.reason == .featureNotEnabled)

        // On again: no channel comes back, new ones can be made, old ids are still never reissued.
        #expect(directory.setBroadcastEnabled(true, bundleID: "com.example.app").isEmpty)
        #expect(directory.channels(in: Self.sandbox).isEmpty)
        let again = try Self.create(&directory, random: &random)
        #expect(![sandbox.id, production.id].contains(again.id))
        #expect(directory.wasIssued(sandbox.id))
    }

    @Test("removeAll deletes every channel, re-enables every app, and keeps ids issued")
    func removeAll() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (7, 8, 9, 10))
        let channel = try Self.create(&directory, random: &random)
        directory.setBroadcastEnabled(false, bundleID: "com.example.other")
        directory.removeAll()
        #expect(directory.totalCount == 0)
        #expect(directory.isBroadcastEnabled(bundleID: "com.example.other"))
        #expect(directory.wasIssued(channel.id))
    }

    @Test("A copy is a snapshot: changing the directory leaves it as it was")
    func snapshot() throws {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (8, 9, 10, 11))
        let channel = try Self.create(&directory, random: &random)
        let snapshot = directory
        directory.delete(id: channel.id)
        #expect(snapshot.channel(id: channel.id) == channel)
        #expect(directory.channel(id: channel.id) == nil)
    }
}

/// `ChannelID`: what `apns-channel-id` must look like (Apple: base64 of random bytes, "don't
/// assume its size"; BadChannelId when "it isn't properly encoded, or it's greater than the
/// allowed length").
@Suite("ChannelID")
struct ChannelIDTests {
    @Test(
        "Well-formed ids",
        arguments: [
            "dGVzdC1jaGFubmVsLTAwMQ==", "b3RoZXItY2hhbm5lbC0wMg==", "YQ==", "YWI=", "YWJj",
            "+/+/", String(repeating: "A", count: 86) + "==",  // 64 bytes, the longest
        ])
    func valid(id: String) {
        #expect(ChannelID.isValid(id))
    }

    @Test(
        "Malformed ids",
        arguments: [
            "", "YQ", "YQ=", "Y===", "=YQ=", "YQ==YQ==", "dGVzdC1jaGFubmVs LTAwMQ==", "dGVzdC1jaGFubmVsLTAwMQ%3D%3D",
            "dGVzdC_jaGFubmVsLTAwMQ==", "dGVzdC-jaGFubmVsLTAwMQ==", "ü===",
            String(repeating: "A", count: 88),  // 66 bytes: longer than allowed
        ])
    func invalid(id: String) {
        #expect(!ChannelID.isValid(id))
    }

    @Test("Generated ids decode to 16 bytes, as Foundation reads them")
    func generated() throws {
        var random = FastRandom(seed: (11, 12, 13, 14))
        for _ in 0..<100 {
            let id = ChannelID.generate(using: &random)
            #expect(id.utf8.count == 24)
            #expect(ChannelID.isValid(id))
            #expect(try #require(Data(base64Encoded: id)).count == 16)
        }
    }
}
