import APNSMockCore
import APNSMockRegistry
import Hummingbird

/// Admin routes for Web Push subscriptions (`/v1/webpush/subscriptions`): made as a browser
/// makes them (new keys, an endpoint on the Web Push listener), read, and unsubscribed.
///
/// A subscription's JSON is the W3C `PushSubscription` JSON (`endpoint`, `expirationTime`,
/// `keys.p256dh`, `keys.auth`), which Web Push libraries take as they are, with what the mock
/// adds: its `id`, the `applicationServerKey` it is bound to, `origin`, `createdAt`, `state` and
/// `device` (its browser's presence and notifications, as the delivery model sees them).
enum WebPushRoutes {
    /// `GET /v1/webpush/subscriptions`.
    static func list(_ registry: Registry, info: ServerInfo, now: @escaping @Sendable () -> Int64)
        -> AdminRouter.Handler
    {
        { _, _ in
            let at = now()
            var json = JSONWriter()
            json.beginObject()
            json.key("subscriptions")
            json.beginArray()
            for subscription in registry.webPushSubscriptions() {
                write(subscription, endpointBase: info.webPushURL, now: at, to: &json)
            }
            json.endArray()
            json.endObject()
            return AdminRouter.json(status: .ok, json.bytes)
        }
    }

    /// `POST /v1/webpush/subscriptions`: 201 with the new subscription.
    static func create(_ registry: Registry, info: ServerInfo, now: @escaping @Sendable () -> Int64)
        -> AdminRouter.Handler
    {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let body = try await RegistryRoutes.readBody(request)
                let spec = try RegistryRoutes.decodeBody { () throws(SpecError) -> WebPushSubscriptionSpec in
                    try WebPushSubscriptionSpec.decode(json: body, now: now())
                }
                let at = now()
                let subscription = registry.createWebPushSubscription(
                    applicationServerKey: spec.applicationServerKey, origin: spec.origin,
                    expiresAt: spec.expirationTime, conditions: spec.device, now: at)
                return response(subscription, status: .created, info: info, now: at)
            }
        }
    }

    /// `GET /v1/webpush/subscriptions/{subscriptionId}`.
    static func get(_ registry: Registry, info: ServerInfo, now: @escaping @Sendable () -> Int64)
        -> AdminRouter.Handler
    {
        { _, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("subscriptionId") ?? ""
                guard let subscription = registry.webPushSubscription(id) else { throw unknown(id) }
                return response(subscription, status: .ok, info: info, now: now())
            }
        }
    }

    /// `DELETE /v1/webpush/subscriptions/{subscriptionId}`: the subscription, now `deleted`.
    static func delete(_ registry: Registry, info: ServerInfo, now: @escaping @Sendable () -> Int64)
        -> AdminRouter.Handler
    {
        { _, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("subscriptionId") ?? ""
                let at = now()
                guard let subscription = registry.deleteWebPushSubscription(id, now: at) else { throw unknown(id) }
                return response(subscription, status: .ok, info: info, now: at)
            }
        }
    }

    /// `PUT /v1/webpush/subscriptions/{subscriptionId}/device`: the subscription with its
    /// browser's new conditions (what it holds is judged again at once).
    static func putDevice(_ registry: Registry, info: ServerInfo, now: @escaping @Sendable () -> Int64)
        -> AdminRouter.Handler
    {
        { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("subscriptionId") ?? ""
                let body = try await RegistryRoutes.readBody(request)
                let at = now()
                let conditions = try RegistryRoutes.decodeBody { () throws(SpecError) -> DeviceConditions in
                    try WebPushSubscriptionSpec.decodeDevice(json: body, now: at)
                }
                guard let subscription = registry.setWebPushConditions(conditions, of: id) else { throw unknown(id) }
                guard subscription.deletedAt == nil else {
                    throw .badRequest(
                        "Web Push subscription '\(id)' was unsubscribed: its browser no longer receives its pushes")
                }
                return response(subscription, status: .ok, info: info, now: at)
            }
        }
    }

    private static func unknown(_ id: String) -> AdminError {
        .notFound("no Web Push subscription '\(id)' (GET /v1/webpush/subscriptions lists them)")
    }

    private static func response(
        _ subscription: WebPushSubscription, status: HTTPResponse.Status, info: ServerInfo, now: Int64
    ) -> Response {
        var json = JSONWriter()
        write(subscription, endpointBase: info.webPushURL, now: now, to: &json)
        return AdminRouter.json(status: status, json.bytes)
    }

    /// A subscription's JSON; its endpoint is `endpointBase` (the Web Push URL) and its path.
    static func write(_ subscription: WebPushSubscription, endpointBase: String, now: Int64, to json: inout JSONWriter)
    {
        json.beginObject()
        json.key("id")
        json.string(subscription.id)
        json.key("endpoint")
        json.string(endpointBase + WebPushRequestRules().endpointPath(for: subscription.id))
        json.key("expirationTime")
        if let expiresAt = subscription.expiresAt { json.number(expiresAt) } else { json.null() }
        json.key("keys")
        json.beginObject()
        json.key("p256dh")
        json.string(subscription.keys.p256dh)
        json.key("auth")
        json.string(subscription.keys.auth)
        json.endObject()
        json.key("applicationServerKey")
        json.string(Base64URL.encode(subscription.applicationServerKey))
        json.key("origin")
        if let origin = subscription.origin { json.string(origin) } else { json.null() }
        json.key("createdAt")
        json.number(subscription.createdAt)
        json.key("state")
        json.string(subscription.state(at: now))
        json.key("device")
        json.beginObject()
        DeviceSpec.writePresence(subscription.conditions, to: &json)
        json.endObject()
        json.endObject()
    }
}
