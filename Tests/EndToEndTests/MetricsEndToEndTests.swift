import APNSMock
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// `GET /metrics` after a known sequence of pushes through real clients, read by a real
/// Prometheus text parser (prometheus-client's, in the venv `make test` creates).
@Suite(.serialized) struct MetricsEndToEndTests {
    static let python = ProcessInfo.processInfo.environment["APNS_MOCK_PYTHON"]
    static let adminToken = "metrics-\(UUID().uuidString)"

    /// One sample of the exposition: its name, labels and value.
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    /// The scrape as prometheus-client parsed it.
    struct Scrape {
        var families: [String: String]
        var samples: [Sample]

        /// The value of the one sample named `name` with exactly `labels`, if there is one.
        func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
            let found = samples.filter { $0.name == name && $0.labels == labels }
            return found.count == 1 ? found[0].value : nil
        }

        /// Every sample named `name`.
        func all(_ name: String) -> [Sample] { samples.filter { $0.name == name } }
    }

    /// `GET /metrics` with the admin token, parsed.
    static func scrape(_ mock: RunningMock, python: String) async throws -> Scrape {
        let fetched = try await E2E.run(
            "curl",
            [
                "-sS", "-D", "/dev/stderr", "-H", "authorization: Bearer \(adminToken)",
                mock.endpoints.adminURL + "/metrics",
            ])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(
            fetched.stderr.lowercased().contains("content-type: text/plain; version=0.0.4; charset=utf-8"),
            "\(fetched.stderr)")
        let parsed = try await E2E.run(
            python, [E2E.clientsDirectory + "/prometheus_parse.py"], stdin: fetched.stdout)
        #expect(parsed.status == 0, "\(parsed.stderr)\n\(fetched.stdout)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any],
            "\(parsed.stdout) \(parsed.stderr)")
        let samples = (object["samples"] as? [[String: Any]] ?? []).map { sample in
            Sample(
                name: sample["name"] as? String ?? "", labels: sample["labels"] as? [String: String] ?? [:],
                value: (sample["value"] as? NSNumber)?.doubleValue ?? .nan)
        }
        return Scrape(families: object["families"] as? [String: String] ?? [:], samples: samples)
    }

    /// Three accepted pushes, one `BadDeviceToken`, one 410 from a fault rule (curl, a connection
    /// each), then one more accepted push over AsyncHTTPClient, whose connection stays open
    /// while the metrics are read: every count is exact.
    @Test(.enabled(if: python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func countsAfterAKnownSequenceOfPushes() async throws {
        let python = try #require(Self.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = Self.adminToken }) { mock in
            let unauthorized = try await E2E.run(
                "curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", mock.endpoints.adminURL + "/metrics"])
            #expect(unauthorized.stdout == "401", "GET /metrics needs the admin token like every route but /health")

            let gone = E2E.randomToken()
            let created = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H",
                    "authorization: Bearer \(Self.adminToken)", "-H", "content-type: application/json", "--data",
                    #"{"id":"gone","match":{"token":"\#(gone)"},"action":{"respond":{"status":410,"reason":"Unregistered","timestamp":1700000000000}}}"#,
                    mock.endpoints.adminURL + "/v1/faults",
                ])
            #expect(created.stdout == "201")
            for _ in 0..<3 {
                #expect(try await FaultInjectionTests.curlPush(mock, token: E2E.randomToken()).status == 200)
            }
            #expect(try await FaultInjectionTests.curlPush(mock, token: "not-hex").status == 400)
            #expect(try await FaultInjectionTests.curlPush(mock, token: gone).status == 410)

            let client = try AsyncHTTPClientTests.makeClient()
            var failure: (any Error)?
            do {
                var request = HTTPClientRequest(
                    url: "https://localhost:\(mock.endpoints.apnsPort)/3/device/\(E2E.randomToken())")
                request.method = .POST
                request.headers.add(name: "authorization", value: "bearer \(try E2E.providerToken())")
                request.headers.add(name: "apns-topic", value: "com.example.app")
                request.headers.add(name: "apns-push-type", value: "background")
                request.headers.add(name: "apns-priority", value: "5")
                request.body = .bytes(ByteBuffer(string: #"{"aps":{"content-available":1}}"#))
                let response = try await client.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 4096)
                #expect(response.status == .ok)

                let scrape = try await Self.scrape(mock, python: python)
                let requests = "apns_mock_requests_total"
                #expect(
                    scrape.value(
                        requests, ["kind": "push", "push_type": "alert", "status": "200", "reason": ""]) == 3)
                #expect(
                    scrape.value(
                        requests, ["kind": "push", "push_type": "background", "status": "200", "reason": ""]) == 1)
                // The token is refused before the push type is read: whichever label it has, one.
                #expect(
                    scrape.all(requests).filter {
                        $0.labels["status"] == "400" && $0.labels["reason"] == "BadDeviceToken"
                    }
                    .map(\.value) == [1])
                #expect(
                    scrape.value(
                        requests, ["kind": "push", "push_type": "alert", "status": "410", "reason": "Unregistered"])
                        == 1)
                #expect(scrape.all(requests).count == 4, "\(scrape.all(requests))")
                #expect(scrape.families["apns_mock_answer_latency_seconds"] == "histogram")
                #expect(scrape.value("apns_mock_answer_latency_seconds_count") == 6)
                #expect(scrape.value("apns_mock_answer_latency_seconds_bucket", ["le": "+Inf"]) == 6)
                #expect((scrape.value("apns_mock_answer_latency_seconds_sum") ?? -1) > 0)
                #expect(scrape.value("apns_mock_faults_fired_total", ["rule": "gone"]) == 1)
                #expect(scrape.all("apns_mock_faults_fired_total").count == 1)
                #expect(scrape.value("apns_mock_records_stored_total") == 6)
                #expect(scrape.value("apns_mock_records_evicted_total") == 0)
                #expect(scrape.value("apns_mock_records") == 6)
                #expect(scrape.value("apns_mock_connections") == 1, "the AsyncHTTPClient connection is open")
                #expect(scrape.value("apns_mock_connections_opened_total") == 6)
                #expect(scrape.value("apns_mock_tls_handshakes_total", ["outcome": "completed"]) == 6)
                #expect(scrape.value("apns_mock_waiters") == 0)
                #expect(scrape.value("apns_mock_event_streams") == 0)
                #expect(
                    scrape.value(
                        "apns_mock_admin_requests_total", ["route": "/metrics", "method": "GET", "status": "401"])
                        == 1)
                #expect(
                    scrape.value(
                        "apns_mock_admin_requests_total", ["route": "/v1/faults", "method": "POST", "status": "201"])
                        == 1)
            } catch {
                failure = error
            }
            try await client.shutdown()
            if let failure { throw failure }

            // Once the client has gone, no connection is counted open (its close is seen soon).
            var open: Double?
            for _ in 0..<50 {
                open = try await Self.scrape(mock, python: python).value("apns_mock_connections")
                if open == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(open == 0)
            let last = try await Self.scrape(mock, python: python)
            #expect(
                (last.value(
                    "apns_mock_admin_requests_total", ["route": "/metrics", "method": "GET", "status": "200"]) ?? 0)
                    >= 2)
        }
    }
    /// A fault rule's delay is part of the answer's latency: it is measured from the request's
    /// last frame to the answer's submission, not from when the rule decided.
    @Test(.enabled(if: python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func latencyIncludesAFaultRulesDelay() async throws {
        let python = try #require(Self.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = Self.adminToken }) { mock in
            let slow = E2E.randomToken()
            let created = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H",
                    "authorization: Bearer \(Self.adminToken)", "-H", "content-type: application/json", "--data",
                    #"{"id":"slow","match":{"token":"\#(slow)"},"action":{"delay":{"duration":"300ms"}}}"#,
                    mock.endpoints.adminURL + "/v1/faults",
                ])
            #expect(created.stdout == "201")
            #expect(try await FaultInjectionTests.curlPush(mock, token: slow).status == 200)
            let scrape = try await Self.scrape(mock, python: python)
            #expect(scrape.value("apns_mock_answer_latency_seconds_count") == 1)
            #expect((scrape.value("apns_mock_answer_latency_seconds_sum") ?? 0) >= 0.3)
            #expect(scrape.value("apns_mock_answer_latency_seconds_bucket", ["le": "0.1"]) == 0)
            // At most a few seconds: a sanitizer build on a busy machine fires a 300 ms timer late.
            #expect(scrape.value("apns_mock_answer_latency_seconds_bucket", ["le": "5.0"]) == 1)
            #expect(scrape.value("apns_mock_faults_fired_total", ["rule": "slow"]) == 1)
            #expect(
                scrape.value(
                    "apns_mock_requests_total", ["kind": "push", "push_type": "alert", "status": "200", "reason": ""])
                    == 1)
        }
    }
}
