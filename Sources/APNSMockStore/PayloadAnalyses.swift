import APNSMockCore
import NIOConcurrencyHelpers

/// The payload analyses (lint and preview) of stored records, computed where records are
/// presented (the admin API, the library, a follower's matching) on a record's first read, never
/// under the store's lock, and cached by sequence number.
///
/// Thread-safe: its cache is behind its own lock, taken alone, never around an analysis.
public final class PayloadAnalyses: Sendable {
    /// Localizations, default locale and payload limit of the analyses.
    public let options: PayloadAnalysisOptions
    /// The locale the device registry gives a token, if any.
    private let deviceLocale: @Sendable (String) -> String?
    /// The most analyses kept (the store's capacity): older ones are of evicted records.
    private let capacity: Int
    private let cache = NIOLockedValueBox<[UInt64: PayloadAnalysis]>([:])

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
    /// read, or computed now and cached. The preview is left out when the push was rejected; a
    /// channel-management record has none (its body is no notification).
    public func analyzed(_ record: DeliveryRecord) -> DeliveryRecord {
        guard record.analysis == nil, record.kind != .channel else { return record }
        var record = record
        var analysis: PayloadAnalysis
        if let cached = cache.withLockedValue({ $0[record.sequence] }) {
            analysis = cached
        } else {
            guard let context = record.payloadContext(options: options, locale: record.token.flatMap(deviceLocale))
            else { return record }
            analysis = PayloadAnalyzer.analyze(
                payload: record.payload, payloadSize: record.payloadSize, context: context)
            if record.sequence != 0 {
                let sequence = record.sequence
                let capacity = capacity
                cache.withLockedValue { cache in
                    cache[sequence] = analysis
                    // Sequence numbers only grow: analyses more than a store's worth older than
                    // this one are of records the store has evicted.
                    if cache.count > capacity + 1024, sequence > UInt64(capacity) {
                        let oldest = sequence - UInt64(capacity)
                        cache = cache.filter { $0.key >= oldest }
                    }
                }
            }
        }
        if let status = record.status, status != 200 { analysis.preview = nil }
        record.analysis = analysis
        return record
    }

    /// Each of `records` with its analysis.
    public func analyzed(_ records: [DeliveryRecord]) -> [DeliveryRecord] { records.map(analyzed) }

    /// Forgets every analysis (a reset: device locales may have changed).
    public func removeAll() {
        cache.withLockedValue { $0.removeAll() }
    }
}
