import APNSMockCore
import DequeModule
import NIOConcurrencyHelpers

/// Every answered request, newest last, in a bounded in-memory ring.
///
/// Thread-safe and synchronous (a pthread mutex, `NIOLockedValueBox`, which ThreadSanitizer
/// understands; `Synchronization.Mutex`'s contended path is invisible to it), because the
/// transport appends from event-loop threads. When full, the oldest record goes and `dropped` counts it.
/// Records are indexed by device token and by `apns-id`, so those queries never scan.
public final class DeliveryStore: Sendable {
    private let state: NIOLockedValueBox<State>
    /// The most records held at once.
    public let capacity: Int

    private struct State: Sendable {
        var records = Deque<StoredDelivery>()
        let blobs = BlobArena()
        var nextSequence: UInt64 = 1
        var dropped: UInt64 = 0
        var interner = StringInterner()
        var byToken: [String: Deque<UInt64>] = [:]
        /// Ids the clients sent: the newest record of each `apns-id`; `olderByAPNSID` holds the
        /// earlier ones of an id
        /// sent more than once (rare: most ids are generated), so a push adds no list.
        var byAPNSID: APNSIDTable
        var olderByAPNSID: [UUIDKey: Deque<UInt64>] = [:]

        /// Generated ids carry their record's sequence number, permuted with this secret (see
        /// `GeneratedMessageID`), so they need no index entry.
        let idSecret = UInt64.random(in: 0...UInt64.max)

        /// Every record with `key` as its apns-id, oldest first.
        func sequences(apnsID key: UUIDKey) -> Deque<UInt64> {
            var all: Deque<UInt64> = []
            if let latest = byAPNSID[key] {
                all = olderByAPNSID[key] ?? []
                all.append(latest)
            }
            if let generated = generatedSequence(key) {
                let position = all.firstIndex { $0 > generated } ?? all.endIndex
                all.insert(generated, at: position)
            }
            return all
        }

        /// The record whose generated apns-id is `key`, if one is stored.
        func generatedSequence(_ key: UUIDKey) -> UInt64? {
            guard let sequence = GeneratedMessageID.sequence(of: key, secret: idSecret),
                let stored = record(sequence: sequence), stored.flags & StoredDelivery.flagGeneratedID != 0,
                DeliveryStore.hasAPNSID(stored, key, blobs)
            else { return nil }
            return sequence
        }

        func record(sequence: UInt64) -> StoredDelivery? {
            guard let first = records.first?.sequence, sequence >= first else { return nil }
            let index = Int(sequence - first)
            return index < records.count ? records[index] : nil
        }
    }

