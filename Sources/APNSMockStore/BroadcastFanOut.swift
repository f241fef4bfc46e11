import APNSMockCore

/// What a broadcast answered 200 does to the devices subscribed to its channel: one record
/// each, as if APNs had pushed it to each (`viaChannel`), all alike but for the token.
///
/// `template` is that record without a token; the store keeps it once, and each device's
/// record as a reference to it plus the token (`DeliveryStore.record(_:)`), so a broadcast
/// to a million devices costs a million small entries, not a million copies of its payload
/// and headers.
public struct BroadcastFanOut: Sendable {
    /// Every device's record but its token (and sequence number).
    public var template: DeliveryRecord
    /// The lower-case tokens subscribed when the broadcast was answered.
    public var tokens: Set<String>
    /// The channel's message storage policy: what an offline subscriber keeps of it.
    public var storagePolicy: MessageStoragePolicy?

    /// The fan-out of `broadcast` (a stored broadcast record, with its final apns-id) to the
    /// `tokens` subscribed to its channel, an app's Live Activities (`bundleID`).
    public init(
        of broadcast: DeliveryRecord, bundleID: String, tokens: Set<String>,
        storagePolicy: MessageStoragePolicy? = nil
    ) {
        self.storagePolicy = storagePolicy
        var record = broadcast
        record.sequence = 0
        record.kind = .push
        record.token = nil
        record.topic = bundleID + (APNSPushType.liveactivity.requiredTopicSuffix ?? "")
        record.pushType = .liveactivity
        record.apnsID = .echoed(broadcast.apnsID.text)
        record.uniqueID = nil
        record.viaChannel = true
        template = record
        self.tokens = tokens
    }

    /// The record of the device `token`.
    public func record(for token: String) -> DeliveryRecord {
        var record = template
        record.token = token
        return record
    }
}
