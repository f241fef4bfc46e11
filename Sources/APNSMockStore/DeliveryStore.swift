import APNSMockCore
import DequeModule
import Dispatch
import NIOConcurrencyHelpers
import Synchronization

/// Every answered request, newest last, in a bounded in-memory ring.
///
/// Thread-safe and synchronous (a pthread mutex, `NIOLockedValueBox`, which ThreadSanitizer
/// understands; `Synchronization.Mutex`'s contended path is invisible to it), because the
/// transport appends from event-loop threads. When full, the oldest record goes and `dropped` counts it.
/// Records are indexed by device token and by `apns-id`, so those queries never scan.
public final class DeliveryStore: Sendable {
    let state: NIOLockedValueBox<State>
    /// The most records held at once.
    public let capacity: Int
    /// Wakes whoever waits for new records (nobody, usually: then it costs one atomic load).
    public let notifier: DeliveryNotifier
    /// Receives every record once its answer is decided (the journal), if one is set.
    public let sink: (any DeliveryRecordSink)?
    /// Records large broadcasts' deliveries after their answer (`deliver(_:)`), one at a time.
    private let fanOutQueue = DispatchQueue(label: "apns-mock.fan-out", qos: .utility)
    /// Deliveries handed to `deliver(_:)` and not stored yet.
    private let fanOutBacklog = Atomic<Int>(0)
    /// How many devices have an inbox (`State.inboxes`): read without the lock, so a push to
    /// a store where no device has state costs one atomic load.
    let inboxCount = Atomic<Int>(0)
    /// Where the conditions of a device with no inbox are read when a push for it is accepted.
    let conditions: any DeliveryConditionsSource
    /// The store's own table when it was given no source: `setDeliveryConditions` fills it.
    let ownConditions: DeliveryConditionsTable?

    /// Whether accepted pushes are judged by the delivery model: some device has an inbox, or
    /// conditions other than the standard ones. Two atomic loads; while false, no push is.
    var judgesDeliveries: Bool {
        inboxCount.load(ordering: .relaxed) > 0 || conditions.hasDeliveryConditions
    }

    struct State: Sendable {
        var records = Deque<StoredDelivery>()
        let blobs = BlobArena()
        var nextSequence: UInt64 = 1
        var dropped: UInt64 = 0
        /// Records flagged deleted and not yet evicted.
        var deleted = 0
        var interner = StringInterner()
        var byToken: [TokenKey: Deque<UInt64>] = [:]
        /// Ids the clients sent: the newest record of each `apns-id`; `olderByAPNSID` holds the
        /// earlier ones of an id
        /// sent more than once (rare: most ids are generated), so a push adds no list.
        var byAPNSID: APNSIDTable
        var olderByAPNSID: [UUIDKey: Deque<UInt64>] = [:]
        /// Records whose stream is still open (pending or hung): their answer may still change,
        /// so followers watch them. Only delayed and hung streams enter it.
        var unsettled: Set<UInt64> = []
        /// Counts every change of a stored record's answer (`complete`) or its delivery.
        var completions: UInt64 = 0
        /// What the delivery model holds for each device that holds or counts something
        /// (lower-case token). A `Dictionary`: only such devices have one, so its buckets' room
        /// (about 200 bytes an inbox) is not a fleet's, and a push is judged in place in it.
        var inboxes: [String: DeliveryInbox] = [:]
        /// When each inbox next changes with time alone (`DeliveryModel.nextEvent`).
        var schedule = DeliverySchedule()
        /// The delivery history of the records the model judged, by sequence number.
        var judged: [UInt64: [DeviceDelivery]] = [:]
        /// Records whose delivery changed, for the sink (the journal), in the order they changed;
        /// filled only when there is a sink, emptied by `flushJournal` after the lock.
        var journalQueue: [DeliveryRecord] = []
        /// What a broadcast's deliveries share (`BroadcastFanOut.template`, encoded), by number,
        /// with how many stored records refer to it (plus one while the fan-out is being written).
        var sharedParts: [UInt32: SharedPart] = [:]
        var nextSharedPart: UInt32 = 1

        struct SharedPart: Sendable {
            var bytes: [UInt8]
            var references: Int
        }

        /// Calls `body` with the shared part `stored` refers to, if it is a broadcast's delivery.
        func withSharedPart<Result>(
            of stored: StoredDelivery, _ body: (UnsafeRawBufferPointer?) -> Result
        ) -> Result {
            guard stored.flags & StoredDelivery.flagSharedPart != 0,
                let number = RecordCodec.sharedPart(in: blobs[stored.blob]), let part = sharedParts[number]
            else { return body(nil) }
            return part.bytes.withUnsafeBytes { body($0) }
        }

