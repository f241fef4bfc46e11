import Testing

@testable import APNSMockCore

/// A matcher written as a query string (the dashboard's filter in `apns-mock verify`'s links):
/// read back, it is the same matcher; what a query string cannot say is left out, so that it
/// matches more records, never fewer.
@Suite struct DeliveryMatcherQueryStringTests {
    /// Splits and decodes a query string as the admin API does, and builds its matcher.
    static func parse(_ query: String) throws -> DeliveryMatcher {
        var matcher = DeliveryMatcher()
        for parameter in query.split(separator: "&") {
            let parts = parameter.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncodingForTests }
            try matcher.add(queryParameter: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
        return matcher
    }

    @Test func aMatcherWrittenAndReadBackMatchesTheSame() throws {
        let matcher = try DeliveryMatcher(
            json: JSONValue.parse(
                #"{"token":"abcd0123abcd0123","status":200,"headers":{"apns-priority":"10"},"payload":{"aps":{"alert":{"title":"Hello & welcome = 100%+"},"badge":3}},"preview":{"body":"Bob"},"channelId":"ab+c/d=="}"#
            )!)
        let query = matcher.queryString
        #expect(
            query
                == "token=abcd0123abcd0123&status=200&headers.apns-priority=10&payload.aps.alert.title=Hello%20%26%20welcome%20%3D%20100%25%2B&payload.aps.badge=3&preview.body=Bob&channelId=ab%2Bc%2Fd%3D%3D"
        )
        let read = try Self.parse(query)
        #expect(read.conditions.map(\.fieldName) == matcher.conditions.map(\.fieldName))
        #expect(read.conditions.map(\.expectedText) == matcher.conditions.map(\.expectedText))
        #expect(read.matches(FakeFacts()) == false)
        let alert = try DeliveryMatcher(json: .object([("pushType", .string("alert"))]))
        #expect(try Self.parse(alert.queryString).matches(FakeFacts()))
    }

    /// Arrays, objects and `null` are compared whole and a key with a `.` reads as two steps: left
    /// out, the rest stays.
    @Test func whatAQueryCannotSayIsLeftOut() throws {
        let matcher = try DeliveryMatcher(
            json: JSONValue.parse(
                #"{"topic":"com.example.app","payload":{"ids":[1,2],"empty":{},"gone":null,"a.b":"x","aps":{"badge":3}}}"#
            )!)
        #expect(matcher.queryString == "topic=com.example.app&payload.aps.badge=3")
        #expect(DeliveryMatcher().queryString == "")
    }
}

extension String {
    /// `%XX` decoded (Foundation is not imported by these tests).
    fileprivate var removingPercentEncodingForTests: String {
        var bytes: [UInt8] = []
        var iterator = Array(utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
