import HeapModule

/// When each inbox of the delivery model next changes (a scheduled presence boundary, a held
/// push's expiration, a background budget reopening): a min-heap of (time, inbox), so that the
/// running clock's timer reads the next event in O(1) and time passing judges only the inboxes
/// whose event came, whatever the number of devices (issue 40).
///
/// An inbox's entry is replaced by pushing a new one and remembering its time in `due`; older
/// entries left in the heap are skipped when they surface, and the heap is rebuilt when they
/// outnumber the live ones.
struct DeliverySchedule {
    struct Entry: Comparable {
        var at: Int64
        var inbox: String

        static func < (lhs: Entry, rhs: Entry) -> Bool { (lhs.at, lhs.inbox) < (rhs.at, rhs.inbox) }
    }

    private var heap = Heap<Entry>()
    /// Each scheduled inbox's time: an entry whose time is not this one is stale.
    private var due: [String: Int64] = [:]

    /// How many inboxes have an event to come.
    var count: Int { due.count }

    /// Schedules `inbox` at `at` (`nil`: nothing to come), replacing what it had.
    mutating func schedule(_ inbox: String, at: Int64?) {
        // One hash of the inbox's key either way (a push to a held device reschedules it).
        guard let at else {
            due.removeValue(forKey: inbox)
            return
        }
        guard due.updateValue(at, forKey: inbox) != at else { return }
        heap.insert(Entry(at: at, inbox: inbox))
        if heap.count > 2 * due.count + 1024 { rebuild() }
    }

    /// The earliest event to come, if any (stale entries on top are dropped first).
    mutating func next() -> Int64? {
        dropStale()
        return heap.min?.at
    }

    /// The inboxes whose event is at or before `now`, earliest first; they are no longer
    /// scheduled until `schedule` is called for them again.
    mutating func takeDue(upTo now: Int64) -> [String] {
        var taken: [String] = []
        while true {
            dropStale()
            guard let first = heap.min, first.at <= now else { return taken }
            heap.removeMin()
            due[first.inbox] = nil
            taken.append(first.inbox)
        }
    }

    /// Forgets every event.
    mutating func removeAll() {
        heap = Heap()
        due.removeAll()
    }

    private mutating func dropStale() {
        while let first = heap.min, due[first.inbox] != first.at { heap.removeMin() }
    }

    private mutating func rebuild() {
        heap = Heap(due.map { Entry(at: $0.value, inbox: $0.key) })
    }
}
