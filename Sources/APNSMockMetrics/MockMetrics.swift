import APNSMockCore
import APNSMockStore
import NIOConcurrencyHelpers
import Prometheus
import Synchronization

/// The mock's Prometheus metrics (`GET /metrics`): one instance per application, over its own
/// `PrometheusCollectorRegistry` (never the process-wide `MetricsSystem`, which can be
/// bootstrapped once per process: tests start several mocks in one).
///
/// The transport counts answers, latencies, handshakes, connections and fault hits; the admin API
/// counts its own requests and event streams; what the store already counts (records stored and
/// evicted, waiters) is read when the metrics are scraped, so appending a record costs nothing
/// more.
///
/// The answer path stays cheap: a connection keeps the counter of each label set it has used in
/// a `RequestCounters` (no label dictionary per push), a counter increment is one relaxed atomic
/// add, and the latency histogram is the one lock taken per push.
///
/// Thread-safe: the registry and its metrics are, and what is folded in at a scrape sits behind a
/// `NIOLockedValueBox`.
public final class MockMetrics: Sendable {
    /// The registry every metric of this mock is registered with. Other metrics may be added to it
    /// (directly, or through `PrometheusMetricsFactory(registry:)`): a scrape emits them too.
    public let registry: PrometheusCollectorRegistry
    /// The content type of `exposition()`: Prometheus's text format 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The buckets of the answer-latency histogram: from 50 µs (an answer in the same read) to
    /// 30 s (a fault rule's long delay).
    public static let latencyBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(50), .milliseconds(100),
        .milliseconds(500), .seconds(1), .seconds(5), .seconds(30),
    ]

    /// The store read at scrape time, if any.
    private let store: DeliveryStore?
    private let answerLatency: DurationHistogram
    private let liveConnections: Gauge
    private let connectionsOpened: Counter
    private let recordsStored: Counter
    private let recordsEvicted: Counter
    private let recordsHeld: Gauge
    private let waiters: Gauge
    private let eventStreams: Gauge
    private let eventStreamCount = Atomic<Int>(0)
    /// The store's totals as last folded into `recordsStored` and `recordsEvicted`.
    private let folded = NIOLockedValueBox<(stored: UInt64, evicted: UInt64)>((0, 0))

    /// - Parameter store: the store whose records, evictions and waiters a scrape reports.
    public init(store: DeliveryStore? = nil) {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        self.store = store
        answerLatency = registry.makeDurationHistogram(
            descriptor: Self.descriptor(
                "answer_latency", unit: "seconds",
                "Time from a request's last frame to its answer being submitted, fault delays included"),
            buckets: Self.latencyBuckets)
        liveConnections = registry.makeGauge(
            descriptor: Self.descriptor("connections", unit: "", "APNs connections open now"))
        connectionsOpened = registry.makeCounter(
            descriptor: Self.descriptor("connections_opened", unit: "total", "APNs connections accepted"))
        recordsStored = registry.makeCounter(
            descriptor: Self.descriptor("records_stored", unit: "total", "Delivery records stored"))
        recordsEvicted = registry.makeCounter(
            descriptor: Self.descriptor(
                "records_evicted", unit: "total", "Delivery records dropped to stay within the store's capacity"))
        recordsHeld = registry.makeGauge(
            descriptor: Self.descriptor("records", unit: "", "Delivery records held now (not deleted)"))
        waiters = registry.makeGauge(
            descriptor: Self.descriptor(
                "waiters", unit: "", "Waits for deliveries under way (GET /v1/deliveries/wait, POST /v1/verify)"))
        eventStreams = registry.makeGauge(
            descriptor: Self.descriptor("event_streams", unit: "", "Server-Sent Event clients (GET /v1/events)"))
    }

    // MARK: the transport

    /// The counter of answers with these labels (`apns_mock_requests_total`). A connection keeps
    /// the ones it uses (`RequestCounters`); this looks one up in the registry.
    public func requestCounter(status: Int, reason: APNSReason?, pushType: APNSPushType?, kind: RecordKind) -> Counter {
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [
                ("kind", kind.rawValue), ("push_type", pushType?.rawValue ?? ""), ("status", String(status)),
                ("reason", reason?.rawValue ?? ""),
            ])
    }

    /// A request was answered `nanoseconds` after its last frame arrived.
    @inline(__always)
    public func answered(afterNanoseconds nanoseconds: UInt64) {
        answerLatency.record(.nanoseconds(Int64(clamping: nanoseconds)))
    }

    /// A request ended without an answer on its stream (`outcome`: a GOAWAY, a reset, a client
    /// that cancelled, a connection that closed).
    public func unanswered(_ outcome: DeliveryOutcome) {
        registry.makeCounter(descriptor: Self.unansweredRequests, labels: [("outcome", outcome.rawValue)]).increment()
    }

    /// Where a stream the client opened stopped short of becoming a request.
    public enum RefusalStage: String, Sendable, CaseIterable {
        /// libnghttp2 refused or ignored the HEADERS that opened it (over the stream limit before
        /// the client acknowledged it, above a GOAWAY's last stream, a connection error): the
        /// request never began.
        case opening
        /// It ended while its headers or body were arriving: the client reset it, libnghttp2's
        /// messaging checks reset it (a malformed request), the server refused it, or the
        /// connection closed.
        case receiving
    }

    /// `count` streams the client opened ended before their request was whole, at `stage`: no
    /// answer, no record (`apns_mock_requests_refused_total{stage}`). With the records stored
    /// and the answers, this accounts for every stream a client opened.
    public func refusedBeforeRequest(_ stage: RefusalStage, count: Int = 1) {
        guard count > 0 else { return }
        registry.makeCounter(descriptor: Self.refusedRequests, labels: [("stage", stage.rawValue)]).increment(
            by: Int64(count))
    }

    /// A fault rule fired (`apns_mock_faults_fired_total{rule}`).
    public func faultFired(ruleID: String) {
        registry.makeCounter(descriptor: Self.faultsFired, labels: [("rule", ruleID)]).increment()
    }

    /// How a TLS handshake ended.
    public enum HandshakeOutcome: String, Sendable, CaseIterable {
        /// TLS is up.
        case completed
        /// The handshake failed (a bad client certificate, no common protocol version, …).
        case failed
        /// The client offered ALPN without `h2`.
        case alpnRefused = "alpn_refused"
        /// The `refuse-tls` mode refused it.
        case refused
    }

    /// A TLS handshake ended with `outcome` (`apns_mock_tls_handshakes_total{outcome}`).
    public func handshake(_ outcome: HandshakeOutcome) {
        registry.makeCounter(descriptor: Self.handshakes, labels: [("outcome", outcome.rawValue)]).increment()
    }

    /// An APNs connection was accepted.
    public func connectionOpened() {
        connectionsOpened.increment()
        liveConnections.increment()
    }

    /// An APNs connection closed.
    public func connectionClosed() {
        liveConnections.decrement()
    }

    // MARK: the admin API

    /// An admin request was answered: `route` is the route's pattern (`/v1/deliveries/{apnsId}`),
    /// never the raw path, so the label stays bounded.
    public func adminRequest(route: String, method: String, status: Int) {
        registry.makeCounter(
            descriptor: Self.adminRequests, labels: [("route", route), ("method", method), ("status", String(status))]
        ).increment()
    }

    /// A Server-Sent Events client connected (`opened`) or left.
    public func eventStream(opened: Bool) {
        eventStreamCount.add(opened ? 1 : -1, ordering: .relaxed)
    }

    /// The metrics in Prometheus's text format, with what the store counts read now.
    public func exposition() -> [UInt8] {
        if let store {
            let stored = store.nextSequence - 1
            let evicted = store.dropped
            folded.withLockedValue { folded in
                if stored > folded.stored { recordsStored.increment(by: Int64(stored - folded.stored)) }
                if evicted > folded.evicted { recordsEvicted.increment(by: Int64(evicted - folded.evicted)) }
                folded = (max(stored, folded.stored), max(evicted, folded.evicted))
            }
            recordsHeld.set(Int64(store.count))
            let streams = eventStreamCount.load(ordering: .relaxed)
            eventStreams.set(Int64(streams))
            waiters.set(Int64(max(0, store.notifier.subscriberTotal - streams)))
        } else {
            eventStreams.set(Int64(eventStreamCount.load(ordering: .relaxed)))
        }
        return registry.emitToBuffer()
    }

    // MARK: names

    /// `apns_mock_<name>_<unit>` with its help text.
    static func descriptor(_ name: String, unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "apns_mock", metricName: name, unitName: unit, helpText: help)
    }

    static var requests: MetricNameDescriptor {
        descriptor(
            "requests", unit: "total", "Requests answered on the APNs ports, by kind, push type, status and reason")
    }
    static var unansweredRequests: MetricNameDescriptor {
        descriptor(
            "requests_unanswered", unit: "total", "Requests that ended without an answer on their stream, by outcome")
    }
    static var refusedRequests: MetricNameDescriptor {
        descriptor(
            "requests_refused", unit: "total",
            "Streams the client opened that never became a request (no answer, no record), by stage")
    }
    static var faultsFired: MetricNameDescriptor {
        descriptor("faults_fired", unit: "total", "Fault rules that fired, by rule id")
    }
    static var handshakes: MetricNameDescriptor {
        descriptor("tls_handshakes", unit: "total", "TLS handshakes on the APNs ports, by outcome")
    }
    static var adminRequests: MetricNameDescriptor {
        descriptor("admin_requests", unit: "total", "Admin API requests, by route pattern, method and status")
    }
}
