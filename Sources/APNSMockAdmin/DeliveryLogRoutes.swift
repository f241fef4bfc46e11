import APNSMockCore
import APNSMockStore
import Hummingbird

/// `GET /v1/delivery-log/{uniqueId}`: what the Push Notifications Console's delivery log shows
/// for a development push's `apns-unique-id` — when APNs received it, then each step of its
/// delivery (stored, delivered, discarded, with times and reasons), in time order.
///
/// ```json
/// {"uniqueId": "…", "kind": "push", "sequence": 12, "apnsId": "…", "token": "…",
///  "topic": "com.example.app",
///  "events": [{"event": "received", "at": 1795331883000},
///             {"event": "stored", "at": 1795331883001, "until": 1797923883001},
///             {"event": "delivered", "at": 1795332003001}]}
/// ```
///
/// For a broadcast's unique id (a `kind: broadcast` record), `deliveries` lists the devices it
/// reached through its channel, each with its `delivery` and `deliveryHistory`.
enum DeliveryLogRoutes {
    /// The most per-device deliveries one answer lists for a broadcast.
    static let deliveryLimit = 1000

    /// `GET /v1/delivery-log/{uniqueId}`.
    static func log(store: DeliveryStore, executor: AdminExecutor) -> AdminRouter.Handler {
        { request, context in
            let id = context.parameters.get("uniqueId") ?? ""
            do throws(AdminError) {
                try AdminRouter.noParameters(request)
            } catch {
                return AdminRouter.errorResponse(error)
            }
            guard APNSMessageID.isValid(id) else {
                return AdminRouter.errorResponse(
                    .badParameter(
                        "path parameter 'uniqueId' must be an apns-unique-id, a UUID (8-4-4-4-12 hex digits); got '\(id)'"
                    ))
            }
            return try await executor.run(.prompt) {
                guard let record = store.latest(uniqueID: id) else {
                    return AdminRouter.errorResponse(
                        .notFound(
                            "no push with apns-unique-id '\(id)' is stored (APNs sends apns-unique-id for sandbox pushes and broadcasts only)"
                        ))
                }
                let deliveries =
                    record.kind == .broadcast
                    ? store.broadcastDeliveries(of: record, limit: deliveryLimit) : nil
                return AdminRouter.json(status: .ok, json(record, uniqueID: id, deliveries: deliveries))
            }
        }
    }

    /// The log's events for `record`: `received`, then its delivery history (a push the model
    /// did not judge: `delivered` when answered), in time order.
    static func events(of record: DeliveryRecord) -> [(event: String, delivery: DeviceDelivery?, at: Int64)] {
        var events: [(event: String, delivery: DeviceDelivery?, at: Int64)] = [("received", nil, record.receivedAt)]
        let history = record.deliveryHistory.isEmpty ? record.delivery.map { [$0] } ?? [] : record.deliveryHistory
        for delivery in history { events.append((delivery.state.rawValue, delivery, delivery.at)) }
        // Stable: a step dated like the one before it stays after it.
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
    }

    static func json(
        _ record: DeliveryRecord, uniqueID: String, deliveries: (deliveries: [DeliveryRecord], more: Bool)?
    ) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        json.beginObject()
        json.key("uniqueId")
        json.string(record.uniqueID?.text ?? uniqueID)
        json.key("kind")
        json.string(record.kind.rawValue)
        json.key("sequence")
        json.number(record.sequence)
        json.key("apnsId")
        json.string(record.apnsID.text)
        json.key("token")
        json.string(record.token)
        json.key("topic")
        json.string(record.topic)
        if record.kind == .broadcast {
            json.key("channelId")
            json.string(record.channelID)
        }
        json.key("events")
        json.beginArray()
        for event in events(of: record) {
            json.beginObject()
            json.key("event")
            json.string(event.event)
            json.key("at")
            json.number(event.at)
            if let delivery = event.delivery {
                if let reason = delivery.reason {
                    json.key("reason")
                    json.string(reason.rawValue)
                }
                if let until = delivery.until {
                    json.key("until")
                    json.number(until)
                }
            }
            json.endObject()
        }
        json.endArray()
        if let deliveries {
            json.key("deliveries")
            json.beginArray()
            for delivery in deliveries.deliveries {
                json.beginObject()
                json.key("sequence")
                json.number(delivery.sequence)
                json.key("token")
                json.string(delivery.token)
                json.key("delivery")
                if let state = delivery.delivery { state.write(to: &json) } else { json.string(nil) }
                json.key("deliveryHistory")
                json.beginArray()
                for change in delivery.deliveryHistory { change.write(to: &json) }
                json.endArray()
                json.endObject()
            }
            json.endArray()
            json.key("moreDeliveries")
            json.bool(deliveries.more)
        }
        json.endObject()
        return json.bytes
    }
}
