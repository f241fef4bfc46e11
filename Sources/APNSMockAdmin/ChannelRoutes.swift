import APNSMockCore
import APNSMockRegistry
import Hummingbird
import NIOCore

/// Admin routes for broadcast channels (`/v1/channels`), the devices subscribed to them, and
/// each app's broadcast capability (`/v1/apps/{bundleId}/broadcast`), for test setup and
/// inspection. They change the same registry the channel-management listener does.
///
/// A channel is written as `ChannelSpec.write` does. Errors: a bad body 400 `badRequest` naming
/// the field; a bad path or query parameter 400 `badParameter`; an unknown channel 404
/// `notFound`; a create the registry refuses 409 `featureNotEnabled` (the app's capability is
/// off), `channelLimitReached` or `channelExists` (the `channelId` asked for is a current
/// channel's). Channel ids in paths are percent-decoded (`/` must be sent as `%2F`).
enum ChannelRoutes {
    // MARK: channels

    /// The query parameters of `GET /v1/channels`, as the document declares them.
    static let listFilters = AdminOperation.listChannels.parameters.filter { $0.location == .query }.map(\.name)

    /// `GET /v1/channels[?bundleId=…&environment=…&token=…]`.
    static func listChannels(_ registry: Registry) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let filter = try listFilter(AdminRouter.parameters(request))
                let channels = registry.channelDirectory().allChannels.filter { channel in
                    filter.matches(channel) && (filter.token.map { registry.isSubscribed($0, to: channel.id) } ?? true)
                }
                var json = JSONWriter(capacity: 256 + channels.count * 256)
                json.beginObject()
                json.key("channels")
                json.beginArray()
                for channel in channels {
                    ChannelSpec.write(channel, subscribers: registry.subscriberCount(of: channel.id), to: &json)
                }
                json.endArray()
                json.endObject()
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
    }

    /// `POST /v1/channels`; `now` (epoch ms) dates the channel.
    static func createChannel(_ registry: Registry, now: @escaping @Sendable () -> Int64) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let body = try await RegistryRoutes.readBody(request)
                let spec = try RegistryRoutes.decodeBody { () throws(SpecError) -> ChannelSpec in
                    try ChannelSpec.decode(json: body)
                }
                var generator = FastRandom()
                let channel: BroadcastChannel
                do throws(ChannelDirectoryError) {
                    channel = try registry.createChannel(
                        in: spec.scope, storagePolicy: spec.storagePolicy, pushType: spec.pushType, createdAt: now(),
                        id: spec.id, using: &generator)
                } catch {
                    throw refusal(error, spec: spec, limit: registry.channelLimit)
                }
                return channelResponse(channel, subscribers: 0, status: .created)
            }
        }
    }

    /// `GET /v1/channels/{channelId}[?after=…&limit=…]`.
    static func getChannel(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let (after, limit) = try tokenPaging(
                    AdminRouter.parameters(request), of: "GET /v1/channels/{channelId}")
                let id = try pathChannelID(context)
                guard let channel = registry.channel(id) else { throw unknownChannel(id) }
                let page = registry.subscriberPage(of: id, after: after, limit: limit)
                var json = JSONWriter(capacity: 256 + page.tokens.count * 70)
                ChannelSpec.write(
                    channel, subscribers: registry.subscriberCount(of: id), tokens: (page.tokens, page.more), to: &json)
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
    }

    /// `DELETE /v1/channels/{channelId}`.
    static func deleteChannel(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                guard registry.deleteChannel(id) != nil else { throw unknownChannel(id) }
                return Response(status: .noContent)
            }
        }
    }

    /// What `GET /v1/channels` keeps.
    struct ListFilter: Sendable, Equatable {
        var bundleID: String?
        var environment: APNSEnvironment?
        /// Lower-case hex.
        var token: String?

        /// Whether the channel's app and environment are those asked for (the token is the
        /// registry's to check).
        func matches(_ channel: BroadcastChannel) -> Bool {
            (bundleID == nil || channel.bundleID == bundleID)
                && (environment == nil || channel.environment == environment)
        }
    }

    /// Reads `GET /v1/channels`'s query: each filter at most once, nothing else.
    static func listFilter(_ parameters: [(String, String)]) throws(AdminError) -> ListFilter {
        var filter = ListFilter()
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard listFilters.contains(name) else {
                throw .badParameter(
                    "unknown query parameter '\(name)'; GET /v1/channels takes \(listFilters.joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw .badParameter("query parameter '\(name)' is given twice") }
            switch name {
            case "bundleId":
                filter.bundleID = value
            case "environment":
                guard let environment = APNSEnvironment(rawValue: value) else {
                    throw .badParameter("query parameter 'environment' must be sandbox or production; got '\(value)'")
                }
                filter.environment = environment
            default:
                guard let token = DeviceToken.normalized(value) else {
                    throw .badParameter("query parameter 'token' \(DeviceToken.problem(value))")
                }
                filter.token = token
            }
        }
        return filter
    }

    /// How many tokens a page of `GET /v1/channels/{channelId}` lists unless `limit` says.
    static let defaultTokenPage = 1_000
    /// The most a page lists.
    static let maximumTokenPage = 100_000

    /// Reads the query of a list paged by device token (`operation`, as `GET /v1/devices`):
    /// `after` (a token: the page starts after it) and `limit`, each at most once, nothing else.
    static func tokenPaging(
        _ parameters: [(String, String)], of operation: String
    ) throws(AdminError) -> (after: String?, limit: Int) {
        var after: String?
        var limit = defaultTokenPage
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard name == "after" || name == "limit" else {
                throw .badParameter(
                    "unknown query parameter '\(name)'; \(operation) takes after and limit")
            }
            guard seen.insert(name).inserted else { throw .badParameter("query parameter '\(name)' is given twice") }
            if name == "after" {
                guard let token = DeviceToken.normalized(value) else {
                    throw .badParameter("query parameter 'after' \(DeviceToken.problem(value))")
                }
                after = token
            } else {
                guard let number = Int(value), (1...maximumTokenPage).contains(number) else {
                    throw .badParameter(
                        "query parameter 'limit' must be a whole number from 1 to \(maximumTokenPage); got '\(value)'")
                }
                limit = number
            }
        }
        return (after, limit)
    }

    /// A create the registry refused, as 409.
    static func refusal(_ error: ChannelDirectoryError, spec: ChannelSpec, limit: Int) -> AdminError {
        let app = "'\(spec.scope.bundleID)'"
        switch error {
        case .featureNotEnabled:
            return .featureNotEnabled(
                "bundleId \(app) has its broadcast capability turned off (APNs answers FeatureNotEnabled); PUT /v1/apps/\(spec.scope.bundleID)/broadcast {\"enabled\": true} turns it on"
            )
        case .limitReached:
            return .channelLimitReached(
                "bundleId \(app) has \(limit) channels in \(spec.scope.environment.rawValue) already, the most an app may have (APNs answers CannotCreateChannelConfig)"
            )
        case .channelExists:
            return .channelExists("channelId '\(spec.id ?? "")' is the id of a channel that exists")
        }
    }

    // MARK: subscriptions

    /// `PUT /v1/channels/{channelId}/devices/{token}`.
    static func subscribeDevice(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                let token = try RegistryRoutes.pathToken(context)
                guard let subscribers = registry.subscribe(token, to: id), let channel = registry.channel(id) else {
                    throw unknownChannel(id)
                }
                return channelResponse(channel, subscribers: subscribers, status: .ok)
            }
        }
    }

    /// `POST /v1/channels/{channelId}/devices`: `{"tokens": […]}`.
    static func subscribeDevices(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                let body = try await RegistryRoutes.readBody(request, limit: maximumBulkBodySize)
                let tokens = try RegistryRoutes.decodeBody { () throws(SpecError) -> [String] in
                    try bulkTokens(body)
                }
                guard let (added, subscribers) = registry.subscribe(tokens, to: id) else { throw unknownChannel(id) }
                var json = JSONWriter(capacity: 160)
                json.beginObject()
                json.key("channelId")
                json.string(id)
                json.key("added")
                json.number(added)
                json.key("subscribers")
                json.number(subscribers)
                json.endObject()
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
    }

    /// `DELETE /v1/channels/{channelId}/devices/{token}`.
    static func unsubscribeDevice(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                let token = try RegistryRoutes.pathToken(context)
                guard registry.unsubscribe(token, from: id) != nil else { throw unknownChannel(id) }
                return Response(status: .noContent)
            }
        }
    }

    /// The largest body `POST /v1/channels/{channelId}/devices` reads: a million 64-digit
    /// tokens and their quotes.
    static let maximumBulkBodySize = 72 << 20

    /// The body of `POST /v1/channels/{channelId}/devices`: `{"tokens": ["<hex>", …]}`, each a
    /// device token (returned lower case; repeats are subscribed once).
    static func bulkTokens(_ body: [UInt8]) throws(SpecError) -> [String] {
        let object = try SpecObject(SpecValue.parse(json: body), path: "")
        try object.rejectUnknownFields(known: ["tokens"])
        guard let written = try object.strings("tokens") else { throw object.error("tokens", "is required") }
        var tokens: [String] = []
        tokens.reserveCapacity(written.count)
        for (index, token) in written.enumerated() {
            guard let normalized = DeviceToken.normalized(token) else {
                throw SpecError(path: "tokens[\(index)]", problem: DeviceToken.problem(token))
            }
            tokens.append(normalized)
        }
        return tokens
    }

    // MARK: capability

    /// `GET /v1/apps/{bundleId}/broadcast`.
    static func getBroadcastCapability(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let bundleID = try pathBundleID(context)
                let enabled = registry.channelDirectory().isBroadcastEnabled(bundleID: bundleID)
                return capabilityResponse(bundleID: bundleID, enabled: enabled, deleted: nil)
            }
        }
    }

    /// `PUT /v1/apps/{bundleId}/broadcast`: `{"enabled": true|false}`.
    static func setBroadcastCapability(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let bundleID = try pathBundleID(context)
                let body = try await RegistryRoutes.readBody(request)
                let enabled = try capabilityBody(body, bundleID: bundleID)
                let deleted = registry.setBroadcastEnabled(enabled, bundleID: bundleID)
                return capabilityResponse(bundleID: bundleID, enabled: enabled, deleted: deleted.count)
            }
        }
    }

    /// The body of `PUT /v1/apps/{bundleId}/broadcast`: `{"enabled": true|false}` (the app is
    /// the path's).
    static func capabilityBody(_ body: [UInt8], bundleID: String) throws(AdminError) -> Bool {
        try RegistryRoutes.decodeBody { () throws(SpecError) -> Bool in
            let object = try SpecObject(SpecValue.parse(json: body), path: "")
            try object.rejectUnknownFields(known: ["enabled"])
            guard let enabled = try object.bool("enabled") else { throw object.error("enabled", "is required") }
            return enabled
        }
    }

    private static func capabilityResponse(bundleID: String, enabled: Bool, deleted: Int?) -> Response {
        var json = JSONWriter(capacity: 128)
        json.beginObject()
        json.key("bundleId")
        json.string(bundleID)
        json.key("enabled")
        json.bool(enabled)
        if let deleted {
            json.key("deletedChannels")
            json.number(deleted)
        }
        json.endObject()
        return AdminRouter.json(status: .ok, json.bytes)
    }

    // MARK: parameters

    /// The path's channel id, percent-decoded.
    static func pathChannelID(_ context: BasicRequestContext) throws(AdminError) -> String {
        let raw = context.parameters.get("channelId") ?? ""
        guard let id = PercentDecoding.decode(raw) else {
            throw .badParameter(
                "path parameter 'channelId' is not well percent-encoded (each '%' takes two hex digits, and the bytes must be UTF-8); got '\(raw)'"
            )
        }
        guard ChannelID.isValid(id) else {
            throw .badParameter(
                "path parameter 'channelId' \(ChannelSpec.channelIDProblem(id)) (send '/' as %2F, '+' as %2B)")
        }
        return id
    }

    private static func pathBundleID(_ context: BasicRequestContext) throws(AdminError) -> String {
        let bundleID = PercentDecoding.decode(context.parameters.get("bundleId") ?? "") ?? ""
        if let problem = ChannelSpec.bundleIDProblem(bundleID) {
            throw .badParameter("path parameter 'bundleId' \(problem)")
        }
        return bundleID
    }

    private static func unknownChannel(_ id: String) -> AdminError {
        .notFound("no channel with channelId '\(id)'; GET /v1/channels lists them")
    }

    /// A channel and how many devices it has, without their tokens (a subscription's answer
    /// costs the same whatever the channel's size).
    private static func channelResponse(
        _ channel: BroadcastChannel, subscribers: Int, status: HTTPResponse.Status
    ) -> Response {
        var json = JSONWriter(capacity: 256)
        ChannelSpec.write(channel, subscribers: subscribers, to: &json)
        return AdminRouter.json(status: status, json.bytes)
    }
}
