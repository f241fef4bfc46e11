import APNSMockCore

/// A broadcast channel to create, as written in `POST /v1/channels` bodies and in
/// `setup.channels` of the configuration and expectation files; and the JSON the admin API
/// writes for a channel.
///
/// ```json
/// {"bundleId": "com.example.app", "environment": "sandbox", "messageStoragePolicy": 1,
///  "pushType": "LiveActivity", "channelId": "dGVzdC1jaGFubmVsLTE="}
/// ```
///
/// `bundleId` and `environment` (`sandbox` or `production`) are required; `messageStoragePolicy`
/// is 0 or 1 (default 1), `pushType` the Live Activity type in any letter case (default
/// `LiveActivity`; kept as written, as the channel API keeps the create request's), `channelId`
/// a fixed base64 id (default: a new one is issued), so that fixtures and expectation files can
/// name the channel. A `setup.channels` entry adds `subscribers`: the device tokens whose Live
/// Activity listens to the channel from the start.
public struct ChannelSpec: Sendable, Hashable {
    /// The id asked for; `nil`: a new one is issued.
    public var id: String?
    public var scope: ChannelScope
    public var storagePolicy: MessageStoragePolicy
    /// As written (`LiveActivity` in some letter case).
    public var pushType: String
    /// Lower-case hex tokens subscribed when the channel is created, in the order given.
    public var subscribers: [String]

    public init(
        id: String? = nil, scope: ChannelScope, storagePolicy: MessageStoragePolicy = .mostRecentMessageStored,
        pushType: String = Self.defaultPushType, subscribers: [String] = []
    ) {
        self.id = id
        self.scope = scope
        self.storagePolicy = storagePolicy
        self.pushType = pushType
        self.subscribers = subscribers
    }

    /// The push type of a channel whose creation names none.
    public static let defaultPushType = "LiveActivity"

    /// The fields of a `POST /v1/channels` body.
    public static let bodyFields = ["channelId", "bundleId", "environment", "messageStoragePolicy", "pushType"]
    /// The fields of a `setup.channels` entry.
    public static let setupFields = bodyFields + ["subscribers"]
    /// The keys of a channel's JSON (`write(_:subscribers:tokens:to:)`), in the order written;
    /// a page of tokens adds `tokens` (and `nextAfter`).
    public static let jsonKeys = [
        "channelId", "bundleId", "environment", "messageStoragePolicy", "pushType", "createdAt", "subscribers",
    ]

    /// Reads the body of `POST /v1/channels`.
    /// - Throws: `SpecError` naming the field (the path is empty when the body itself is wrong).
    public static func decode(json body: some Collection<UInt8>) throws(SpecError) -> ChannelSpec {
        let object = try SpecObject(body.isEmpty ? .object([]) : SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: bodyFields)
        return try decode(object)
    }

    /// Reads one entry of `setup.channels`.
    /// - Throws: `SpecError` naming the field by its full key path.
    public static func decode(setup object: SpecObject) throws(SpecError) -> ChannelSpec {
        try object.rejectUnknownFields(known: setupFields)
        var spec = try decode(object)
        var seen: Set<String> = []
        for (index, written) in (try object.strings("subscribers") ?? []).enumerated() {
            guard let token = DeviceToken.normalized(written) else {
                throw SpecError(
                    path: SpecError.join(object.path(of: "subscribers"), index: index),
                    problem: DeviceToken.problem(written))
            }
            if seen.insert(token).inserted { spec.subscribers.append(token) }
        }
        return spec
    }

    private static func decode(_ object: SpecObject) throws(SpecError) -> ChannelSpec {
        let bundleID = try object.requiredString("bundleId")
        if let problem = bundleIDProblem(bundleID) { throw object.error("bundleId", problem) }
        guard
            let environment = try object.choice(
                "environment", ["sandbox": APNSEnvironment.sandbox, "production": .production])
        else { throw object.error("environment", "is required: sandbox or production") }
        let policy = try object.integer("messageStoragePolicy", in: 0...1).flatMap {
            MessageStoragePolicy(rawValue: Int($0))
        }
        let pushType = try object.string("pushType") ?? defaultPushType
        guard pushType.lowercased() == BroadcastRules.pushType.rawValue else {
            throw object.error("pushType", "must be \(defaultPushType) (in any letter case); got '\(pushType)'")
        }
        let id = try object.string("channelId")
        if let id, !ChannelID.isValid(id) { throw object.error("channelId", channelIDProblem(id)) }
        return ChannelSpec(
            id: id, scope: ChannelScope(bundleID: bundleID, environment: environment),
            storagePolicy: policy ?? .mostRecentMessageStored, pushType: pushType)
    }

