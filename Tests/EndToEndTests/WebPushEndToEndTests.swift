import APNSMock
import Foundation
import Testing

/// Apple's Web Push as a provider meets it: pywebpush (PyPI; RFC 8291 encryption and RFC 8292
/// VAPID, sent over HTTP/1.1 with requests) and httpx over HTTP/2 (ALPN h2), to a subscription
/// made through the admin API as a browser makes one. Apple's "Sending web push notifications in
/// web apps and browsers": success is 201 with apns-id; errors are a JSON reason.
@Suite struct WebPushEndToEndTests {
    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func pywebpushAndHTTPXGetApplesAnswers() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                python, [E2E.clientsDirectory + "/webpush_push.py", mock.endpoints.adminURL, E2E.caFile], timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            #expect(seen["subscribe"] as? Int == 201)
            let subscription = try #require(seen["subscription"] as? [String: Any])
            let id = try #require(subscription["id"] as? String)
            #expect(subscription["endpoint"] as? String == mock.endpoints.webPushURL + "/" + id)
            let keys = subscription["keys"] as? [String: String]
            #expect(keys?["p256dh"]?.count == 87, "65 bytes in base64url: \(keys ?? [:])")
            #expect(keys?["auth"]?.count == 22, "16 bytes in base64url")

            func answer(_ name: String) -> [String: Any] { seen[name] as? [String: Any] ?? [:] }
            let rows: [(String, Int, String?, String)] = [
                ("accepted", 201, nil, "HTTP/1.1"), ("otherKey", 403, "VapidPkHashMismatch", "HTTP/1.1"),
                ("tooLarge", 413, "PayloadTooLarge", "HTTP/1.1"), ("http2", 201, nil, "HTTP/2"),
                ("noTtl", 400, "BadTtl", "HTTP/2"), ("undecryptable", 201, nil, "HTTP/2"),
                ("deleted", 410, "Unregistered", "HTTP/1.1"),
            ]
            for (name, status, reason, http) in rows {
                let got = answer(name)
                #expect(got["status"] as? Int == status, "\(name): \(got)")
                #expect(got["http"] as? String == http, "\(name): \(got)")
                #expect((got["apnsId"] as? String)?.count == 36, "\(name): every answer carries apns-id")
                if let reason {
                    #expect(got["body"] as? String == #"{"reason":"\#(reason)"}"#, "\(name): \(got)")
                } else {
                    #expect(got["body"] as? String == "", "\(name): a 201 has no body")
                }
            }

            let (status, page) = try await E2E.adminGET(mock, "/v1/deliveries?kind=webPush&order=asc")
            #expect(status == 200)
            let records = page["deliveries"] as? [[String: Any]] ?? []
            #expect(records.map { ($0["response"] as? [String: Any])?["status"] as? Int } == rows.map(\.1))
            #expect(records.first?["apnsId"] as? String == answer("accepted")["apnsId"] as? String)
            #expect(records.allSatisfy { $0["path"] as? String == "/" + id })
            let refused = records.first { ($0["response"] as? [String: Any])?["status"] as? Int == 403 }
            #expect((refused?["detail"] as? String)?.contains("applicationServerKey") == true, "\(refused ?? [:])")