        /// Drops one reference to shared part `number`, and the part with the last.
        mutating func releaseSharedPart(_ number: UInt32) {
            guard let index = sharedParts.index(forKey: number) else { return }
            sharedParts.values[index].references -= 1
            if sharedParts.values[index].references <= 0 { sharedParts.remove(at: index) }
        }

        /// Every record whose client-sent apns-id is `key`, oldest first (`generated`: the
        /// record whose Core-generated id it is, found by `DeliveryStore.generatedSequence`).
        func sequences(apnsID key: UUIDKey, generated: UInt64? = nil) -> Deque<UInt64> {
            var all: Deque<UInt64> = []
            if let latest = byAPNSID[key] {
                all = olderByAPNSID[key] ?? []
                all.append(latest)
            }
            if let generated {
                let position = all.firstIndex { $0 > generated } ?? all.endIndex
                all.insert(generated, at: position)
            }
            return all
        }

        /// One chunk of the search for a generated apns-id: the records numbered below `below`,
        /// newest first, at most `limit` of them. Returns the record found, or where the next
        /// chunk starts (`nil`: the oldest record was read).
        func generatedSequence(_ key: UUIDKey, below: UInt64, above: UInt64, limit: UInt64) -> (
            found: UInt64?, next: UInt64?
        ) {
            guard let oldest = records.first?.sequence else { return (nil, nil) }
            let first = max(oldest, above &+ 1)
            let last = oldest + UInt64(records.count) - 1
            guard below > first, last >= first else { return (nil, nil) }
            let high = min(below - 1, last)
            let low = high - first >= limit ? high - limit + 1 : first
            for index in stride(from: Int(high - oldest), through: Int(low - oldest), by: -1) {
                let stored = records[index]
                if stored.idLow == key.low, stored.flags & StoredDelivery.flagGeneratedID != 0,
                    DeliveryStore.hasAPNSID(stored, key, blobs)
                {
                    return (stored.sequence, nil)
                }
            }
            return (nil, low > first ? low : nil)
        }

        func record(sequence: UInt64) -> StoredDelivery? {
            index(sequence: sequence).map { records[$0] }
        }

        func index(sequence: UInt64) -> Int? {
            guard let first = records.first?.sequence, sequence >= first else { return nil }
            let index = Int(sequence - first)
            return index < records.count ? index : nil
        }
    }

    /// - Parameters:
    ///   - capacity: the most records held; at least 1.
    ///   - sink: receives every record once its answer is decided (`--journal`).
    ///   - conditions: where the conditions of a device with no inbox are read (the registry);
    ///     by default a table of the store's own, which `setDeliveryConditions` fills.
    public init(
        capacity: Int = 100_000, sink: (any DeliveryRecordSink)? = nil,
        conditions: (any DeliveryConditionsSource)? = nil
    ) {
        self.capacity = max(1, capacity)
        self.sink = sink
        let own = conditions == nil ? DeliveryConditionsTable() : nil
        self.ownConditions = own
        self.conditions = conditions ?? own!
        var state = State(byAPNSID: APNSIDTable(capacity: max(1, capacity)))
        // Room for a full store up front: growing rehashes every id while pushes wait. Untouched
        // pages of the table cost no memory.
        state.records.reserveCapacity(self.capacity)
        let box = NIOLockedValueBox(state)
        self.state = box
        notifier = DeliveryNotifier { tokens in
            box.withLockedValue { state in
                var latest: [String: UInt64] = [:]
                for token in tokens { if let last = state.byToken[TokenKey(token)]?.last { latest[token] = last } }
                return latest
            }
        }
    }

    /// Stores `record` and returns its sequence number.
    @discardableResult
    public func append(_ record: DeliveryRecord) -> UInt64 { self.record(record) }

    /// Stores `record` as it was decided (its `sequence` is assigned here) and returns the
    /// sequence number. The store mints nothing: the apns-id is the one the answer carried. A
    /// generated one is not indexed (an index insert at random in a large table costs a cache
    /// and TLB miss per push): its low bits go in a column a look-up scans. Waiters are
    /// signalled after the lock is released.
    @discardableResult
    public func record(_ record: DeliveryRecord) -> UInt64 {
        let sequence = insert(record, restoring: nil)
        notifier.signal()
        if let sink, !record.outcome.isOpen {
            var decided = record
            decided.sequence = sequence
            sink.recordDecided(decided)
        }
        // A push judged for a device with state may have changed an older record (replaced).
        if judgesDeliveries {
            notifier.signalCompletion()
            flushJournal()
        }
        return sequence
    }

