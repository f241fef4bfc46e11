import APNSMockCore
import Testing

/// A storage channel's kept message ("Sending broadcast push notification requests to APNs":
/// policy 1 keeps the most recent message, at most 8 hours; expiration 0 means deliver now or
/// never) and what a delete does to it ("APNs may still deliver stored messages after you delete
/// the channel": the mock's switch, off by default).
@Suite struct StoredBroadcastTests {
    static let sentAt: Int64 = 1_700_000_000_000

    static func message(expiration: Int64) -> StoredBroadcast? {
        StoredBroadcast(payload: Array("{}".utf8), requestID: "r", sentAt: sentAt, expiration: expiration)
    }

    @Test func keptUntilItsExpirationAtMostEightHours() throws {
        #expect(Self.message(expiration: 0) == nil, "expiration 0: deliver now or never")
        #expect(Self.message(expiration: Self.sentAt / 1000 - 1) == nil, "already expired")
        let hour = try #require(Self.message(expiration: Self.sentAt / 1000 + 3600))
        #expect(hour.expiresAt == Self.sentAt + 3_600_000)
        let day = try #require(Self.message(expiration: Self.sentAt / 1000 + 86_400))
        #expect(day.expiresAt == Self.sentAt + 8 * 3_600_000, "8 hours is the most APNs keeps")
    }

    @Test(arguments: [false, true])
    func aDeleteEndsTheKeptMessageUnlessTheSwitchIsOn(_ outlive: Bool) throws {
        var directory = ChannelDirectory()
        directory.storedMessagesOutliveChannels = outlive
        var random = FastRandom(seed: (1, 2, 3, 4))
        let channel = try directory.create(
            in: ChannelScope(bundleID: "com.example.app", environment: .sandbox),
            storagePolicy: .mostRecentMessageStored, pushType: "LiveActivity", createdAt: 0, using: &random)
        let message = try #require(Self.message(expiration: Self.sentAt / 1000 + 60))
        directory.store(message, in: channel.id)
        #expect(directory.storedMessage(of: channel.id, at: Self.sentAt) == message)
        #expect(directory.storedMessage(of: channel.id, at: Self.sentAt + 60_000) == nil, "expired")
        directory.delete(id: channel.id)
        #expect((directory.storedMessage(of: channel.id, at: Self.sentAt) != nil) == outlive)
        // The deleted channel as it was: its app and environment say who may still get it.
        let kept = directory.deletedChannelKeepingMessage(id: channel.id)
        #expect((kept != nil) == outlive)
        if outlive {
            #expect(kept?.bundleID == "com.example.app")
            #expect(kept?.environment == .sandbox)
        }
        #expect(directory.channel(id: channel.id) == nil)
        directory.removeAll()
        #expect(directory.deletedChannelKeepingMessage(id: channel.id) == nil)
        #expect(directory.storedMessage(of: channel.id, at: Self.sentAt) == nil)
    }
}
