import APNSMockCore
import Testing

import APNSMockStore
import APNSMockRegistry
@testable import APNSMockAdmin

@Suite struct DeliveryQueryParserTests {
    @Test func parsesEveryParameter() throws {
        let (filter, limit, order) = try DeliveryQueryParser.parse([
            ("token", "ABCD"), ("topic", "com.a"), ("pushType", "voip"), ("status", "410"),
            ("apnsId", "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), ("since", "5"), ("limit", "20"), ("order", "desc"),
        ])
        #expect(filter.token == "ABCD")
        #expect(filter.topic == "com.a")
        #expect(filter.pushType == .voip)
        #expect(filter.status == 410)
        #expect(filter.since == 5)
        #expect(limit == 20)
        #expect(order == .desc)
    }

    @Test func defaults() throws {
        let (_, limit, order) = try DeliveryQueryParser.parse([])
        #expect(limit == 1000)
        #expect(order == .asc)
    }

    @Test(arguments: [
        ("limit", "0"), ("limit", "ten"), ("limit", "100001"), ("status", "abc"), ("status", "99"),
        ("pushType", "banner"), ("apnsId", "nope"), ("since", "-1"), ("order", "up"), ("bogus", "1"),
        ("token", ""),
    ])
    func rejectsBadValuesNamingTheParameter(_ name: String, _ value: String) {
        #expect {
            try DeliveryQueryParser.parse([(name, value)])
        } throws: { error in
            guard let error = error as? AdminError else { return false }
            return error.codeString == "badParameter" && error.message.contains("'\(name)'") && error.status == 400
        }
    }
}