    /// Loads records kept from an earlier run (`--restore`), with their own sequence numbers,
    /// into an empty store; later records are numbered after the last. Only the newest records
    /// whose numbers span at most `capacity` are kept; a number missing between two kept records
    /// stays missing (a deleted placeholder holds its place). A record whose answer was still
    /// open is restored as `connectionClosed`: the run that took it ended before answering.
    /// The sink is not told. Returns how many records were loaded (0 when the store is not empty).
    @discardableResult
    public func restore(_ records: [DeliveryRecord]) -> Int {
        guard nextSequence == 1, !records.isEmpty else { return 0 }
        var newest: [UInt64: DeliveryRecord] = [:]
        for record in records where record.sequence > 0 { newest[record.sequence] = record }
        var sequences = newest.keys.sorted()
        guard let last = sequences.last else { return 0 }
        sequences.removeAll { last - $0 >= UInt64(capacity) }
        for sequence in sequences {
            var record = newest[sequence]!
            if record.outcome.isOpen { record.outcome = .connectionClosed }
            insert(record, restoring: sequence)
        }
        notifier.signal()
        return sequences.count
    }

    @discardableResult
    private func insert(_ record: DeliveryRecord, restoring restoredSequence: UInt64?) -> UInt64 {
        let bytes = RecordCodec.encode(record)
        var flags: UInt8 = 0
        if record.apnsID.isGenerated { flags |= StoredDelivery.flagGeneratedID }
        // Every token is indexed as the record holds it (lower case when well-formed); queries
        // read the index only for well-formed tokens, so a malformed one is found by a scan.
        // The key comes from the encoded bytes: a well-formed token is packed there already.
        let indexedToken = record.token == nil ? nil : bytes.withUnsafeBytes { RecordCodec.tokenKey(in: $0) }
        if indexedToken != nil { flags |= StoredDelivery.flagIndexedToken }
        var echoedKey: UUIDKey?
        var idLow: UInt64 = 0
        switch record.apnsID {
        case .echoed(let text): echoedKey = UUIDKey(text)
        case .generated(_, let low, _): idLow = low
        }
        // Everything the lock needs, taken out of the record first (the closure then captures
        // a few values instead of copying the record).
        var stored = StoredDelivery(
            sequence: 0, receivedAt: record.receivedAt, respondedAt: 0, timestamp: StoredDelivery.noTimestamp,
            connectionID: record.connectionID, streamID: record.streamID,
            payloadSize: Int32(clamping: record.payloadSize), status: 0,
            environment: record.environment == .production ? 1 : 0,
            pushType: record.pushType?.code ?? StoredDelivery.noPushType, flags: flags, outcome: 0,
            kind: record.kind.code, reason: 0, fault: 0, topic: 0, blob: BlobRef(chunk: 0, offset: 0, count: 0),
            idLow: idLow)
        let response = record.response
        let outcome = record.outcome
        let faultID = record.faultID
        let topic = record.topic
        let history = record.deliveryHistory
        let judgeable = judgesDeliveries ? Self.deliverable(record) : nil
        return state.withLockedValue { state in
            if let restoredSequence {
                if state.records.isEmpty { state.nextSequence = restoredSequence }
                while state.nextSequence < restoredSequence { Self.appendPlaceholder(&state, capacity: capacity) }
            }
            let sequence = state.nextSequence
            state.nextSequence += 1
            stored.sequence = sequence
            stored.setResponse(
                response, outcome: outcome, reasonID: response?.reason.map { state.interner.id(for: $0.rawValue) } ?? 0)
            if let faultID { stored.fault = state.interner.id(for: faultID) }
            stored.topic = topic.map { state.interner.id(for: $0) } ?? 0
            stored.blob = bytes.withUnsafeBytes { state.blobs.append($0) }
            if state.records.count >= capacity { Self.evictOldest(&state) }
            state.records.append(stored)
            if outcome.isOpen { state.unsettled.insert(sequence) }
            if let indexedToken { state.byToken[indexedToken, default: []].append(sequence) }
            if let echoedKey, let previous = state.byAPNSID.update(sequence, for: echoedKey) {
                state.olderByAPNSID[echoedKey, default: []].append(previous)
            }
            if !history.isEmpty {
                state.judged[sequence] = history
                // A restored record's push is held by nobody now: it cannot change any more.
                if history.last?.state == .stored, restoredSequence == nil { state.unsettled.insert(sequence) }
            } else if var judgeable {
                judgeable.push.sequence = sequence
                judge(judgeable, in: &state)
            }
            return sequence
        }
    }

