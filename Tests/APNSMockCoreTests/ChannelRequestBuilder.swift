import APNSMockCore

/// A channel-management request under construction, field by field (the pattern of
/// `RequestBuilder`): a valid baseline per operation, and one change per test.
///
/// The baselines follow "Sending channel management requests to APNs": on a sandbox connection
/// with a provider token, for `com.example.app` (which has one registered storing channel in
/// sandbox), `POST /1/apps/com.example.app/channels` with
/// `{"message-storage-policy":1,"push-type":"LiveActivity"}` (create), `GET` and `DELETE` of the
/// same path with `apns-channel-id` of the registered channel (read, delete), and
/// `GET /1/apps/com.example.app/all-channels` (list).
struct ChannelRequestBuilder: Sendable {
    static let createBody = Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8)

    var method: String
    var pathPrefix = ChannelRules.pathPrefix
    var bundleID = BroadcastBuilder.bundleID
    /// `channels` or `all-channels`.
    var collection: String
    var pathOverride: String?

    var authorization: String? = "bearer " + RequestBuilder.validProviderToken
    var channelIDHeader: String?
    var requestID: String? = BroadcastBuilder.requestID
    var extraHeaders: [HTTPHeaderField] = []
    var body: [UInt8] = []
    var headerListTooLarge = false

    // The channel state, built fresh for each evaluation so that changes commute.
    var registeredChannelID = BroadcastBuilder.channelID
    var registeredBundleID = BroadcastBuilder.bundleID
    var registeredEnvironment = APNSEnvironment.sandbox
    var registeredPolicy = MessageStoragePolicy.mostRecentMessageStored
    var capabilityOn = true
    /// The directory's per-app, per-environment limit.
    var limit = ChannelDirectory.defaultLimit

    var authentication = AuthenticationMode.token
    var registry = RegistrySnapshot()
    var now = RequestBuilder.now
    var environment = APNSEnvironment.sandbox

    /// `POST …/channels` with a valid body.
    static var create: ChannelRequestBuilder {
        ChannelRequestBuilder(method: "POST", collection: "channels", body: createBody)
    }
    /// `GET …/channels` with the registered channel's id.
    static var read: ChannelRequestBuilder {
        ChannelRequestBuilder(method: "GET", collection: "channels", channelIDHeader: BroadcastBuilder.channelID)
    }
    /// `DELETE …/channels` with the registered channel's id.
    static var delete: ChannelRequestBuilder {
        ChannelRequestBuilder(method: "DELETE", collection: "channels", channelIDHeader: BroadcastBuilder.channelID)
    }
    /// `GET …/all-channels`.
    static var list: ChannelRequestBuilder { ChannelRequestBuilder(method: "GET", collection: "all-channels") }

    var path: String { pathOverride ?? pathPrefix + bundleID + "/" + collection }

    var headers: [HTTPHeaderField] {
        var fields: [HTTPHeaderField] = []
        func add(_ name: String, _ value: String?) {
            if let value { fields.append(HTTPHeaderField(name: name, value: value)) }
        }
        add("authorization", authorization)
        add("apns-channel-id", channelIDHeader)
        add("apns-request-id", requestID)
        if !body.isEmpty { add("content-type", "application/json") }
        return fields + extraHeaders
    }

    var request: APNSRequest {
        APNSRequest(
            method: method, path: path, authority: "api-manage-broadcast.sandbox.push.apple.com:2195",
            headers: headers, payload: body, headerListTooLarge: headerListTooLarge)
    }

    var channels: ChannelDirectory {
        var directory = ChannelDirectory(limit: limit)
        var random = FastRandom(seed: (1, 2, 3, 4))
        _ = try! directory.create(
            in: ChannelScope(bundleID: registeredBundleID, environment: registeredEnvironment),
            storagePolicy: registeredPolicy, pushType: "LiveActivity", createdAt: now - 60_000,
            id: registeredChannelID, using: &random)
        if !capabilityOn { directory.setBroadcastEnabled(false, bundleID: BroadcastBuilder.bundleID) }
        return directory
    }

    var context: ConnectionContext {
        ConnectionContext(environment: environment, authentication: authentication, registry: registry, now: now)
    }

    func evaluate() -> APNSVerdict { ChannelRules().evaluate(request, context: context, channels: channels) }

    /// A copy with `change` applied.
    func with(_ change: (inout ChannelRequestBuilder) -> Void) -> ChannelRequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }
}