    /// - Parameter capacity: the most records held; at least 1.
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
        var state = State(byAPNSID: APNSIDTable(capacity: max(1, capacity)))
        // Room for a full store up front: growing rehashes every id while pushes wait. Untouched
        // pages of the table cost no memory.
        state.records.reserveCapacity(self.capacity)
        self.state = NIOLockedValueBox(state)
    }

    /// Stores `draft` and returns its sequence number.
    @discardableResult
    public func append(_ draft: DeliveryDraft) -> UInt64 { record(draft).sequence }

    /// What `record` stored: the sequence number, and the apns-id the answer must carry.
    public struct Receipt: Sendable {
        public var sequence: UInt64
        /// The draft's id, except that a generated one gets the bits that tie it to `sequence`.
        public var apnsID: ResponseMessageID
    }

    /// Stores `draft`. A generated apns-id is completed here from the record's sequence number,
    /// so that looking it up needs no index (an index insert at random in a large table costs
    /// a cache and TLB miss per push).
    public func record(_ draft: DeliveryDraft) -> Receipt {
        var writer = BlobWriter(
            capacity: 96 + draft.path.utf8.count + draft.payload.count + draft.headerBlock.bytes.count)
        writer.string(draft.method)
        let tokenPathIsCanonical = draft.deviceToken.map { draft.path.utf8.count == 10 + $0.utf8.count } ?? false
        writer.string(tokenPathIsCanonical ? "" : draft.path)
        writer.string(draft.authority ?? "")
        writer.string(draft.deviceToken ?? "")
        var generatedIDOffset: Int?
        switch draft.apnsID {
        case .generated:
            writer.varint(36)
            generatedIDOffset = writer.bytes.count
            writer.bytes.append(contentsOf: repeatElement(0, count: 36))  // written under the lock
        case .echoed(let text):
            writer.string(text)
        }
        if let uniqueID = draft.uniqueID { uniqueID.withUTF8 { writer.bytes($0) } } else { writer.varint(0) }
        writer.raw(draft.payload)
        Self.writeAuthentication(draft.authentication, to: &writer)
        // The headers last: their encoded length is known only once written.
        writer.varint(draft.headerBlock.count)
        draft.headerBlock.encode(into: &writer.bytes, strippingTokenSignatures: true)
        var flags: UInt8 = 0
        if draft.apnsID.isGenerated { flags |= StoredDelivery.flagGeneratedID }
        if draft.authority != nil { flags |= StoredDelivery.flagHasAuthority }
        if draft.uniqueID != nil { flags |= StoredDelivery.flagHasUniqueID }
        if draft.deviceToken != nil { flags |= StoredDelivery.flagHasToken }
        if draft.goAway { flags |= StoredDelivery.flagGoAway }
        var echoedKey: UUIDKey?
        if case .echoed(let text) = draft.apnsID { echoedKey = UUIDKey(text) }
        // Everything the lock needs, taken out of the draft first (the closure then captures
        // a few values instead of copying the draft).
        var stored = StoredDelivery(
            sequence: 0, receivedAt: draft.receivedAt, respondedAt: draft.respondedAt,
            connectionID: draft.connectionID, streamID: draft.streamID,
            payloadSize: Int32(clamping: draft.payloadSize), status: UInt16(clamping: draft.status),
            environment: draft.environment == .production ? 1 : 0,
            pushType: draft.pushType?.code ?? StoredDelivery.noPushType, flags: flags, reason: 0, topic: 0,
            blob: BlobRef(chunk: 0, offset: 0, count: 0))
        let reason = draft.reason
        let topic = draft.topic
        let deviceToken = draft.deviceToken
        var apnsID = draft.apnsID
        return state.withLockedValue { state in
            let sequence = state.nextSequence
            state.nextSequence += 1
            if case .generated(let high, _, let lowercase) = apnsID, let offset = generatedIDOffset {
                let low = GeneratedMessageID.low(sequence: sequence, secret: state.idSecret)
                apnsID = .generated(high: high, low: low, lowercase: lowercase)
                writer.bytes.withUnsafeMutableBufferPointer { bytes in
                    APNSMessageID.write(
                        high: high, low: low, lowercase: lowercase,
                        into: UnsafeMutableBufferPointer(rebasing: bytes[offset..<(offset + 36)]))
                }
            }
            stored.sequence = sequence
            stored.reason = reason.map { state.interner.id(for: $0.rawValue) } ?? 0
            stored.topic = topic.map { state.interner.id(for: $0) } ?? 0
            stored.blob = writer.bytes.withUnsafeBytes { state.blobs.append($0) }
            if state.records.count >= capacity { Self.evictOldest(&state) }
            state.records.append(stored)
            if let deviceToken { state.byToken[deviceToken, default: []].append(sequence) }
            if let echoedKey, let previous = state.byAPNSID.update(sequence, for: echoedKey) {
                state.olderByAPNSID[echoedKey, default: []].append(previous)
            }
            return Receipt(sequence: sequence, apnsID: apnsID)
        }
    }

    private static func evictOldest(_ state: inout State) {
        guard let oldest = state.records.popFirst() else { return }
        state.dropped += 1
        defer { state.blobs.release(oldest.blob) }
        var reader = BlobReader(state.blobs[oldest.blob])
        for _ in 0..<3 { _ = reader.raw() }  // method, path, authority
        let tokenBytes = reader.raw()
        let apnsIDBytes = reader.raw()
        // Mutate the index entries in place (one hash): copying a token's list out and back
        // would copy every sequence number of that token on every eviction.
        if !tokenBytes.isEmpty, let index = state.byToken.index(forKey: String(decoding: tokenBytes, as: UTF8.self)) {
            state.byToken.values[index].removeFirst()
            if state.byToken.values[index].isEmpty { state.byToken.remove(at: index) }
        }
        // A generated id has no index entry (its record's sequence number is in it).
        if oldest.flags & StoredDelivery.flagGeneratedID == 0,
            let key = UUIDKey(bytes: apnsIDBytes.assumingMemoryBound(to: UInt8.self))
        {
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
        }
    }

    /// The sequence number the next record will get.
    public var nextSequence: UInt64 { state.withLockedValue { $0.nextSequence } }

    /// Number of records held.
    public var count: Int { state.withLockedValue { $0.records.count } }

    /// Number of records dropped to stay within `capacity`.
    public var dropped: UInt64 { state.withLockedValue { $0.dropped } }

    /// The most recent record with `apnsID` (any letter case), if any.
    public func latest(apnsID: String) -> Delivery? {
        guard let key = UUIDKey(apnsID) else { return nil }
        return state.withLockedValue { state -> Delivery? in
            guard let sequence = state.sequences(apnsID: key).last, let stored = state.record(sequence: sequence)
            else { return nil }
            return Self.decode(stored, state)
        }
    }

    /// One page of the records matching `filter`, `limit` at most, in `order`.
    public func query(_ filter: DeliveryFilter, limit: Int = 1000, order: DeliveryOrder = .asc) -> DeliveryPage {
        let token = filter.token.map { $0.lowercased() }
        let apnsKey = filter.apnsID.flatMap(UUIDKey.init)
        let topicID: UInt32?? = filter.topic.map { topic in state.withLockedValue { $0.interner.existingID(for: topic) }
        }
        if (filter.apnsID != nil && apnsKey == nil) || topicID == .some(.none) {
            return DeliveryPage(deliveries: [], next: nil, total: 0, dropped: dropped)
        }
        func inBounds(_ sequence: UInt64) -> Bool {
            if let since = filter.since, sequence <= since { return false }
            if let before = filter.before, sequence >= before { return false }
            return true
        }
        // Well-formed tokens are indexed; a malformed one can only match by scanning.
        let useTokenIndex = token.map { DeviceToken.normalized($0) != nil } ?? false
        let useAPNSIDIndex = !useTokenIndex && apnsKey != nil
        // Predicates that need the record itself; the index (when used) implies its own key.
        let checkToken = token != nil && !useTokenIndex
        let checkAPNSID = apnsKey != nil && !useAPNSIDIndex
        let needsRecord = topicID != nil || filter.pushType != nil || filter.status != nil || checkToken || checkAPNSID
        func matches(_ record: StoredDelivery, _ blobs: BlobArena) -> Bool {
            if case .some(.some(let id)) = topicID, record.topic != id { return false }
            if let pushType = filter.pushType, record.pushType != pushType.code { return false }
            if let status = filter.status, Int(record.status) != status { return false }
            if checkAPNSID, let apnsKey, !Self.hasAPNSID(record, apnsKey, blobs) { return false }
            if checkToken, let token, Self.token(of: record, blobs) != token { return false }
            return true
        }
        var picked: [Delivery] = []
        var total = 0
        var lastPicked: UInt64?
        // Only sequence numbers are compared until a record is needed: counting the matches
        // of a million-record token costs integer comparisons, not record reads.
        func consider(_ sequence: UInt64, _ state: State, _ record: () -> StoredDelivery?) {
            guard inBounds(sequence) else { return }
            if needsRecord {
                guard let stored = record(), matches(stored, state.blobs) else { return }
                total += 1
                if picked.count < limit {
                    picked.append(Self.decode(stored, state))
                    lastPicked = sequence
                }
            } else {
                total += 1
                if picked.count < limit, let stored = record() {
                    picked.append(Self.decode(stored, state))
                    lastPicked = sequence
                }
            }
        }
        func page(dropped: UInt64) -> DeliveryPage {
            DeliveryPage(
                deliveries: picked, next: total > picked.count ? lastPicked : nil, total: total, dropped: dropped)
        }
        // Index look-ups and unfiltered pages take the lock once; `scanRange` says a scan is due.
        let scanRange: ClosedRange<UInt64>? = state.withLockedValue { state in
            if useTokenIndex || useAPNSIDIndex {
                let indexed = useTokenIndex ? state.byToken[token!] ?? [] : state.sequences(apnsID: apnsKey!)
                if order == .asc {
                    for sequence in indexed { consider(sequence, state) { state.record(sequence: sequence) } }
                } else {
                    for sequence in indexed.reversed() {
                        consider(sequence, state) { state.record(sequence: sequence) }
                    }
                }
                return nil
            }
            guard let first = state.records.first?.sequence, filter.before != 0, filter.since != UInt64.max else {
                return nil
            }
            let last = first + UInt64(state.records.count) - 1
            let low = max(first, (filter.since ?? 0) &+ 1)
            let high = min(last, (filter.before ?? UInt64.max) &- 1)
            guard low <= high else { return nil }
            guard !needsRecord else { return low...high }
            // No predicate but the bounds: records are contiguous in sequence, so the page and
            // the total are arithmetic.
            total = Int(high - low + 1)
            let count = UInt64(min(limit, total))
            let sequences = order == .asc ? Array(low..<(low + count)) : Array(((high - count + 1)...high).reversed())
            for sequence in sequences {
                if let record = state.record(sequence: sequence) {
                    picked.append(Self.decode(record, state))
                    lastPicked = sequence
                }
            }
            return nil
        }
        guard let scanRange else { return page(dropped: dropped) }
        // A filtered scan goes in chunks, taking the lock for each: pushes wait for one chunk at
        // most, never for a scan of the whole store. Records appended meanwhile are past the
        // range (not counted); records evicted meanwhile are skipped.
        var next: UInt64? = order == .asc ? scanRange.lowerBound : scanRange.upperBound
        while let start = next {
            next = state.withLockedValue { state -> UInt64? in
                guard let first = state.records.first?.sequence else { return nil }
                let last = first + UInt64(state.records.count) - 1
                if order == .asc {
                    let low = max(start, first)
                    let high = min(scanRange.upperBound, last, low &+ Self.scanChunk - 1)
                    guard low <= high else { return nil }
                    for sequence in low...high { consider(sequence, state) { state.record(sequence: sequence) } }
                    return high < scanRange.upperBound ? high + 1 : nil
                } else {
                    let high = min(start, last)
                    let low = max(scanRange.lowerBound, first, high >= Self.scanChunk ? high - Self.scanChunk + 1 : 0)
                    guard low <= high else { return nil }
                    for sequence in (low...high).reversed() {
                        consider(sequence, state) { state.record(sequence: sequence) }
                    }
                    return low > scanRange.lowerBound ? low - 1 : nil
                }
            }
        }
        return page(dropped: dropped)
    }

    /// Records a filtered scan reads per lock hold.
    static let scanChunk: UInt64 = 4096

    private static func token(of record: StoredDelivery, _ blobs: BlobArena) -> String? {
        var reader = BlobReader(blobs[record.blob])
        _ = reader.raw()
        let path = reader.string()
        _ = reader.raw()
        let token = reader.string()
        if !token.isEmpty { return token }
        guard path.hasPrefix(RequestRules.devicePathPrefix) else { return nil }
        return String(path.dropFirst(RequestRules.devicePathPrefix.count)).lowercased()
    }

    fileprivate static func hasAPNSID(_ record: StoredDelivery, _ key: UUIDKey, _ blobs: BlobArena) -> Bool {
        var reader = BlobReader(blobs[record.blob])
        for _ in 0..<4 { _ = reader.raw() }
        return UUIDKey(reader.string()) == key
    }

    private static func decode(_ stored: StoredDelivery, _ state: State) -> Delivery {
        let interner = state.interner
        var reader = BlobReader(state.blobs[stored.blob])
        let method = reader.string()
        var path = reader.string()
        let authority = reader.string()
        let token = reader.string()
        let apnsID = reader.string()
        let uniqueID = reader.string()
        let payload = Array(reader.raw())
        let authentication = readAuthentication(&reader)
        let headerCount = reader.varint()
        let headers = HeaderBlock(encoded: Array(reader.rest())[...], count: headerCount)?.fields ?? []
        if path.isEmpty && !token.isEmpty { path = RequestRules.devicePathPrefix + token }
        let hasToken = stored.flags & StoredDelivery.flagHasToken != 0
        var shownToken: String? = hasToken ? token : nil
        if !hasToken, path.hasPrefix(RequestRules.devicePathPrefix) {
            shownToken = String(path.dropFirst(RequestRules.devicePathPrefix.count))
        }
        return Delivery(
            sequence: stored.sequence, receivedAt: stored.receivedAt, connectionID: stored.connectionID,
            streamID: stored.streamID, environment: stored.environment == 1 ? .production : .sandbox,
            method: method, path: path,
            authority: stored.flags & StoredDelivery.flagHasAuthority != 0 ? authority : nil,
            token: shownToken, headers: headers, topic: interner.string(for: stored.topic),
            pushType: APNSPushType(code: stored.pushType), apnsID: apnsID,
            apnsIDGenerated: stored.flags & StoredDelivery.flagGeneratedID != 0,
            uniqueID: stored.flags & StoredDelivery.flagHasUniqueID != 0 ? uniqueID : nil,
            payload: payload, payloadSize: Int(stored.payloadSize), status: Int(stored.status),
            reason: interner.string(for: stored.reason).map(APNSReason.init(rawValue:)),
            respondedAt: stored.respondedAt, authentication: authentication,
            goAway: stored.flags & StoredDelivery.flagGoAway != 0)
    }

    /// method byte (0 none, 1 token, 2 certificate), flag byte, team, key, subject, topics.
    private static func writeAuthentication(_ result: AuthenticationResult?, to writer: inout BlobWriter) {
        guard let result else {
            writer.varint(0)
            return
        }
        writer.varint(result.method == .token ? 1 : 2)
        writer.varint((result.signatureVerified ? 1 : 0) | (result.keyUnknown ? 2 : 0))
        writer.string(result.teamID ?? "")
        writer.string(result.keyID ?? "")
        writer.string(result.certificateSubject ?? "")
        writer.varint(result.certificateTopics.count)
        for topic in result.certificateTopics { writer.string(topic) }
    }

    private static func readAuthentication(_ reader: inout BlobReader) -> AuthenticationResult? {
        let method = reader.varint()
        guard method != 0 else { return nil }
        let flags = reader.varint()
        let team = reader.string()
        let key = reader.string()
        let subject = reader.string()
        let topics = (0..<reader.varint()).map { _ in reader.string() }
        return AuthenticationResult(
            method: method == 1 ? .token : .certificate, teamID: team.isEmpty ? nil : team,
            keyID: key.isEmpty ? nil : key, signatureVerified: flags & 1 != 0, keyUnknown: flags & 2 != 0,
            certificateSubject: subject.isEmpty ? nil : subject, certificateTopics: topics)
    }
}