    /// Broadcasts to at most this many devices have their deliveries stored before their answer
    /// goes out (a test reads them as soon as it has the 200); larger ones after it, in the
    /// background (`deliver(_:)`).
    public static let inlineFanOut = 64

    /// Stores the deliveries of a broadcast: at once when it reaches at most `inlineFanOut`
    /// devices, otherwise in the background, in batches, in token order, one fan-out after
    /// another (`fanOutBacklog` counts what is still to store).
    public func deliver(_ fanOut: BroadcastFanOut) {
        guard fanOut.tokens.count > Self.inlineFanOut else {
            record(fanOut)
            return
        }
        fanOutBacklog.add(fanOut.tokens.count, ordering: .relaxed)
        fanOutQueue.async { [self] in record(fanOut, countingBacklog: true) }
    }

    /// Returns once every broadcast delivery handed to `deliver(_:)` before the call is stored
    /// (a graceful end waits for them, so the journal gets them too).
    public func deliveriesStored() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            fanOutQueue.async { done.resume() }
        }
    }

    /// How many broadcast deliveries are waiting to be stored (`deliver(_:)`).
    public var pendingDeliveries: Int { fanOutBacklog.load(ordering: .relaxed) }

    /// How many shared parts of broadcasts' deliveries are kept (for tests).
    var sharedPartCount: Int { state.withLockedValue { $0.sharedParts.count } }

    /// How many deliveries one lock hold stores.
    static let fanOutBatch = 2048

    /// Stores the deliveries of a broadcast now, in token order: its `template` once, and per
    /// device a record whose blob is a reference to it and the token. Batches of
    /// `fanOutBatch` per lock hold, so pushes wait for one batch at most.
    public func record(_ fanOut: BroadcastFanOut) { record(fanOut, countingBacklog: false) }

    private func record(_ fanOut: BroadcastFanOut, countingBacklog: Bool) {
        guard !fanOut.tokens.isEmpty else { return }
        let tokens = fanOut.tokens.sorted()
        let template = fanOut.template
        let shared = RecordCodec.encode(template)
        var columns = StoredDelivery(
            sequence: 0, receivedAt: template.receivedAt, respondedAt: 0, timestamp: StoredDelivery.noTimestamp,
            connectionID: template.connectionID, streamID: template.streamID,
            payloadSize: Int32(clamping: template.payloadSize), status: 0,
            environment: template.environment == .production ? 1 : 0,
            pushType: template.pushType?.code ?? StoredDelivery.noPushType,
            flags: StoredDelivery.flagSharedPart | StoredDelivery.flagIndexedToken, outcome: 0,
            kind: template.kind.code, reason: 0, fault: 0, topic: 0, blob: BlobRef(chunk: 0, offset: 0, count: 0))
        let echoedKey = UUIDKey(template.apnsID.text)
        let judgeable = Self.deliverable(fanOut.record(for: ""), storagePolicy: fanOut.storagePolicy)
        // The writer's own reference keeps the part while batches are written into a store
        // smaller than the fan-out (which evicts its first deliveries).
        let number = state.withLockedValue { state -> UInt32 in
            let number = state.nextSharedPart
            state.nextSharedPart = number == UInt32.max ? 1 : number + 1
            state.sharedParts[number] = State.SharedPart(bytes: shared, references: 1)
            columns.setResponse(
                template.response, outcome: template.outcome,
                reasonID: template.response?.reason.map { state.interner.id(for: $0.rawValue) } ?? 0)
            if let faultID = template.faultID { columns.fault = state.interner.id(for: faultID) }
            columns.topic = template.topic.map { state.interner.id(for: $0) } ?? 0
            return number
        }
        var start = 0
        while start < tokens.count {
            let batch = tokens[start..<min(start + Self.fanOutBatch, tokens.count)]
            start = batch.endIndex
            let blobs = batch.map { RecordCodec.encodeDelivery(token: $0, sharedPart: number) }
            let keys = blobs.map { $0.withUnsafeBytes { RecordCodec.tokenKey(in: $0) } }
            let judges = judgesDeliveries
            let first = state.withLockedValue { state -> UInt64 in
                // Emptied meanwhile (`removeAll`): the deliveries still to come refer to it again.
                if state.sharedParts[number] == nil {
                    state.sharedParts[number] = State.SharedPart(bytes: shared, references: 1)
                }
                let first = state.nextSequence
                for (blob, key) in zip(blobs, keys) {
                    let sequence = state.nextSequence
                    state.nextSequence += 1
                    var stored = columns
                    stored.sequence = sequence
                    stored.blob = blob.withUnsafeBytes { state.blobs.append($0) }
                    state.sharedParts[number]?.references += 1
                    if state.records.count >= capacity { Self.evictOldest(&state) }
                    state.records.append(stored)
                    if let key { state.byToken[key, default: []].append(sequence) }
                    if let echoedKey, let previous = state.byAPNSID.update(sequence, for: echoedKey) {
                        state.olderByAPNSID[echoedKey, default: []].append(previous)
                    }
                }
                if judges, var judgeable {
                    for (offset, token) in batch.enumerated() {
                        judgeable.token = token
                        judgeable.push.sequence = first + UInt64(offset)
                        judge(judgeable, in: &state)
                    }
                }
                return first
            }
            notifier.signal()
            if let sink {
                for (offset, token) in batch.enumerated() {
                    var record = fanOut.record(for: token)
                    record.sequence = first + UInt64(offset)
                    sink.recordDecided(record)
                }
            }
            if judges {
                notifier.signalCompletion()
                flushJournal()
            }
            if countingBacklog { fanOutBacklog.subtract(batch.count, ordering: .relaxed) }
        }
        state.withLockedValue { $0.releaseSharedPart(number) }
    }

    /// Holds the place of a sequence number missing from a restored journal: a deleted record.
    private static func appendPlaceholder(_ state: inout State, capacity: Int) {
        let sequence = state.nextSequence
        state.nextSequence += 1
        if state.records.count >= capacity { evictOldest(&state) }
        let blob = [UInt8]().withUnsafeBytes { state.blobs.append($0) }
        state.records.append(
            StoredDelivery(
                sequence: sequence, receivedAt: 0, respondedAt: 0, timestamp: StoredDelivery.noTimestamp,
                connectionID: 0, streamID: 0, payloadSize: 0, status: 0, environment: 0,
                pushType: StoredDelivery.noPushType, flags: StoredDelivery.flagDeleted, outcome: 0, kind: 0, reason: 0,
                fault: 0, topic: 0, blob: blob))
        state.deleted += 1
    }

    /// Sets the answer of a record stored without one (or replaces it): `response` when one went
    /// out, else `nil` and the `outcome` that says why not. Returns `false` when the record is
    /// no longer stored.
    @discardableResult
    /// - Parameter channelID: the channel the answer's effect made (a delayed channel create),
    ///   which the record names from now on.
    public func complete(
        sequence: UInt64, with response: DeliveryResponse?, outcome: DeliveryOutcome? = nil, channelID: String? = nil
    ) -> Bool {
        let outcome = outcome ?? (response == nil ? .pending : response!.goAway ? .goAway : .answered)
        let journaled = sink != nil && !outcome.isOpen
        let judges = judgesDeliveries
        // (stored, the decided record for the sink)
        let (done, decided) = state.withLockedValue { state -> (Bool, DeliveryRecord?) in
            guard let index = state.index(sequence: sequence) else { return (false, nil) }
            if let channelID { Self.rename(channelID, of: index, in: &state) }
            let reasonID = response?.reason.map { state.interner.id(for: $0.rawValue) } ?? 0
            state.records[index].setResponse(response, outcome: outcome, reasonID: reasonID)
            if outcome.isOpen { state.unsettled.insert(sequence) } else { state.unsettled.remove(sequence) }
            if response?.status == 200, judges, state.judged[sequence] == nil,
                var judgeable = Self.deliverable(Self.decode(state.records[index], state))
            {
                judgeable.push.sequence = sequence
                judge(judgeable, in: &state)
            }
            state.completions &+= 1
            return (true, journaled ? Self.decode(state.records[index], state) : nil)
        }
        if done { notifier.signalCompletion() }
        if let decided { sink?.recordDecided(decided) }
        if judges { flushJournal() }
        return done
    }

    /// Gives the record at `index` the channel `channelID`: its blob written again with it (the
    /// old one released; a rare path: a channel create answered after a delay).
    private static func rename(_ channelID: String, of index: Int, in state: inout State) {
        let stored = state.records[index]
        var record = decode(stored, state)
        guard record.channelID != channelID, stored.flags & StoredDelivery.flagSharedPart == 0 else { return }
        record.channelID = channelID
        let bytes = RecordCodec.encode(record)
        state.records[index].blob = bytes.withUnsafeBytes { state.blobs.append($0) }
        state.blobs.release(stored.blob)
    }

    private static func evictOldest(_ state: inout State) {
        guard let oldest = state.records.popFirst() else { return }
        state.dropped += 1
        if !state.unsettled.isEmpty { state.unsettled.remove(oldest.sequence) }
        if !state.judged.isEmpty { state.judged.removeValue(forKey: oldest.sequence) }
        if oldest.isDeleted { state.deleted -= 1 }
        defer { state.blobs.release(oldest.blob) }
        let blob = state.blobs[oldest.blob]
        let sharedPart = oldest.flags & StoredDelivery.flagSharedPart != 0 ? RecordCodec.sharedPart(in: blob) : nil
        // Mutate the index entries in place (one hash): copying a token's list out and back
        // would copy every sequence number of that token on every eviction.
        if oldest.flags & StoredDelivery.flagIndexedToken != 0, let token = RecordCodec.tokenKey(in: blob),
            let index = state.byToken.index(forKey: token)
        {
            state.byToken.values[index].removeFirst()
            if state.byToken.values[index].isEmpty { state.byToken.remove(at: index) }
        }
        // A generated id has no index entry (its record's sequence number is in it). A broadcast's
        // delivery has its id in its shared part.
        let apnsIDKey =
            oldest.flags & StoredDelivery.flagGeneratedID != 0
            ? nil
            : sharedPart == nil
                ? RecordCodec.apnsIDKey(in: blob)
                : state.withSharedPart(of: oldest) { $0.flatMap(RecordCodec.apnsIDKey(in:)) }
        if let sharedPart { state.releaseSharedPart(sharedPart) }
        if let key = apnsIDKey {
            // The oldest record of its id: the newest when the id was sent once.
            if state.byAPNSID[key] == oldest.sequence {
                state.byAPNSID.remove(key)
            } else {
                state.olderByAPNSID[key]?.removeFirst()
                if state.olderByAPNSID[key]?.isEmpty == true { state.olderByAPNSID[key] = nil }
            }
        }
    }

    /// Empties the store. Sequence numbers keep counting; `dropped` is unchanged.
    public func removeAll() {
        state.withLockedValue { state in
            state.records.removeAll()
            state.blobs.removeAll()
            state.byToken.removeAll()
            state.byAPNSID = APNSIDTable(capacity: capacity)
            state.olderByAPNSID.removeAll()
            state.sharedParts.removeAll()
            state.unsettled.removeAll()
            state.judged.removeAll()
            for token in state.inboxes.keys {
                guard var inbox = state.inboxes[token] else { continue }
                inbox.held.removeAll()
                keep(inbox, of: token, in: &state)
            }
            state.deleted = 0
        }
    }

    /// Deletes the records `matcher` matches (every record when it is empty); returns how many.
    /// Deleted records are skipped by every reader; their memory returns when they age out.
    /// - Parameter analyses: for `lint` and `preview` conditions.
    @discardableResult
    public func remove(matching matcher: DeliveryMatcher, analyses: PayloadAnalyses? = nil) -> Int {
        guard !matcher.isEmpty else {
            let count = self.count
            removeAll()
            return count
        }
        var sequences: [UInt64] = []
        var cursor: UInt64 = 0
        while true {
            let page = query(DeliveryQuery(matcher: matcher, since: cursor, limit: 10_000), analyses: analyses)
            sequences += page.deliveries.map(\.sequence)
            guard let next = page.next else { break }
            cursor = next
        }
        return state.withLockedValue { state in
            var removed = 0
            for sequence in sequences {
                guard let index = state.index(sequence: sequence), !state.records[index].isDeleted else { continue }
                state.records[index].flags |= StoredDelivery.flagDeleted
                state.deleted += 1
                removed += 1
            }
            return removed
        }
    }

    /// The sequence number the next record will get.
    public var nextSequence: UInt64 { state.withLockedValue { $0.nextSequence } }

    /// Number of records held.
    public var count: Int { state.withLockedValue { $0.records.count - $0.deleted } }

    /// The oldest stored sequence number, or `nextSequence` when the store is empty.
    public var firstSequence: UInt64 {
        state.withLockedValue { $0.records.first?.sequence ?? $0.nextSequence }
    }

    /// Number of records dropped to stay within `capacity`.
    public var dropped: UInt64 { state.withLockedValue { $0.dropped } }

    /// How many times a stored record's answer has changed (`complete`): a follower that saw a
    /// record still waiting looks at it again when this moves.
    public var completionCount: UInt64 { state.withLockedValue { $0.completions } }

    /// The records in `range` whose stream is still open (pending or hung), ascending.
    public func unsettledSequences(in range: Range<UInt64>) -> [UInt64] {
        state.withLockedValue { state in
            guard !state.unsettled.isEmpty else { return [] }
            return state.unsettled.filter { range.contains($0) }.sorted()
        }
    }

    /// The records with these sequence numbers that are still stored and not deleted, as
    /// readers see them (not analysed).
    func records(sequences: [UInt64]) -> [DeliveryRecord] {
        state.withLockedValue { state in
            sequences.compactMap { sequence in
                guard let stored = state.record(sequence: sequence), !stored.isDeleted else { return nil }
                return Self.decode(stored, state)
            }
        }
    }

    /// The record with `sequence`, if still stored (not analysed: see `DeliveryReader`).
    public func record(sequence: UInt64) -> DeliveryRecord? {
        state.withLockedValue { state -> DeliveryRecord? in
            guard let stored = state.record(sequence: sequence), !stored.isDeleted else { return nil }
            return Self.decode(stored, state)
        }
    }

    /// The most recent record with `apnsID` (any letter case), if any.
    public func latest(apnsID: String) -> DeliveryRecord? {
        guard let key = UUIDKey(apnsID) else { return nil }
        let sent = state.withLockedValue { state -> (record: DeliveryRecord?, sequence: UInt64) in
            for sequence in state.sequences(apnsID: key).reversed() {
                if let stored = state.record(sequence: sequence), !stored.isDeleted {
                    return (Self.decode(stored, state), sequence)
                }
            }
            return (nil, 0)
        }
        // Only a generated id newer than the newest record a client sent it on is more recent.
        if let sequence = generatedSequence(key, above: sent.sequence), let generated = record(sequence: sequence) {
            return generated
        }
        return sent.record
    }

    /// The record whose Core-generated apns-id is `key`, if one is stored numbered above
    /// `above`. A generated id is not indexed: its low 64 bits are a column
    /// (`StoredDelivery.idLow`), read newest first, `scanChunk` records per lock hold, so that
    /// pushes wait for one chunk at most (a missing id in a full store of a million reads 8 MB
    /// of column, in 245 holds).
    func generatedSequence(_ key: UUIDKey, above: UInt64 = 0) -> UInt64? {
        // Core's ids are version 4, RFC 4122 variant: no other key can be one.
        guard key.low >> 62 == 0b10, (key.high >> 12) & 0xF == 4 else { return nil }
        var below = UInt64.max
        while true {
            let chunk = state.withLockedValue {
                $0.generatedSequence(key, below: below, above: above, limit: Self.scanChunk)
            }
            if let found = chunk.found { return found }
            guard let next = chunk.next else { return nil }
            below = next
        }
    }

    /// One page of the records `query` asks for (not analysed: see `DeliveryReader`).
    ///
    /// `QueryPlan` says which index to read and what the fixed columns decide; `QueryExecution`
    /// collects the page. An index look-up or an unfiltered page takes the lock once; a filtered
    /// scan takes it once per chunk of `scanChunk` records, so pushes wait for one chunk at
    /// most. Records a `lint` or `preview` condition must see analysed are decoded under the
    /// lock and analysed and matched outside it (by `analyses`; without it those conditions
    /// match nothing).
    public func query(_ query: DeliveryQuery, analyses: PayloadAnalyses? = nil) -> DeliveryPage {
        var plan = state.withLockedValue { QueryPlan(query.matcher, interner: $0.interner) }
        guard !plan.matchesNothing else { return DeliveryPage(deliveries: [], next: nil, total: 0, dropped: dropped) }
        if let key = plan.indexedAPNSID { plan.generatedSequence = generatedSequence(key) }
        var execution = QueryExecution(query: query, plan: plan, analyses: analyses)
        var start = state.withLockedValue { execution.begin(in: $0) }
        while true {
            switch start {
            case .done:
                return execution.page(dropped: dropped)
            case .indexed(let chunk):
                state.withLockedValue { execution.consider(chunk, in: $0) }
                execution.matchAnalysed()
                start = execution.nextIndexedChunk()
            case .scan(let from):
                start = state.withLockedValue { execution.scan(from: from, in: $0) }
                execution.matchAnalysed()
            }
        }
    }

    /// Records a filtered scan reads per lock hold.
    static let scanChunk: UInt64 = 4096

    /// The most records one `summary` covers: one lock hold.
    public static let summaryLimit: UInt64 = scanChunk

    /// A summary of the records after `cursor` through `last` (at most `summaryLimit` of them:
    /// a longer range is cut there) that `matcher` matches, taken in one hold of the lock.
    /// Conditions the columns decide (status, reason, topic, push type, outcome, kind, …) and an
    /// indexed token cost no decoding; others (`tokenPrefix`, headers, payload) decode each
    /// record to match it, without rendering it; `lint` and `preview` conditions, which need the
    /// payload analysed, match nothing here. Records that aged out before `last` are counted in
    /// `agedOut`. The range ends at the newest record at most; `nil` when it is empty.
    public func summary(of matcher: DeliveryMatcher, after cursor: UInt64, through last: UInt64) -> DeliverySummary? {
        guard cursor < last else { return nil }
        let wanted = last - cursor > Self.summaryLimit ? cursor + Self.summaryLimit : last
        return state.withLockedValue { state -> DeliverySummary? in
            // Never past the newest record: a number not given out yet is not summarised.
            let last = min(wanted, state.nextSequence - 1)
            guard cursor < last else { return nil }
            let first = state.records.first?.sequence ?? state.nextSequence
            let agedOut = first > cursor + 1 ? min(last, first - 1) - cursor : 0
            var tally = DeliverySummary.Tally()
            var plan = QueryPlan(matcher, interner: state.interner)
            let low = max(cursor + 1, first)
            let high = last
            if let key = plan.indexedAPNSID, low <= high {
                // A Core-generated id is not indexed: looked for in this range (one chunk at most).
                plan.generatedSequence =
                    state.generatedSequence(key, below: high &+ 1, above: low - 1, limit: Self.summaryLimit).found
            }
            guard !plan.matchesNothing, low <= high else {
                return tally.summary(from: cursor + 1, to: last, agedOut: agedOut)
            }
            func consider(_ sequence: UInt64) {
                guard let stored = state.record(sequence: sequence), !stored.isDeleted, plan.columnsMatch(stored),
                    !plan.needsDecoding || matcher.matches(Self.decode(stored, state))
                else { return }
                tally.add(stored)
            }
            if let indexed = plan.indexedSequences(state) {
                // Ascending: from the first at or after `low`, found by bisection.
                var lower = indexed.startIndex
                var upper = indexed.endIndex
                while lower < upper {
                    let middle = (lower + upper) / 2
                    if indexed[middle] < low { lower = middle + 1 } else { upper = middle }
                }
                for sequence in indexed[lower...] {
                    guard sequence <= high else { break }
                    consider(sequence)
                }
            } else {
                for sequence in low...high { consider(sequence) }
            }
            return tally.summary(from: cursor + 1, to: last, agedOut: agedOut)
        }
    }

    /// The record as readers see it.
    static func decode(_ stored: StoredDelivery, _ state: State) -> DeliveryRecord {
        let interner = state.interner
        let generated = stored.flags & StoredDelivery.flagGeneratedID != 0
        var record = DeliveryRecord(
            receivedAt: stored.receivedAt, connectionID: stored.connectionID, streamID: stored.streamID,
            environment: stored.environment == 1 ? .production : .sandbox, method: "", path: "", authority: nil,
            headerBlock: HeaderBlock(), token: nil, topic: interner.string(for: stored.topic),
            pushType: APNSPushType(code: stored.pushType), apnsID: .echoed(""), uniqueID: nil, payload: [],
            payloadSize: Int(stored.payloadSize), authentication: nil,
            response: stored.flags & StoredDelivery.flagPending != 0
                ? nil
                : DeliveryResponse(
                    status: stored.status == 0 ? nil : Int(stored.status),
                    reason: interner.string(for: stored.reason).map(APNSReason.init(rawValue:)),
                    timestamp: stored.timestamp == StoredDelivery.noTimestamp ? nil : stored.timestamp,
                    respondedAt: stored.respondedAt, goAway: stored.flags & StoredDelivery.flagGoAway != 0),
            outcome: DeliveryOutcome(code: stored.outcome), faultID: interner.string(for: stored.fault),
            kind: RecordKind(code: stored.kind))
        record.sequence = stored.sequence
        state.withSharedPart(of: stored) { shared in
            RecordCodec.decode(state.blobs[stored.blob], shared: shared, into: &record, generatedID: generated)
        }
        if !state.judged.isEmpty, let history = state.judged[stored.sequence] { record.deliveryHistory = history }
        return record
    }

    fileprivate static func hasAPNSID(_ record: StoredDelivery, _ key: UUIDKey, _ blobs: BlobArena) -> Bool {
        RecordCodec.apnsIDKey(in: blobs[record.blob]) == key
    }
}
