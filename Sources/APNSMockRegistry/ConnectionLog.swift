import APNSMockCore
import NIOConcurrencyHelpers

/// Live and recently closed APNs connections with what happened on each: the TLS handshake
/// (its result, version, ALPN, server name, client certificate), SETTINGS and GOAWAY sent or
/// received, streams reset, the close. The transport writes it (per connection, never per
/// answered request); `GET /v1/connections` reads it.
///
/// Thread-safe (a `NIOLockedValueBox`).
public final class ConnectionLog: Sendable {
    /// One thing that happened on a connection, and when.
    public struct Event: Sendable, Equatable {
        /// Epoch milliseconds.
        public var at: Int64
        public var event: ConnectionEvent

        public init(at: Int64, _ event: ConnectionEvent) {
            self.at = at
            self.event = event
        }

        /// `opened`, `handshake`, `handshakeFailed`, `settingsSent`, `goawaySent`,
        /// `goawayReceived`, `streamReset`, `closed`.
        public var kind: String { event.kind }
        /// The event's fields, written into its JSON object in order.
        public var details: [(key: String, value: JSONValue)] { event.details }
    }

    /// One connection's entry.
    public struct Connection: Sendable {
        public var id: UInt64
        /// `127.0.0.1:54321`.
        public var peer: String
        public var openedAt: Int64
        public var closedAt: Int64?
        public var events: [Event]
        /// Events not kept once `eventLimit` was reached.
        public var droppedEvents: Int
    }

    private struct State {
        var live: [UInt64: Connection] = [:]
        /// Closed connections, oldest first, at most `closedLimit`.
        var closed: [Connection] = []
    }

    private let state = NIOLockedValueBox(State())
    /// Closed connections kept.
    public let closedLimit: Int
    /// Events kept per connection.
    public let eventLimit: Int

    public init(closedLimit: Int = 200, eventLimit: Int = 200) {
        self.closedLimit = closedLimit
        self.eventLimit = eventLimit
    }

    /// A connection was accepted.
    public func opened(id: UInt64, peer: String, at: Int64) {
        let connection = Connection(
            id: id, peer: peer, openedAt: at, closedAt: nil, events: [Event(at: at, .opened)], droppedEvents: 0)
        state.withLockedValue { $0.live[id] = connection }
    }

    /// Adds `event`, which happened `at`, to a live connection.
    public func note(_ id: UInt64, at: Int64, _ event: ConnectionEvent) {
        note(id, Event(at: at, event))
    }

    /// Adds `event` to a live connection.
    public func note(_ id: UInt64, _ event: Event) {
        state.withLockedValue { state in
            guard let index = state.live.index(forKey: id) else { return }
            if state.live.values[index].events.count < eventLimit {
                state.live.values[index].events.append(event)
            } else {
                state.live.values[index].droppedEvents += 1
            }
        }
    }

    /// The connection closed: it moves to the closed list. `by` is `client` or `server`, and
    /// `reason` says why in words.
    public func closed(id: UInt64, at: Int64, by: String, reason: String) {
        state.withLockedValue { state in
            guard var connection = state.live.removeValue(forKey: id) else { return }
            connection.closedAt = at
            connection.events.append(Event(at: at, .closed(by: by, reason: reason)))
            state.closed.append(connection)
            if state.closed.count > closedLimit { state.closed.removeFirst(state.closed.count - closedLimit) }
        }
    }

    /// Live connections then closed ones, each in id order.
    public func connections() -> [Connection] {
        state.withLockedValue { state in
            state.live.values.sorted { $0.id < $1.id } + state.closed.sorted { $0.id < $1.id }
        }
    }

    /// Forgets closed connections (`POST /v1/reset`); live ones stay.
    public func removeClosed() {
        state.withLockedValue { $0.closed.removeAll() }
    }

    /// `{"connections": [...]}`, optionally only live ones.
    public func json(liveOnly: Bool = false) -> [UInt8] {
        var json = JSONWriter(capacity: 4096)
        json.beginObject()
        json.key("connections")
        json.beginArray()
        for connection in connections() where !liveOnly || connection.closedAt == nil {
            json.beginObject()
            json.key("id")
            json.number(connection.id)
            json.key("peer")
            json.string(connection.peer)
            json.key("state")
            json.string(connection.closedAt == nil ? "open" : "closed")
            json.key("openedAt")
            json.number(connection.openedAt)
            json.key("closedAt")
            json.number(connection.closedAt)
            json.key("events")
            json.beginArray()
            for event in connection.events {
                json.beginObject()
                json.key("at")
                json.number(event.at)
                json.key("kind")
                json.string(event.kind)
                for (key, value) in event.details {
                    json.key(escaping: key)
                    json.raw(value.jsonText.utf8)
                }
                json.endObject()
            }
            json.endArray()
            json.key("droppedEvents")
            json.number(connection.droppedEvents)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
