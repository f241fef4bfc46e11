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
    /// Adds the routes to `router`; `now` (epoch ms) dates the channels created.
    static func add(
        to router: Router<BasicRequestContext>, registry: Registry,
        now: @escaping @Sendable () -> Int64 = WallClock.milliseconds
    ) {
        addChannelRoutes(to: router, registry: registry, now: now)
        addSubscriptionRoutes(to: router, registry: registry)
        addCapabilityRoutes(to: router, registry: registry)
    }

    // MARK: channels

    /// The query parameters of `GET /v1/channels`.
    static let listFilters = ["bundleId", "environment", "token"]

    private static func addChannelRoutes(
        to router: Router<BasicRequestContext>, registry: Registry, now: @escaping @Sendable () -> Int64
    ) {
        router.get("/v1/channels") { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let filter = try listFilter(AdminRouter.parameters(request))
                let channels = registry.channelDirectory().allChannels.filter(filter.matches)
                var json = JSONWriter(capacity: 256 + channels.count * 256)
                json.beginObject()
                json.key("channels")
                json.beginArray()
                for channel in channels { ChannelSpec.write(channel, to: &json) }
                json.endArray()
                json.endObject()
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
        router.post("/v1/channels") { request, _ in
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
                return channelResponse(channel, status: .created)
            }
        }
        router.get("/v1/channels/{channelId}") { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                guard let channel = registry.channel(id) else { throw unknownChannel(id) }
                return channelResponse(channel, status: .ok)
            }
        }
        router.delete("/v1/channels/{channelId}") { request, context in
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

        func matches(_ channel: BroadcastChannel) -> Bool {
            (bundleID == nil || channel.bundleID == bundleID)
                && (environment == nil || channel.environment == environment)
                && (token.map { channel.subscribers.contains($0) } ?? true)
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

    private static func addSubscriptionRoutes(to router: Router<BasicRequestContext>, registry: Registry) {
        router.put("/v1/channels/{channelId}/devices/{token}") { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                let token = try RegistryRoutes.pathToken(context)
                guard let channel = registry.subscribe(token, to: id) else { throw unknownChannel(id) }
                return channelResponse(channel, status: .ok)
            }
        }
        router.delete("/v1/channels/{channelId}/devices/{token}") { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let id = try pathChannelID(context)
                let token = try RegistryRoutes.pathToken(context)
                guard registry.unsubscribe(token, from: id) != nil else { throw unknownChannel(id) }
                return Response(status: .noContent)
            }
        }
    }

    // MARK: capability

    private static func addCapabilityRoutes(to router: Router<BasicRequestContext>, registry: Registry) {
        router.get("/v1/apps/{bundleId}/broadcast") { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let bundleID = try pathBundleID(context)
                let enabled = registry.channelDirectory().isBroadcastEnabled(bundleID: bundleID)
                return capabilityResponse(bundleID: bundleID, enabled: enabled, deleted: nil)
            }
        }
        router.put("/v1/apps/{bundleId}/broadcast") { request, context in
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

    private static func channelResponse(_ channel: BroadcastChannel, status: HTTPResponse.Status) -> Response {
        var json = JSONWriter(capacity: 256 + channel.subscribers.count * 80)
        ChannelSpec.write(channel, to: &json)
        return AdminRouter.json(status: status, json.bytes)
    }
}
