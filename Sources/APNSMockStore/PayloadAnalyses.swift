import APNSMockCore
import NIOConcurrencyHelpers
import Synchronization

/// The payload analyses (lint and preview) of stored records, computed where records are
/// presented (the admin API, the library, a follower's matching) on a record's first read, never
/// under the store's lock, and cached by sequence number.
///
/// Records whose analysis inputs are equal (`PayloadAnalysisKey`: the same payload sent the same
/// way to a device of the same locale, as in a load test or a test suite that repeats one
/// message) share one analysis: computed for the first, looked up for the others, and kept once
/// in memory.
///
/// Thread-safe: its cache is behind its own lock, taken alone, never around an analysis.
public final class PayloadAnalyses: Sendable {
    /// Localizations, default locale and payload limit of the analyses.
    public let options: PayloadAnalysisOptions
    /// The locale the device registry gives a token, if any.
    private let deviceLocale: @Sendable (String) -> String?
    /// The most analyses kept (the store's capacity): older ones are of evicted records.
    private let capacity: Int
    /// The most distinct analysis inputs remembered; past that the memory starts over.
    static let distinctInputLimit = 1024

    private struct Cache {
        var bySequence: [UInt64: PayloadAnalysis] = [:]
        var byInputs: [PayloadAnalysisKey: PayloadAnalysis] = [:]
    }
    private let cache = NIOLockedValueBox(Cache())
    /// How many analyses were computed (not looked up).
    private let computed = Atomic<Int>(0)

    /// - Parameters:
    ///   - options: what the analyses use.
    ///   - capacity: the store's capacity (analyses of records older than that many are dropped).
    ///   - deviceLocale: the locale registered for a device token, if any.
    public init(
        options: PayloadAnalysisOptions = PayloadAnalysisOptions(), capacity: Int = 100_000,
        deviceLocale: @escaping @Sendable (String) -> String? = { _ in nil }
    ) {
        self.options = options
        self.capacity = max(1, capacity)
        self.deviceLocale = deviceLocale
    }

    /// `record` with its payload's lint and preview (`analysis`): cached since an earlier
    /// read (of this record, or of one with the same inputs), or computed now and cached. The
    /// preview is left out when the push was rejected; a channel-management record has none
    /// (its body is no notification).
    public func analyzed(_ record: DeliveryRecord) -> DeliveryRecord {
        var record = record
        analyze(&record)
        return record
    }

    /// Gives `record` its analysis (`analyzed(_:)`) in place: the record is not copied.
    public func analyze(_ record: inout DeliveryRecord) {
        guard record.analysis == nil, record.kind != .channel else { return }
        if record.kind == .webPush {
            // The decrypted message, linted as a Declarative Web Push message (no cache: web
            // pushes are few, and the lint reads one small object).
            record.analysis = DeclarativeWebPushLinter.analysis(of: record.payload, size: record.payloadSize)
            return
        }
        var analysis: PayloadAnalysis
        if let cached = cache.withLockedValue({ $0.bySequence[record.sequence] }) {
            analysis = cached
        } else {
            let inputs = PayloadAnalysisKey(record, locale: record.token.flatMap(deviceLocale))
            let known = cache.withLockedValue { $0.byInputs[inputs] }
            if let known {
                analysis = known
            } else {
                guard let context = inputs.context(options: options) else { return }
                analysis = PayloadAnalyzer.analyze(
                    payload: record.payload, payloadSize: record.payloadSize, context: context)
                computed.add(1, ordering: .relaxed)
            }
            let sequence = record.sequence
            let capacity = capacity
            cache.withLockedValue { cache in
                if known == nil {
                    if cache.byInputs.count >= Self.distinctInputLimit {
                        cache.byInputs.removeAll(keepingCapacity: true)
                    }
                    cache.byInputs[inputs] = analysis
                }
                guard sequence != 0 else { return }
                cache.bySequence[sequence] = analysis
                // Sequence numbers only grow: analyses more than a store's worth older than
                // this one are of records the store has evicted.
                if cache.bySequence.count > capacity + 1024, sequence > UInt64(capacity) {
                    let oldest = sequence - UInt64(capacity)
                    cache.bySequence = cache.bySequence.filter { $0.key >= oldest }
                }
            }
        }
        if let status = record.status, status != 200 { analysis.preview = nil }
        record.analysis = analysis
    }

    /// How many analyses were computed, rather than found cached.
    public var computedCount: Int { computed.load(ordering: .relaxed) }

    /// Gives each of `records` its analysis in place.
    public func analyze(_ records: inout [DeliveryRecord]) {
        for index in records.indices { analyze(&records[index]) }
    }

    /// Forgets every analysis (a reset: device locales may have changed).
    public func removeAll() {
        cache.withLockedValue { $0 = Cache() }
    }
}