    /// The sentence completing "`bundleId` …" for a bundle ID no channel can have; `nil` when
    /// it can have channels.
    package static func bundleIDProblem(_ bundleID: String) -> String? {
        guard ChannelScope.isValidBundleID(bundleID) else {
            return "must be a bundle ID (ASCII letters, digits, '.' and '-'); got '\(bundleID)'"
        }
        if let suffix = ChannelScope.pushTypeSuffix(of: bundleID) {
            return "must be the app's bundle ID, not a topic ending in '\(suffix)'; got '\(bundleID)'"
        }
        return nil
    }

    /// The sentence completing "`channelId` …" for an id `ChannelID.isValid` refuses.
    package static func channelIDProblem(_ id: String) -> String {
        let shown = id.count > 100 ? String(id.prefix(100)) + "…" : id
        return
            "must be base64 (A–Z a–z 0–9 + /, padded with = to a multiple of 4 characters) of 1–\(ChannelID.maximumBytes) bytes; got '\(shown)'"
    }

    /// Checks that the setup's channels can all be created: fixed ids are unique, no channel
    /// belongs to an app in `broadcastDisabled`, and no app has more than `limit` channels in
    /// an environment. (`SetupSection.decode` checks the first two in one section; this checks
    /// the setup the configuration file and expectation files make together.)
    /// - Throws: `SpecError` at `setup.channels` (or `setup.broadcastDisabled`).
    public static func checkSetup(_ channels: [ChannelSpec], broadcastDisabled: [String], limit: Int) throws(SpecError)
    {
        var ids: Set<String> = []
        var counts: [ChannelScope: Int] = [:]
        let disabled = Set(broadcastDisabled)
        for channel in channels {
            if let id = channel.id, !ids.insert(id).inserted {
                throw SpecError(path: "setup.channels", problem: "has channelId '\(id)' twice")
            }
            if disabled.contains(channel.scope.bundleID) {
                throw SpecError(
                    path: "setup.broadcastDisabled",
                    problem:
                        "turns off the broadcast capability of '\(channel.scope.bundleID)', which setup.channels gives a channel"
                )
            }
            counts[channel.scope, default: 0] += 1
        }
        for (scope, count) in counts.sorted(by: {
            ($0.key.bundleID, $0.key.environment.rawValue) < ($1.key.bundleID, $1.key.environment.rawValue)
        })
        where count > limit {
            throw SpecError(
                path: "setup.channels",
                problem:
                    "has \(count) channels of '\(scope.bundleID)' in \(scope.environment.rawValue), more than the channel limit (\(limit); channelLimit, --channel-limit)"
            )
        }
    }

    /// Writes `{"channelId","bundleId","environment","messageStoragePolicy","pushType","createdAt",
    /// "subscribers"}`: `subscribers` is how many devices are subscribed. With `tokens` (one
    /// page of them, ascending), also `"tokens":[…]`, and `"nextAfter"`: the last token of the
    /// page when more follow (the `after` of the next page).
    package static func write(
        _ channel: BroadcastChannel, subscribers: Int, tokens: (page: [String], more: Bool)? = nil,
        to json: inout JSONWriter
    ) {
        json.beginObject()
        json.key("channelId")
        json.string(channel.id)
        json.key("bundleId")
        json.string(channel.bundleID)
        json.key("environment")
        json.string(channel.environment.rawValue)
        json.key("messageStoragePolicy")
        json.number(channel.storagePolicy.rawValue)
        json.key("pushType")
        json.string(channel.pushType)
        json.key("createdAt")
        json.number(channel.createdAt)
        json.key("subscribers")
        json.number(subscribers)
        if let tokens {
            json.key("tokens")
            json.beginArray()
            for token in tokens.page { json.string(token) }
            json.endArray()
            if tokens.more, let last = tokens.page.last {
                json.key("nextAfter")
                json.string(last)
            }
        }
        json.endObject()
    }
}
