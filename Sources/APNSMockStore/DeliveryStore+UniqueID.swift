import APNSMockCore
import DequeModule
import NIOConcurrencyHelpers

/// Looking a record up by its `apns-unique-id` (what APNs answers a sandbox push with, and
/// every broadcast), as the Push Notifications Console's delivery log does. Not indexed: a
/// unique id is asked for by a person, rarely, so the records are read newest first,
/// `scanChunk` per lock hold (pushes wait for one chunk at most), each one's blob alone.
extension DeliveryStore {
    /// The most recent record whose `apns-unique-id` is `uniqueID` (any letter case); `nil`
    /// when `uniqueID` is no UUID or no such record is stored.
    public func latest(uniqueID: String) -> DeliveryRecord? {
        guard let key = UUIDKey(uniqueID) else { return nil }
        var below = UInt64.max
        while true {
            let chunk = state.withLockedValue { state -> (found: DeliveryRecord?, next: UInt64?) in
                let (found, next) = state.uniqueIDSequence(key, below: below, limit: Self.scanChunk)
                return (found.flatMap { state.index(sequence: $0) }.map { Self.decode(state.records[$0], state) }, next)
            }
            if let found = chunk.found { return found }
            guard let next = chunk.next else { return nil }
            below = next
        }
    }

    /// The deliveries a broadcast made to subscribed devices (`viaChannel` records with its
    /// apns-id, stored after it), oldest first, at most `limit`; and whether there are more.
    public func broadcastDeliveries(of broadcast: DeliveryRecord, limit: Int) -> (
        deliveries: [DeliveryRecord], more: Bool
    ) {
        var found: [DeliveryRecord] = []
        var since = broadcast.sequence
        let matcher = DeliveryMatcher([.apnsID(broadcast.apnsID.text), .kind(.push)])
        while found.count <= limit {
            let page = query(DeliveryQuery(matcher: matcher, since: since, limit: limit + 1 - found.count))
            found += page.deliveries.filter(\.viaChannel)
            guard let next = page.next, next > since else { break }
            since = next
        }
        let more = found.count > limit
        return (Array(found.prefix(limit)), more)
    }
}

extension DeliveryStore.State {
    /// One chunk of the search for a unique id: the records numbered below `below`, newest
    /// first, at most `limit` of them. Returns the record found, or where the next chunk starts
    /// (`nil`: the oldest record was read).
    func uniqueIDSequence(_ key: UUIDKey, below: UInt64, limit: UInt64) -> (found: UInt64?, next: UInt64?) {
        guard let first = records.first?.sequence else { return (nil, nil) }
        let last = first + UInt64(records.count) - 1
        guard below > first else { return (nil, nil) }
        let high = min(below - 1, last)
        let low = high - first >= limit ? high - limit + 1 : first
        for index in stride(from: Int(high - first), through: Int(low - first), by: -1) {
            let stored = records[index]
            guard stored.flags & (StoredDelivery.flagSharedPart | StoredDelivery.flagDeleted) == 0,
                RecordCodec.uniqueIDKey(in: blobs[stored.blob]) == key
            else { continue }
            return (stored.sequence, nil)
        }
        return (nil, low > first ? low : nil)
    }
}