            // The record names the subscription as a push names its device, and keeps the body
            // decrypted with the subscription's keys, so queries and waits read what was sent.
            #expect(records.allSatisfy { $0["token"] as? String == id })
            let accepted = try #require(records.first)
            #expect((accepted["payload"] as? [String: Any])?["title"] as? String == "Hello", "\(accepted)")
            let facts = try #require(accepted["webPush"] as? [String: Any], "\(accepted)")
            #expect(facts["decrypted"] as? Bool == true)
            #expect(facts["ttl"] as? Int == 60)
            #expect(facts["origin"] as? String == "https://example.com")
            #expect((facts["vapid"] as? [String: Any])?["subject"] as? String == "mailto:ops@example.com")
            let overHTTP2 = records[3]["webPush"] as? [String: Any]
            #expect(overHTTP2?["urgency"] as? String == "high" && overHTTP2?["ttl"] as? Int == 30)
            let garbled = records[5]["webPush"] as? [String: Any]
            #expect(garbled?["decrypted"] as? Bool == false)
            #expect(
                (garbled?["decryption"] as? [String: Any])?["problem"] as? String == "authenticationFailed",
                "\(garbled ?? [:])")
            let (_, found) = try await E2E.adminGET(mock, "/v1/deliveries?subscriptionId=\(id)&payload.title=Hello")
            #expect((found["deliveries"] as? [Any])?.count == 1, "\(found)")
            // The report groups web pushes by VAPID key and names the push that did not decrypt.
            let (_, report) = try await E2E.adminGET(mock, "/v1/report")
            let providers = report["providers"] as? [[String: Any]] ?? []
            let vapid = providers.filter { ($0["identity"] as? [String: Any])?["kind"] as? String == "vapid" }
            let codes = vapid.flatMap {
                ($0["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            }
            #expect(codes.contains("webpush-undecryptable"), "\(providers)")
            #expect(!codes.contains("push-type-missing"), "\(codes)")
            // The webPush object's fields are matcher fields: what the headers and VAPID said,
            // and why a body did not decrypt.
            for (query, count) in [
                ("webPush.urgency=high&webPush.ttl=30", 1), ("webPush.decryption.problem=authenticationFailed", 1),
                ("webPush.decrypted=true&webPush.vapid.subject=mailto:ops@example.com", 2), ("webPush.urgency=low", 0),
            ] {
                let (status, page) = try await E2E.adminGET(mock, "/v1/deliveries?" + query)
                #expect(status == 200 && (page["deliveries"] as? [Any])?.count == count, "\(query): \(page)")
            }
        }
    }

    /// Fault rules on Web Push, as a provider rehearses them: 429 and 503 answers, a delay while
    /// a wait is open, a hang, a closed connection; and what HTTP/1.1 does with the HTTP/2-only
    /// actions (a reset cuts the connection, a GOAWAY answers with `Connection: close`, a stream
    /// limit changes nothing), each record saying so. httpx over HTTP/2 gets the real GOAWAY and
    /// RST_STREAM.
    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func faultRulesActOnWebPushOverBothProtocols() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                python, [E2E.clientsDirectory + "/webpush_faults.py", mock.endpoints.adminURL, E2E.caFile],
                timeout: 90)
            #expect(output.status == 0, "\(output.stderr)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            func step(_ name: String, _ key: String) -> [String: Any] {
                (seen[name] as? [String: Any])?[key] as? [String: Any] ?? [:]
            }
            func records(_ name: String) -> [[String: Any]] {
                (seen[name] as? [String: Any])?["records"] as? [[String: Any]] ?? []
            }
            // A rule acts on the first push only; the next one, on a new connection, is accepted.
            for (name, status) in [("tooMany", 429), ("unavailable", 503), ("goaway", 201), ("maxStreams", 201)] {
                #expect(step(name, "first")["status"] as? Int == status, "\(name): \(seen[name] ?? "")")
                #expect(step(name, "again")["status"] as? Int == 201, "\(name): \(seen[name] ?? "")")
            }
            #expect(step("tooMany", "first")["body"] as? String == #"{"reason":"TooManyRequests"}"#)
            #expect(step("goaway", "first")["connection"] as? String == "close", "\(seen["goaway"] ?? "")")
            #expect(step("tooMany", "first")["connection"] is NSNull, "an answer without GOAWAY keeps the connection")
            for name in ["reset", "close"] {
                #expect(step(name, "first")["error"] as? String == "ConnectionError", "\(name): \(seen[name] ?? "")")
                #expect(step(name, "again")["status"] as? Int == 201)
                #expect(records(name).first?["outcome"] as? String == "connectionClosed", "\(records(name))")
            }
            #expect((records("reset").first?["detail"] as? String)?.contains("HTTP/1.1 has no streams") == true)
            #expect((records("goaway").first?["detail"] as? String)?.contains("Connection: close") == true)
            #expect((records("maxStreams").first?["detail"] as? String)?.contains("HTTP/1.1 has no SETTINGS") == true)

            #expect(step("delayed", "first")["status"] as? Int == 201)
            #expect(step("delayed", "wait")["status"] as? Int == 200, "the open wait saw the delayed answer")
            #expect(step("delayed", "wait")["count"] as? Int == 1)
            #expect(records("delayed").first?["faultId"] as? String == "slow")
            #expect(step("hang", "first")["error"] as? String == "ReadTimeout")
            #expect(records("hang").first?["response"] == nil && records("hang").first?["status"] is NSNull)

            let http2 = try #require(seen["http2"] as? [String: Any])
            #expect((http2["goaway"] as? [String: Any])?["status"] as? Int == 201, "\(http2)")
            #expect((http2["afterGoaway"] as? [String: Any])?["status"] as? Int == 201, "\(http2)")
            #expect((http2["reset"] as? [String: Any])?["error"] as? String == "RemoteProtocolError", "\(http2)")
            let outcomes = (http2["records"] as? [[String: Any]] ?? []).map { $0["outcome"] as? String }
            #expect(outcomes == ["answered", "answered", "reset", "answered", "answered"], "\(http2)")
            // A rule matching a Web Push field (the Urgency header) acts on the live request.
            #expect((http2["highUrgency"] as? [String: Any])?["status"] as? Int == 429, "\(http2)")
            #expect((http2["lowUrgency"] as? [String: Any])?["status"] as? Int == 201, "\(http2)")
        }
    }

    /// After the 201: the delivery model applied to a subscription's browser (RFC 8030: `TTL`
    /// the expiration, `Urgency` the priority, `Topic` a replacement), with pywebpush pushing to
    /// subscriptions made offline or saving power, and a wait open while the browser comes back.
    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func whatReachesTheBrowserFollowsTTLUrgencyAndTopic() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let output = try await E2E.run(
                python, [E2E.clientsDirectory + "/webpush_device.py", mock.endpoints.adminURL, E2E.caFile],
                timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            #expect((seen["created"] as? [String: Any])?["presence"] as? String == "offline")
            #expect(seen["statuses"] as? [Int] == [201, 201, 201, 201], "every push is accepted, held or not")
            let offline = seen["offline"] as? [String: [String]] ?? [:]
            // Offline, the subscription keeps its newest message; a TTL of 0 is now or never.
            #expect(offline["now or never"] == ["discarded/expired"], "\(offline)")
            #expect(offline["kept"] == ["stored", "discarded/replaced"], "\(offline)")
            #expect(offline["score 1"] == ["stored", "discarded/replaced"], "\(offline)")
            #expect(offline["score 2"] == ["stored", "delivered"], "\(offline)")
            let wait = seen["wait"] as? [String: Any] ?? [:]
            #expect(wait["status"] as? Int == 200 && wait["titles"] as? [String] == ["score 2"], "\(wait)")
            #expect(
                ((seen["online"] as? [String: Any])?["device"] as? [String: Any])?["presence"] as? String == "online")
            // Saving power: a low-urgency push waits, a high-urgency one is delivered.
            let saving = seen["lowPower"] as? [String: [String]] ?? [:]
            #expect(saving["low"] == ["stored"] && saving["high"] == ["delivered"], "\(saving)")
            // Unsubscribing drops what the browser held.
            #expect(
                (seen["unsubscribed"] as? [String: [String]])?["held"] == ["stored", "discarded/tokenInactive"],
                "\(seen["unsubscribed"] ?? "")")
            // A declarative message without `navigate` is an error; one for the service worker is clean.
            #expect(
                seen["lint"] as? [String: Int] == ["notification-navigate-missing": 1, "error": 1, "clean": 1],
                "\(seen["lint"] ?? "")")
            let refused = seen["refused"] as? [String: Any] ?? [:]
            #expect(refused["status"] as? Int == 400)
            let message = ((refused["body"] as? [String: Any])?["error"] as? [String: Any])?["message"] as? String
            #expect(message?.contains("installed is not a known field") == true, "\(refused)")
        }
    }
}
