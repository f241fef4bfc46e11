/// What a channel-management request asks for ("Sending channel management requests to APNs").
/// On success the caller applies it to its `ChannelDirectory`; the rules never change state.
public enum ChannelOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST /1/apps/<bundleId>/channels`: create a channel with the verdict's `storagePolicy`
    /// and `sentPushType`, answer 201 with its new `apns-channel-id`.
    case create
    /// `GET /1/apps/<bundleId>/channels` with `apns-channel-id`: answer 200 with the verdict's
    /// `channel` configuration.
    case read
    /// `DELETE /1/apps/<bundleId>/channels` with `apns-channel-id`: delete the verdict's
    /// `channelID`, answer 204.
    case delete
    /// `GET /1/apps/<bundleId>/all-channels`: answer 200 with the app's channel ids in this
    /// environment.
    case list
}
