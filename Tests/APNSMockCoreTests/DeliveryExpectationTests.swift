import Testing

@testable import APNSMockCore

@Suite("DeliveryExpectation: reading expectation entries")
struct ExpectationTests {
    static func parse(_ json: String) throws -> [DeliveryExpectation] {
        let document = try #require(JSONValue.parse(json))
        return try DeliveryExpectation.list(document)
    }

    @Test func readsEveryField() throws {
        let list = try Self.parse(
            #"[{"name":"a","match":{"token":"abcd0123abcd0123"},"count":{"exactly":2},"within":"500ms"},"#
                + #"{"name":"b","match":{"status":410},"count":{"none":true}},{"name":"c","match":{}}]"#)
        #expect(list[0].count == .exactly(2))
        #expect(list[0].within == 0.5)
        #expect(list[0].match.conditions == [.token("abcd0123abcd0123")])
        #expect(list[1].count == .none)
        #expect(list[1].within == nil)
        #expect(list[2].count == .atLeast(1))
    }

    /// Found by schemathesis: JSON Schema's `integer` includes 95.0, and a JSON number is
    /// seconds however it is written.
    @Test func numbersAreReadByValue() throws {
        let list = try Self.parse(
            #"[{"name":"a","match":{"priority":5.0,"status":2.1e2},"count":{"atMost":3.0},"within":1e-1},"#
                + #"{"name":"b","match":{},"count":{"atMost":9223372036854775806}},"#
                + #"{"name":"c","match":{},"count":{"atMost":7e18}}]"#)
        #expect(list[0].match.conditions == [.priority(5), .status(210)])
        #expect(list[0].count == .atMost(3))
        #expect(list[0].within == 0.1)
        #expect(list[1].count == .atMost(9_223_372_036_854_775_806))
        #expect(list[2].count == .atMost(7_000_000_000_000_000_000))
        #expect(throws: MatcherError.self) { try Self.parse(#"[{"name":"a","match":{"priority":5.5}}]"#) }
        #expect(throws: MatcherError.self) { try Self.parse(#"[{"name":"a","match":{},"count":{"atMost":1.5}}]"#) }
    }

    /// `deliveredWithin` (issue 32): read as milliseconds, written back as a duration, and the
    /// followed matcher asks for delivered pushes.
    @Test func deliveredWithinIsReadWrittenAndFollowed() throws {
        let list = try Self.parse(
            #"[{"name":"a","match":{"collapseId":"score"},"deliveredWithin":"15m"},{"name":"b","match":{}}]"#)
        #expect(list[0].deliveredWithin == 900_000)
        #expect(list[0].followedMatcher.conditions == [.collapseID("score"), .delivery(.delivered)])
        #expect(list[1].deliveredWithin == nil && list[1].followedMatcher == list[1].match)
        #expect(list[0].json["deliveredWithin"] == .string("15m"))
        #expect(
            try Self.parse(list.map(\.json).reduce("[") { $0 + ($0 == "[" ? "" : ",") + $1.jsonText } + "]") == list)
    }

    @Test func inOrderStepsInheritTheWindow() throws {
        let list = try Self.parse(
            #"[{"name":"flow","inOrder":true,"within":"2s","steps":[{"match":{"status":410}},{"name":"quiet","match":{"status":200},"count":{"none":true}}]}]"#
        )
        let steps = try #require(list[0].steps)
        #expect(steps.map(\.name) == ["step 1", "quiet"])
        #expect(steps.map(\.within) == [2, 2])
        #expect(
            try Self.parse(list.map(\.json).reduce("[") { $0 + ($0 == "[" ? "" : ",") + $1.jsonText } + "]") == list)
    }

    @Test(arguments: [
        (#"[{"match":{}}]"#, "expect[0].name is missing"),
        (#"[{"name":"a"}]"#, "expect[0].match is missing"),
        (#"[{"name":"a","match":{},"count":{"exactly":-1}}]"#, "expect[0].count.exactly must be a whole number"),
        (#"[{"name":"a","match":{},"count":{"some":1}}]"#, "expect[0].count.some is not a count"),
        (#"[{"name":"a","match":{},"count":{"exactly":1,"atMost":2}}]"#, "expect[0].count must be one of"),
        (#"[{"name":"a","match":{},"within":"soon"}]"#, "expect[0].within must be a duration"),
        (#"[{"name":"a","match":{},"extra":1}]"#, "expect[0].extra is not an expectation field"),
        (#"[{"name":"a","inOrder":true,"steps":[]}]"#, "expect[0].steps must be a list"),
        (#"[{"name":"a","steps":[{"name":"s","match":{}}]}]"#, "expect[0].steps needs inOrder: true"),
        (#"[{"name":"a","match":{"tokn":"x"}}]"#, "unknown matcher field 'expect[0].match.tokn'"),
        (#"{"name":"a"}"#, "expect must be a list"),
        (#"[{"name":"a","match":{},"deliveredWithin":"later"}]"#, "expect[0].deliveredWithin must be a duration"),
        (#"[{"name":"a","match":{},"deliveredWithin":60}]"#, "expect[0].deliveredWithin must be a duration"),
        (
            #"[{"name":"a","inOrder":true,"deliveredWithin":"1m","steps":[{"match":{}}]}]"#,
            "expect[0].deliveredWithin goes in each step"
        ),
    ])
    func errorsNameTheKeyPath(_ json: String, _ message: String) throws {
        #expect {
            try Self.parse(json)
        } throws: { error in
            (error as? MatcherError)?.message.hasPrefix(message) ?? false
        }
    }

    @Test func countsHold() {
        #expect(DeliveryExpectation.Count.exactly(2).holds(2) && !DeliveryExpectation.Count.exactly(2).holds(3))
        #expect(DeliveryExpectation.Count.atLeast(2).holds(3) && !DeliveryExpectation.Count.atLeast(2).holds(1))
        #expect(DeliveryExpectation.Count.atMost(2).holds(0) && !DeliveryExpectation.Count.atMost(2).holds(3))
        #expect(DeliveryExpectation.Count.none.holds(0) && !DeliveryExpectation.Count.none.holds(1))
        #expect(DeliveryExpectation.Count.none.isUpperBound && DeliveryExpectation.Count.exactly(1).isUpperBound)
        #expect(!DeliveryExpectation.Count.atLeast(1).isUpperBound && DeliveryExpectation.Count.exactly(2).maximum == 2)
    }

    @Test(arguments: [("500ms", 0.5), ("5s", 5), ("2m", 120), ("1h", 3600), ("3", 3), ("0.25", 0.25)])
    func durations(_ text: String, _ seconds: Double) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "5x", "-1", "+3", "ms", "1e400", "1e2", "0x10", "inf", "nan", ".5", "5.", "1..2s", " 5"])
    func badDurations(_ text: String) {
        #expect(DurationText.seconds(text) == nil)
    }
}
