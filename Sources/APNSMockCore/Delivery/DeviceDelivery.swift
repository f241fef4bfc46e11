/// What became of an accepted push after its 200: a record's `delivery`.
///
/// ```json
/// {"state": "stored", "reason": null, "at": 1795331883008, "until": 1797923883008}
/// ```
///
/// Apple's model (*Viewing the status of push notifications using Metrics and APNs*): an
/// accepted push is delivered, stored (the device is offline or saving power) or discarded.
public struct DeviceDelivery: Sendable, Hashable {
    /// Where the push is.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// It reached the device.
        case delivered
        /// APNs holds it for the device (offline, saving power, or over its background budget).
        case stored
        /// It will never reach the device (`reason` says why).
        case discarded
    }

    /// Why a push was discarded.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// Its `apns-expiration` passed before the device could get it (an expiration of 0:
        /// the device could not get it at once; a channel with storage policy 0: likewise).
        case expired
        /// A newer push for the same app took the single storage slot, or a newer one with
        /// its `apns-collapse-id` took its place while it was held.
        case replaced
        /// The user turned notifications off for the app (alert pushes only).
        case notificationsDisabled
        /// The app is not installed: the token is no longer active.
        case tokenInactive
    }

    public var state: State
    /// Why it was discarded; `nil` otherwise.
    public var reason: Reason?
    /// When it got to this state, epoch milliseconds (mock clock).
    public var at: Int64
    /// While stored: when it expires, epoch milliseconds.
    public var until: Int64?

    public init(state: State, reason: Reason? = nil, at: Int64, until: Int64? = nil) {
        self.state = state
        self.reason = reason
        self.at = at
        self.until = until
    }

    /// Delivered at `at`.
    public static func delivered(at: Int64) -> Self { Self(state: .delivered, at: at) }
    /// Stored at `at` until `until`.
    public static func stored(at: Int64, until: Int64) -> Self { Self(state: .stored, at: at, until: until) }
    /// Discarded at `at` for `reason`.
    public static func discarded(_ reason: Reason, at: Int64) -> Self {
        Self(state: .discarded, reason: reason, at: at)
    }

    /// Writes the `delivery` object.
    public func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("state")
        json.string(state.rawValue)
        json.key("reason")
        json.string(reason?.rawValue)
        json.key("at")
        json.number(at)
        json.key("until")
        json.number(until)
        json.endObject()
    }
}
