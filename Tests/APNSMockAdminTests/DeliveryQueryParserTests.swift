import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Testing

@testable import APNSMockAdmin

@Suite struct DeliveryQueryParserTests {
    @Test func parsesEveryParameter() throws {
        let query = try DeliveryQueryParser.parse([
            ("token", "ABCD0123ABCD0123"), ("topic", "com.a"), ("pushType", "voip"), ("status", "410"),
            ("apnsId", "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), ("since", "5"), ("limit", "20"), ("order", "desc"),
            ("payload.aps.alert.title", "Hi"), ("headers.apns-priority", "5"),
        ])
        #expect(
            query.matcher.conditions == [
                .token("abcd0123abcd0123"), .topic("com.a"), .pushType(.voip), .status(410),
                .apnsID("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"),
                .payload(path: [.key("aps"), .key("alert"), .key("title")], expected: .string("Hi")),
                .header(name: "apns-priority", value: "5"),
            ])
        #expect(query.since == 5)
        #expect(query.limit == 20)
        #expect(query.order == .desc)
    }

    @Test func defaults() throws {
        let query = try DeliveryQueryParser.parse([])
        #expect(query.limit == 1000)
        #expect(query.order == .asc)
        #expect(query.matcher.isEmpty)
    }

    @Test func endpointParametersAreAllowedOnlyWhereTheyBelong() throws {
        let parsed = try DeliveryQueryParser.parse([("count", "2"), ("tokenPrefix", "ab")], allowing: ["count"])
        #expect(parsed.extra["count"] == "2")
        #expect(throws: AdminError.self) { try DeliveryQueryParser.parse([("count", "2")]) }
    }

    @Test(arguments: [
        ("limit", "0"), ("limit", "ten"), ("limit", "100001"), ("status", "abc"), ("status", "99"),
        ("pushType", "banner"), ("apnsId", "nope"), ("since", "-1"), ("order", "up"), ("bogus", "1"),
        ("token", ""), ("environment", "prod"), ("authMethod", "jwt"), ("priority", "high"), ("payload..x", "1"),
        ("token", "zz"), ("tokenPrefix", "xyz"), ("status", "150"), ("priority", "7"), ("kind", "pushes"),
        ("outcome", "delivered"),
    ])
    func rejectsBadValuesNamingTheParameter(_ name: String, _ value: String) {
        #expect {
            try DeliveryQueryParser.parse([(name, value)])
        } throws: { error in
            guard let error = error as? AdminError else { return false }
            return error.codeString == "badParameter" && error.message.contains("'\(name)'") && error.status == 400
                && error.message.hasPrefix(name == "bogus" ? "unknown query parameter" : "query parameter")
        }
    }
}
