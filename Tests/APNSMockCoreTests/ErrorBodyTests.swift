import APNSMockCore
import Foundation
import Testing

/// `APNSErrorBody.encode`: the JSON body of an error response, `{"reason":"…"}`, with
/// `timestamp` (milliseconds since the epoch) for 410 ("Handling notification responses from
/// APNs"). Clients parse this exact shape, so the bytes are pinned.
@Suite("APNSErrorBody")
struct ErrorBodyTests {
    @Test("Exact bytes for a reason")
    func reasonOnly() {
        #expect(APNSErrorBody.encode(reason: .badDeviceToken) == Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        #expect(
            String(decoding: APNSErrorBody.encode(reason: .payloadEmpty), as: UTF8.self)
                == #"{"reason":"PayloadEmpty"}"#)
    }

    @Test("Exact bytes with a timestamp")
    func withTimestamp() {
        #expect(
            APNSErrorBody.encode(reason: .unregistered, timestamp: 1_700_000_000_000)
                == Array(#"{"reason":"Unregistered","timestamp":1700000000000}"#.utf8))
        #expect(
            String(decoding: APNSErrorBody.encode(reason: .expiredToken, timestamp: 0), as: UTF8.self)
                == #"{"reason":"ExpiredToken","timestamp":0}"#)
    }

    @Test("Quotes, backslashes and control characters are escaped")
    func escaping() {
        #expect(
            String(decoding: APNSErrorBody.encode(reason: APNSReason("a\"b")), as: UTF8.self) == #"{"reason":"a\"b"}"#)
        #expect(
            String(decoding: APNSErrorBody.encode(reason: APNSReason("a\\b")), as: UTF8.self) == #"{"reason":"a\\b"}"#)
        #expect(
            String(decoding: APNSErrorBody.encode(reason: APNSReason("a\nb\u{1F}")), as: UTF8.self)
                == #"{"reason":"a\u000ab\u001f"}"#)
        #expect(String(decoding: APNSErrorBody.encode(reason: APNSReason("é🙂")), as: UTF8.self) == #"{"reason":"é🙂"}"#)
    }

    @Test(
        "The body parses back to the reason (and timestamp)",
        arguments: ["BadDeviceToken", "Unregistered", "quote\"back\\slash", "tab\tnew\nline\u{0}", "é🙂", ""])
    func roundTrip(raw: String) throws {
        for timestamp in [nil, Int64(1_700_000_000_123)] {
            let body = APNSErrorBody.encode(reason: APNSReason(raw), timestamp: timestamp)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            #expect(object["reason"] as? String == raw)
            if let timestamp {
                #expect((object["timestamp"] as? NSNumber)?.int64Value == timestamp)
                #expect(object.count == 2)
            } else {
                #expect(object.count == 1)
            }
        }
    }
}
