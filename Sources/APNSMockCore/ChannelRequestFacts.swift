/// The facts of a broadcast or channel-management request that a device push does not have,
/// kept behind one reference in `APNSVerdict` (see its properties of the same names). Immutable.
final class ChannelRequestFacts: Sendable, Equatable {
    let operation: ChannelOperation?
    let channelID: String?
    let storagePolicy: MessageStoragePolicy?
    let sentPushType: String?
    let requestID: String?
    let channel: BroadcastChannel?

    init(
        operation: ChannelOperation?, channelID: String?, storagePolicy: MessageStoragePolicy?,
        sentPushType: String?, requestID: String?, channel: BroadcastChannel?
    ) {
        self.operation = operation
        self.channelID = channelID
        self.storagePolicy = storagePolicy
        self.sentPushType = sentPushType
        self.requestID = requestID
        self.channel = channel
    }

    static func == (lhs: ChannelRequestFacts, rhs: ChannelRequestFacts) -> Bool {
        lhs.operation == rhs.operation && lhs.channelID == rhs.channelID && lhs.storagePolicy == rhs.storagePolicy
            && lhs.sentPushType == rhs.sentPushType && lhs.requestID == rhs.requestID && lhs.channel == rhs.channel
    }
}
