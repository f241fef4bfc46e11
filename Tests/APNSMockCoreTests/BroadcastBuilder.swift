import APNSMockCore

/// A broadcast under construction, field by field, so that a test can break exactly one thing of
/// the valid baseline and leave the rest alone (the pattern of `RequestBuilder`).
///
/// The baseline is a valid broadcast as "Sending broadcast push notification requests to APNs"
/// describes it: `POST /4/broadcasts/apps/com.example.app` on a sandbox connection with a provider
/// token, `apns-channel-id` of a registered storing channel (policy 1) of that app in sandbox,
/// `apns-push-type: LiveActivity`, priority 10, an expiration an hour ahead, a canonical `apns-id`,
/// an `apns-request-id`, and a Live Activity update.
struct BroadcastBuilder: Sendable {
    static let bundleID = "com.example.app"
    static let channelID = "dGVzdC1jaGFubmVsLTAwMQ=="
    static let otherChannelID = "b3RoZXItY2hhbm5lbC0wMg=="
    static let requestID = "0F0E0D0C-0B0A-4908-8706-050403020100"
    static let baselinePayload = Array(
        #"{"aps":{"event":"update","timestamp":1700000000,"content-state":{"score":"2-1"}}}"#.utf8)

    var method = "POST"
    /// Everything before the bundle ID in `:path`.
    var pathPrefix = BroadcastRules.pathPrefix
    var bundleID = BroadcastBuilder.bundleID
    /// When set, the whole `:path`.
    var pathOverride: String?

    var authorization: String? = "bearer " + RequestBuilder.validProviderToken
    var messageID: String? = RequestBuilder.validMessageID
    var channelIDHeader: String? = BroadcastBuilder.channelID
    var pushType: String? = "LiveActivity"
    var priority: String? = "10"
    var expiration: String? = String(RequestBuilder.now / 1000 + 3600)
    var requestID: String? = BroadcastBuilder.requestID
    /// Sent after the headers above, in this order.
    var extraHeaders: [HTTPHeaderField] = []

    var payload: [UInt8] = BroadcastBuilder.baselinePayload
    var payloadSize: Int?
    var headerListTooLarge = false
    var strictPayload = false

    // The channel state, built fresh for each evaluation so that changes commute.
    /// The registered channel: its id, app and environment, and storage policy.
    var registeredChannelID = BroadcastBuilder.channelID
    var registeredBundleID = BroadcastBuilder.bundleID
    var registeredEnvironment = APNSEnvironment.sandbox
    var registeredPolicy = MessageStoragePolicy.mostRecentMessageStored
    /// The app's broadcast capability (turned off after the channel is registered, which
    /// deletes it, as Apple does).
    var capabilityOn = true

    var authentication = AuthenticationMode.token
    var registry = RegistrySnapshot()
    var now = RequestBuilder.now
    var environment = APNSEnvironment.sandbox

    var path: String { pathOverride ?? pathPrefix + bundleID }

    var headers: [HTTPHeaderField] {
        var fields: [HTTPHeaderField] = []
        func add(_ name: String, _ value: String?) {
            if let value { fields.append(HTTPHeaderField(name: name, value: value)) }
        }
        add("authorization", authorization)
        add("apns-id", messageID)
        add("apns-channel-id", channelIDHeader)
        add("apns-push-type", pushType)
        add("apns-priority", priority)
        add("apns-expiration", expiration)
        add("apns-request-id", requestID)
        return fields + extraHeaders
    }

    var request: APNSRequest {
        APNSRequest(
            method: method, path: path, authority: "api.sandbox.push.apple.com", headers: headers, payload: payload,
            payloadSize: payloadSize, headerListTooLarge: headerListTooLarge)
    }

    var channels: ChannelDirectory {
        var directory = ChannelDirectory()
        var random = FastRandom(seed: (1, 2, 3, 4))
        _ = try! directory.create(
            in: ChannelScope(bundleID: registeredBundleID, environment: registeredEnvironment),
            storagePolicy: registeredPolicy, pushType: "LiveActivity", createdAt: now - 60_000,
            id: registeredChannelID, using: &random)
        if !capabilityOn { directory.setBroadcastEnabled(false, bundleID: Self.bundleID) }
        return directory
    }

    var context: ConnectionContext {
        ConnectionContext(environment: environment, authentication: authentication, registry: registry, now: now)
    }

    func evaluate() -> APNSVerdict {
        BroadcastRules(policy: ValidationPolicy(strictPayload: strictPayload))
            .evaluate(request, context: context, channels: channels)
    }

    /// A copy with `change` applied.
    func with(_ change: (inout BroadcastBuilder) -> Void) -> BroadcastBuilder {
        var copy = self
        change(&copy)
        return copy
    }

    /// A JSON object payload of exactly `size` bytes: a Live Activity update padded in a string.
    static func jsonPayload(size: Int) -> [UInt8] {
        let prefix = Array(#"{"aps":{"event":"update","timestamp":1700000000,"content-state":{"note":""#.utf8)
        let suffix = Array(#""}}}"#.utf8)
        precondition(size >= prefix.count + suffix.count)
        return prefix + Array(repeating: UInt8(ascii: "x"), count: size - prefix.count - suffix.count) + suffix
    }
}
