import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Hummingbird
import NIOCore

/// The admin HTTP API (Hummingbird): health, and reading and clearing recorded deliveries.
public enum AdminRouter {
    /// Builds the router over `store` and `registry`. Reading deliveries is paced by `pacer`
    /// while pushes arrive (see `AdminPacer`).
    public static func build(
        store: DeliveryStore, registry: Registry, pacer: AdminPacer? = nil
    ) -> Router<BasicRequestContext> {
        let pacer = pacer ?? AdminPacer(store: store)
        let router = Router()
        RegistryRoutes.add(to: router, registry: registry)
        router.get("/health") { _, _ in
            json(status: .ok, Array(#"{"status":"ok"}"#.utf8))
        }
        router.get("/v1/deliveries") { request, _ in
            let parameters = request.uri.queryParameters.map { (String($0.key), String($0.value)) }
            let parsed: (DeliveryFilter, Int, DeliveryOrder)
            do {
                parsed = try DeliveryQueryParser.parse(parameters)
            } catch {
                return errorResponse(error as? AdminError ?? .badRequest("\(error)"))
            }
            return await pacer.pace { deliveriesPage(store: store, query: parsed) }
        }
        router.get("/v1/deliveries/{apnsId}") { _, context in
            let id = context.parameters.get("apnsId") ?? ""
            guard APNSMessageID.isValid(id) else {
                return errorResponse(
                    .badParameter("path parameter 'apnsId' must be a UUID (8-4-4-4-12 hex digits); got '\(id)'"))
            }
            return await pacer.pace {
                guard let delivery = store.latest(apnsID: id) else {
                    return errorResponse(.notFound("no delivery with apnsId '\(id)' is stored"))
                }
                var writer = JSONWriter()
                DeliveryJSON.write(delivery, to: &writer)
                return json(status: .ok, writer.bytes)
            }
        }
        router.delete("/v1/deliveries") { _, _ in
            store.removeAll()
            return Response(status: .noContent)
        }
        return router
    }

    /// One page of `GET /v1/deliveries` as JSON.
    static func deliveriesPage(store: DeliveryStore, query parsed: (DeliveryFilter, Int, DeliveryOrder)) -> Response {
        let page = store.query(parsed.0, limit: parsed.1, order: parsed.2)
        var writer = JSONWriter(capacity: 512 + page.deliveries.count * 900)
        writer.beginObject()
        writer.key("deliveries")
        writer.beginArray()
        var tokens = DeliveryJSON.TokenCache()
        for delivery in page.deliveries { DeliveryJSON.write(delivery, to: &writer, tokens: &tokens) }
        writer.endArray()
        writer.key("next")
        writer.number(page.next)
        writer.key("total")
        writer.number(page.total)
        writer.key("dropped")
        writer.number(page.dropped)
        writer.endObject()
        return json(status: .ok, writer.bytes)
    }

    static func json(status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func errorResponse(_ error: AdminError) -> Response {
        json(status: HTTPResponse.Status(code: error.status), error.body)
    }
}
