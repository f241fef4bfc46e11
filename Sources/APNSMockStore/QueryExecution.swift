import APNSMockCore
import DequeModule

/// One query's page being collected: what `DeliveryStore.query` keeps between its lock holds.
/// Each step runs under the store's lock (`begin`, `consider`, `scan`) or outside it
/// (`matchAnalysed`, `nextIndexedChunk`, `page`), and says what comes next.
///
/// Only sequence numbers are compared until a record is needed: counting the matches of a
/// million-record token costs integer comparisons, not record reads.
struct QueryExecution {
    let query: DeliveryQuery
    let plan: QueryPlan
    let analyses: PayloadAnalyses?
    private(set) var picked: [DeliveryRecord] = []
    private(set) var total = 0
    private var lastPicked: UInt64?
    /// Records a lint or preview condition must see analysed: decoded under the lock, analysed
    /// and matched outside it.
    private var pending: [DeliveryRecord] = []
    /// An index look-up that needs analyses: its sequence numbers, handed out chunk by chunk.
    private var indexed: [UInt64] = []
    private var indexedPosition = 0
    /// The range a filtered scan covers.
    private var scanRange: ClosedRange<UInt64> = 0...0

    /// What to do after a step.
    enum Next: Equatable {
        /// The page is complete.
        case done
        /// Consider these sequence numbers (from an index) under the lock.
        case indexed(ArraySlice<UInt64>)
        /// Scan on from this sequence number under the lock.
        case scan(from: UInt64)
    }

    init(query: DeliveryQuery, plan: QueryPlan, analyses: PayloadAnalyses?) {
        self.query = query
        self.plan = plan
        self.analyses = analyses
    }

    private var needsAnalysis: Bool { query.matcher.needsAnalysis }

    private func inBounds(_ sequence: UInt64) -> Bool {
        if let since = query.since, sequence <= since { return false }
        if let before = query.before, sequence >= before { return false }
        return true
    }

    /// Under the lock: an index look-up (whole, or its first chunk when analyses are needed), an
    /// unfiltered page (arithmetic: records are contiguous in sequence), or the range to scan.
    mutating func begin(in state: DeliveryStore.State) -> Next {
        if let sequences = plan.indexedSequences(state) {
            if needsAnalysis {
                indexed = query.order == .asc ? Array(sequences) : sequences.reversed()
                return nextIndexedChunk()
            }
            if query.order == .asc {
                for sequence in sequences { consider(sequence, in: state) }
            } else {
                for sequence in sequences.reversed() { consider(sequence, in: state) }
            }
            return .done
        }
        guard let first = state.records.first?.sequence, query.before != 0, query.since != UInt64.max else {
            return .done
        }
        let last = first + UInt64(state.records.count) - 1
        let low = max(first, (query.since ?? 0) &+ 1)
        let high = min(last, (query.before ?? UInt64.max) &- 1)
        guard low <= high else { return .done }
        guard plan.filters || state.deleted > 0 else {
            // No predicate but the bounds, nothing deleted: the page and the total are arithmetic.
            total = Int(high - low + 1)
            let count = UInt64(min(query.limit, total))
            let sequences =
                query.order == .asc ? Array(low..<(low + count)) : Array(((high - count + 1)...high).reversed())
            for sequence in sequences {
                if let record = state.record(sequence: sequence) {
                    picked.append(DeliveryStore.decode(record, state))
                    lastPicked = sequence
                }
            }
            return .done
        }
        scanRange = low...high
        return .scan(from: query.order == .asc ? low : high)
    }

    /// Outside the lock: the next chunk of an index look-up that needs analyses.
    mutating func nextIndexedChunk() -> Next {
        guard indexedPosition < indexed.count else { return .done }
        let end = min(indexed.count, indexedPosition + Int(DeliveryStore.scanChunk))
        defer { indexedPosition = end }
        return .indexed(indexed[indexedPosition..<end])
    }

    /// Under the lock: one chunk of a filtered scan, from `start` on. Records appended since the
    /// scan began are past its range (not counted); records evicted meanwhile are skipped.
    mutating func scan(from start: UInt64, in state: DeliveryStore.State) -> Next {
        guard let first = state.records.first?.sequence else { return .done }
        let last = first + UInt64(state.records.count) - 1
        let chunk = DeliveryStore.scanChunk
        if query.order == .asc {
            let low = max(start, first)
            let high = min(scanRange.upperBound, last, low &+ chunk - 1)
            guard low <= high else { return .done }
            for sequence in low...high { consider(sequence, in: state) }
            return high < scanRange.upperBound ? .scan(from: high + 1) : .done
        } else {
            let high = min(start, last)
            let low = max(scanRange.lowerBound, first, high >= chunk ? high - chunk + 1 : 0)
            guard low <= high else { return .done }
            for sequence in (low...high).reversed() { consider(sequence, in: state) }
            return low > scanRange.lowerBound ? .scan(from: low - 1) : .done
        }
    }

    /// Under the lock: each of `sequences`.
    mutating func consider(_ sequences: ArraySlice<UInt64>, in state: DeliveryStore.State) {
        for sequence in sequences { consider(sequence, in: state) }
    }

    /// Under the lock: whether the record with `sequence` is in bounds, stored, not deleted, and
    /// matches; picked (up to the limit) and counted if so, or kept for `matchAnalysed`.
    mutating func consider(_ sequence: UInt64, in state: DeliveryStore.State) {
        guard inBounds(sequence), let stored = state.record(sequence: sequence), !stored.isDeleted,
            plan.columnsMatch(stored)
        else { return }
        guard plan.needsDecoding else {
            count(sequence) { DeliveryStore.decode(stored, state) }
            return
        }
        let record = DeliveryStore.decode(stored, state)
        if needsAnalysis {
            pending.append(record)
            return
        }
        guard query.matcher.matches(record) else { return }
        count(sequence) { record }
    }

    /// Outside the lock: analyses the records kept by `consider` and matches them.
    mutating func matchAnalysed() {
        guard !pending.isEmpty else { return }
        analyses?.analyze(&pending)
        for record in pending {
            guard query.matcher.matches(record) else { continue }
            count(record.sequence) { record }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func count(_ sequence: UInt64, _ record: () -> DeliveryRecord) {
        total += 1
        if picked.count < query.limit {
            picked.append(record())
            lastPicked = sequence
        }
    }

    /// The page collected.
    func page(dropped: UInt64) -> DeliveryPage {
        DeliveryPage(deliveries: picked, next: total > picked.count ? lastPicked : nil, total: total, dropped: dropped)
    }
}
