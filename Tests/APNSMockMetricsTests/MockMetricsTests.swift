import APNSMockCore
import APNSMockStore
import Testing

@testable import APNSMockMetrics

@Suite struct MockMetricsTests {
    static func record(status: Int = 200, pushType: APNSPushType = .alert) -> DeliveryRecord {
        DeliveryRecord(
            receivedAt: 1_700_000_000_000, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + String(repeating: "ab", count: 32), authority: "localhost",
            headerBlock: HeaderBlock([]), token: String(repeating: "ab", count: 32), topic: "com.example.app",
            pushType: pushType, apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), uniqueID: nil,
            payload: Array("{}".utf8), payloadSize: 2,
            response: DeliveryResponse(status: status, reason: nil, respondedAt: 1_700_000_000_001))
    }

    /// The exposition's sample lines (no comments), as `name{labels} value`.
    static func lines(_ metrics: MockMetrics) -> Set<String> {
        Set(
            String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("#") })
    }

    @Test func answersAreCountedByLabelSetThroughTheConnectionsCache() {
        let metrics = MockMetrics()
        var first = RequestCounters(metrics: metrics)
        var second = RequestCounters(metrics: metrics)
        for _ in 0..<3 { first.count(status: 200, reason: nil, pushType: .alert, kind: .push) }
        first.count(status: 400, reason: .badDeviceToken, pushType: .alert, kind: .push)
        first.count(status: 200, reason: nil, pushType: .alert, kind: .push)
        second.count(status: 200, reason: nil, pushType: .alert, kind: .push)
        second.count(status: 200, reason: nil, pushType: nil, kind: .broadcast)
        let lines = Self.lines(metrics)
        #expect(lines.contains(#"apns_mock_requests_total{kind="push",push_type="alert",status="200",reason=""} 5"#))
        #expect(
            lines.contains(
                #"apns_mock_requests_total{kind="push",push_type="alert",status="400",reason="BadDeviceToken"} 1"#))
        #expect(lines.contains(#"apns_mock_requests_total{kind="broadcast",push_type="",status="200",reason=""} 1"#))
    }

    @Test func aConnectionKeepsAtMostLimitLabelSetsAndStillCountsTheRest() {
        let metrics = MockMetrics()
        var counters = RequestCounters(metrics: metrics)
        for status in 0..<(RequestCounters.limit + 5) {
            counters.count(status: 400 + status, reason: nil, pushType: .alert, kind: .push)
            counters.count(status: 400 + status, reason: nil, pushType: .alert, kind: .push)
        }
        let lines = Self.lines(metrics)
        for status in 0..<(RequestCounters.limit + 5) {
            #expect(
                lines.contains(
                    #"apns_mock_requests_total{kind="push",push_type="alert",status="\#(400 + status)",reason=""} 2"#))
        }
    }

    @Test func theStoresCountsAreReadAtScrapeTime() {
        let store = DeliveryStore(capacity: 2)
        let metrics = MockMetrics(store: store)
        #expect(Self.lines(metrics).contains("apns_mock_records_stored_total 0"))
        for _ in 0..<5 { store.append(Self.record()) }
        var lines = Self.lines(metrics)
        #expect(lines.contains("apns_mock_records_stored_total 5"))
        #expect(lines.contains("apns_mock_records_evicted_total 3"))
        #expect(lines.contains("apns_mock_records 2.0"))
        // Counters never go back: emptying the store leaves them, and later records add on.
        store.removeAll()
        store.append(Self.record())
        lines = Self.lines(metrics)
        #expect(lines.contains("apns_mock_records_stored_total 6"))
        #expect(lines.contains("apns_mock_records_evicted_total 3"))
        #expect(lines.contains("apns_mock_records 1.0"))
    }

    @Test func waitersAndEventStreamsAreTheStoresSubscribers() {
        let store = DeliveryStore()
        let metrics = MockMetrics(store: store)
        let wait = store.notifier.subscribe()
        let stream = store.notifier.subscribe()
        metrics.eventStream(opened: true)
        var lines = Self.lines(metrics)
        #expect(lines.contains("apns_mock_waiters 1.0"))
        #expect(lines.contains("apns_mock_event_streams 1.0"))
        stream.cancel()
        metrics.eventStream(opened: false)
        wait.cancel()
        lines = Self.lines(metrics)
        #expect(lines.contains("apns_mock_waiters 0.0"))
        #expect(lines.contains("apns_mock_event_streams 0.0"))
    }

    @Test func connectionsHandshakesFaultsAndLatency() {
        let metrics = MockMetrics()
        metrics.connectionOpened()
        metrics.connectionOpened()
        metrics.connectionClosed()
        metrics.handshake(.completed)
        metrics.handshake(.alpnRefused)
        metrics.faultFired(ruleID: "gone")
        metrics.faultFired(ruleID: "gone")
        metrics.unanswered(.reset)
        metrics.answered(afterNanoseconds: 30_000)
        metrics.answered(afterNanoseconds: 2_000_000_000)
        metrics.adminRequest(route: "/v1/deliveries/{apnsId}", method: "GET", status: 404)
        let lines = Self.lines(metrics)
        #expect(lines.contains("apns_mock_connections 1.0"))
        #expect(lines.contains("apns_mock_connections_opened_total 2"))
        #expect(lines.contains(#"apns_mock_tls_handshakes_total{outcome="completed"} 1"#))
        #expect(lines.contains(#"apns_mock_tls_handshakes_total{outcome="alpn_refused"} 1"#))
        #expect(lines.contains(#"apns_mock_faults_fired_total{rule="gone"} 2"#))
        #expect(lines.contains(#"apns_mock_requests_unanswered_total{outcome="reset"} 1"#))
        #expect(lines.contains(#"apns_mock_answer_latency_seconds_bucket{le="0.00005"} 1"#))
        #expect(lines.contains(#"apns_mock_answer_latency_seconds_bucket{le="1.0"} 1"#))
        #expect(lines.contains(#"apns_mock_answer_latency_seconds_bucket{le="5.0"} 2"#))
        #expect(lines.contains("apns_mock_answer_latency_seconds_count 2"))
        #expect(
            lines.contains(
                #"apns_mock_admin_requests_total{route="/v1/deliveries/{apnsId}",method="GET",status="404"} 1"#))
    }

    @Test func streamsRefusedBeforeTheyBecameARequestAreCountedByStage() {
        let metrics = MockMetrics()
        metrics.refusedBeforeRequest(.opening, count: 2)
        metrics.refusedBeforeRequest(.receiving)
        metrics.refusedBeforeRequest(.receiving, count: 0)
        let lines = Self.lines(metrics)
        #expect(lines.contains(#"apns_mock_requests_refused_total{stage="opening"} 2"#))
        #expect(lines.contains(#"apns_mock_requests_refused_total{stage="receiving"} 1"#))
    }

    @Test func twoMocksInOneProcessKeepTheirOwnCounts() {
        let one = MockMetrics()
        let two = MockMetrics()
        one.faultFired(ruleID: "a")
        #expect(Self.lines(one).contains(#"apns_mock_faults_fired_total{rule="a"} 1"#))
        #expect(!Self.lines(two).contains { $0.hasPrefix("apns_mock_faults_fired_total") })
    }
}
