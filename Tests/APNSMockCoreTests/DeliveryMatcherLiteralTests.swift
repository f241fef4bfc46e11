import Testing

@testable import APNSMockCore

/// Matchers written in Swift, as the in-process API takes them.
@Suite struct DeliveryMatcherLiteralTests {
    @Test func anArrayLiteralHoldsEveryCondition() {
        let matcher: DeliveryMatcher = [.token("ABCD0123ABCD0123"), .status(200), .pushType(.alert)]
        #expect(matcher.conditions.count == 3)
        #expect(matcher.matches(FakeFacts()))
        #expect(!([.token("abcd0123abcd0123"), .status(410)] as DeliveryMatcher).matches(FakeFacts()))
        #expect(([] as DeliveryMatcher).isEmpty)
    }

    @Test(arguments: [
        (DeliveryMatcher.Condition.payload("aps.alert.title", "Hello"), true),
        (.payload("aps.alert.title", "Bye"), false),
        (.payload("aps.badge", 3), true),
        (.payload("aps.badge", 3.0), true),
        (.payload("aps.badge", 4), false),
        (.payload("flag", true), true),
        (.payload("aps", ["alert": ["body": "Bob"]]), true),
        (.payload("aps", ["alert": ["body": "Alice"]]), false),
        (.payload("ids", [1, 2]), true),
        (.payload("ids", [2]), false),
        (.payload("missing", "x"), false),
    ])
    func payloadConditionsFromLiterals(_ condition: DeliveryMatcher.Condition, _ matches: Bool) {
        #expect(DeliveryMatcher([condition]).matches(FakeFacts()) == matches, "\(condition.fieldName)")
    }

    @Test func literalsBuildTheValuesTheParserBuilds() {
        let literal: JSONValue = ["a": [1, 2.5, true, "x"], "b": .null]
        #expect(literal == JSONValue.parse(#"{"a":[1,2.5,true,"x"],"b":null}"#))
        #expect(JSONValue.parse("1 2") == nil)
    }
}
