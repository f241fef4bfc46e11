import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Hummingbird

/// `GET`, `POST` and `DELETE /v1/clock`: the server's clock (`MockClock`), which everything it
/// dates and ages reads — record times, provider-token ages, fault windows, modes with a
/// duration, the throttle.
enum ClockRoutes {
    /// The body `POST /v1/clock` takes, for its errors.
    static let bodyShape = #"{"advance": "10m"} or {"set": <epoch milliseconds>}"#
    /// The farthest one `advance` moves the clock: a year.
    static let maximumAdvanceMilliseconds: Int64 = 366 * 86_400_000

    /// `GET /v1/clock`.
    static func getClock(_ clock: MockClock) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                return AdminRouter.json(status: .ok, json(clock))
            }
        }
    }

    /// `POST /v1/clock`: `{"advance": "10m"}` or `{"set": <epoch milliseconds>}`, never before
    /// the newest record in `store`.
    static func moveClock(_ clock: MockClock, store: DeliveryStore) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                let body = try await RegistryRoutes.readJSON(request, shape: bodyShape)
                guard case .object(let members) = body else {
                    throw .badRequest("the body must be an object: \(bodyShape)")
                }
                for member in members where member.key != "advance" && member.key != "set" {
                    throw .badRequest("unknown field '\(member.key)'; the body is \(bodyShape)")
                }
                switch (body["advance"], body["set"]) {
                case (let advance?, nil):
                    guard case .string(let text) = advance, let seconds = DurationText.seconds(text),
                        seconds > 0, seconds * 1000 <= Double(maximumAdvanceMilliseconds)
                    else {
                        throw .badRequest(
                            "'advance' must be a duration such as \"90s\", \"10m\" or \"2h\" (more than 0, up to 366 days); got \(advance.jsonText). The clock only moves forward: to go back, use {\"set\": <epoch milliseconds>} or DELETE /v1/clock"
                        )
                    }
                    clock.advance(by: Int64((seconds * 1000).rounded()))
                case (nil, let set?):
                    guard case .number(let value, _) = set, value >= 0, value <= 253_402_300_799_999,
                        value == value.rounded()
                    else {
                        throw .badRequest(
                            "'set' must be a time in epoch milliseconds (a whole number from 0 to 253402300799999); got \(set.jsonText)"
                        )
                    }
                    let target = Int64(value)
                    if let newest = store.query(DeliveryQuery(limit: 1, order: .desc)).deliveries.first,
                        target < newest.receivedAt
                    {
                        throw .badRequest(
                            "the clock cannot be set to \(target), before the newest record (sequence \(newest.sequence), received at \(newest.receivedAt)): records would be dated after now. Set a later time, or DELETE /v1/deliveries first"
                        )
                    }
                    clock.set(to: target)
                default:
                    throw .badRequest("the body takes one of 'advance' and 'set': \(bodyShape)")
                }
                return AdminRouter.json(status: .ok, json(clock))
            }
        }
    }

    /// `DELETE /v1/clock`: back to the system clock.
    static func resetClock(_ clock: MockClock) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                clock.reset()
                return AdminRouter.json(status: .ok, json(clock))
            }
        }
    }

    /// `{"now": …, "offsetMs": …, "mode": "system" | "manual"}`.
    static func json(_ clock: MockClock) -> [UInt8] {
        var json = JSONWriter(capacity: 96)
        json.beginObject()
        json.key("now")
        json.number(clock.now())
        json.key("offsetMs")
        json.number(clock.offsetMilliseconds)
        json.key("mode")
        json.string(clock.standsStill ? "manual" : "system")
        json.endObject()
        return json.bytes
    }
}
