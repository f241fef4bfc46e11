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
        }
    }
}
