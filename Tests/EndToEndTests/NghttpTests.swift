import APNSMock
import Foundation
import Testing

/// nghttp (Debian nghttp2-client): frame-level view of the answers over real TLS.
@Suite(.serialized) struct NghttpTests {
    @Test func successAndErrorFrameLayout() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken(bytes: 80)
            let payload = FileManager.default.temporaryDirectory.appendingPathComponent(
                "apns-mock-nghttp-\(UUID().uuidString)")
            try Data(#"{"aps":{"alert":"nghttp"}}"#.utf8).write(to: payload)
            defer { try? FileManager.default.removeItem(at: payload) }
            let ok = try await E2E.run(
                "nghttp",
                [
                    "-v", "--no-dep", "-H", E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "-H",
                    "apns-push-type: alert", "-d", payload.path,
                    "\(mock.endpoints.apnsURL)/3/device/\(token)",
                ])
            #expect(ok.status == 0, "\(ok.stderr)")
            #expect(ok.stdout.contains(":status: 200"))
            // One HEADERS frame with END_STREAM (0x01) | END_HEADERS (0x04), and no DATA frame.
            #expect(ok.stdout.contains(#/recv HEADERS frame <length=\d+, flags=0x05, stream_id=1>/#))
            #expect(!ok.stdout.contains("recv DATA frame"))
            // A token connection starts with one stream and gets the configured limit once a push
            // passes authentication (APNS-REFERENCE §1).
            #expect(ok.stdout.contains("MAX_CONCURRENT_STREAMS(0x03):1]"))
            #expect(ok.stdout.contains("MAX_CONCURRENT_STREAMS(0x03):1000]"))
            #expect(ok.stdout.contains("MAX_HEADER_LIST_SIZE(0x06):8000"))

            let bad = try await E2E.run(
                "nghttp",
                [
                    "-v", "--no-dep", "-H", E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "-H",
                    "apns-priority: 2", "-d", payload.path,
                    "\(mock.endpoints.apnsURL)/3/device/\(token)",
                ])
            #expect(bad.stdout.contains(":status: 400"))
            #expect(bad.stdout.contains("content-type: application/json"))
            #expect(bad.stdout.contains(#/recv HEADERS frame <length=\d+, flags=0x04, stream_id=1>/#))
            #expect(bad.stdout.contains("recv DATA frame <length=24, flags=0x01, stream_id=1>"))
            #expect(bad.stdout.contains(#"{"reason":"BadPriority"}"#))

            let records = try await E2E.deliveries(mock, token: token)
            #expect(records.compactMap { ($0["response"] as? [String: Any])?["status"] as? Int } == [200, 400])
        }
    }
}
