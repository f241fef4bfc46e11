import Testing

@testable import APNSMockCore

/// A push as a matcher sees it: a baseline plus one change per row.
struct FakeFacts: DeliveryFacts {
    var matchToken: String? = "abcd0123abcd0123"
    var matchTopic: String? = "com.example.app"
    var matchPushType: APNSPushType? = .alert
    var matchStatus: Int? = 200
    var matchReason: String?
    var matchAPNSID: String? = "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"
    var matchEnvironment: APNSEnvironment = .sandbox
    var matchAuthMethod: AuthenticationResult.Method? = .token
    var headers: [String: String] = ["apns-priority": "10", "apns-collapse-id": "scores", "x-custom": "1"]
    var matchPayload: [UInt8] = Array(
        #"{"aps":{"alert":{"title":"Hello","body":"Bob"},"badge":3,"content-available":1},"ids":[1,2],"flag":true}"#
            .utf8)

    var matchWebPush: JSONValue? = JSONValue.parse(
        #"{"subscriptionId":"s1","vapid":{"subject":"mailto:ops@example.com"},"ttl":60,"urgency":"high","decrypted":false,"decryption":{"problem":"authenticationFailed"}}"#
    )

    func matchHeader(_ name: String) -> String? { headers[name] }
}

@Suite("DeliveryMatcher: one condition per field")
struct DeliveryMatcherTests {
    /// (query parameter, value that matches the baseline, value that does not).
    static let fields: [(String, String, String)] = [
        ("token", "ABCD0123ABCD0123", "ffff0123abcd0123"),
        ("tokenPrefix", "abcd", "abce"),
        ("topic", "com.example.app", "com.example.other"),
        ("pushType", "alert", "background"),
        ("status", "200", "410"),
        ("apnsId", "7f4c2b9e-1d3a-4f5b-8c6d-0e1f2a3b4c5d", "00000000-0000-4000-8000-000000000000"),
        ("collapseId", "scores", "other"),
        ("priority", "10", "5"),
        ("environment", "sandbox", "production"),
        ("authMethod", "token", "certificate"),
        ("headers.x-custom", "1", "2"),
        ("headers.apns-priority", "10", "5"),
        ("payload.aps.alert.title", "Hello", "Bye"),
        ("payload.aps.badge", "3", "4"),
        ("payload.flag", "true", "false"),
        ("payload.ids.1", "2", "1"),
        ("webPush.urgency", "high", "low"),
        ("webPush.ttl", "60", "0"),
        ("webPush.vapid.subject", "mailto:ops@example.com", "mailto:other@example.com"),
        ("webPush.decrypted", "false", "true"),
        ("webPush.decryption.problem", "authenticationFailed", "badPadding"),
    ]

    @Test(arguments: fields)
    func queryFieldMatchesAndMisses(_ field: (String, String, String)) throws {
        var hit = DeliveryMatcher()
        try hit.add(queryParameter: field.0, value: field.1)
        #expect(hit.matches(FakeFacts()))
        var miss = DeliveryMatcher()
        try miss.add(queryParameter: field.0, value: field.2)
        #expect(!miss.matches(FakeFacts()))
        let result = try #require(miss.evaluate(FakeFacts()).first)
        #expect(!result.matched)
        #expect(result.condition.fieldName == field.0)
    }

    @Test func reasonMatchesRejections() throws {
        var facts = FakeFacts()
        facts.matchStatus = 410
        facts.matchReason = "Unregistered"
        #expect(DeliveryMatcher([.reason("Unregistered"), .status(410)]).matches(facts))
        #expect(!DeliveryMatcher([.reason("Unregistered")]).matches(FakeFacts()))
    }

    @Test func unansweredPushesMatchNoStatus() {
        var facts = FakeFacts()
        facts.matchStatus = nil
        #expect(!DeliveryMatcher([.status(200)]).matches(facts))
        #expect(DeliveryMatcher([.topic("com.example.app")]).matches(facts))
    }

    @Test func authMethodNoneMeansNoAuthentication() {
        var facts = FakeFacts()
        facts.matchAuthMethod = nil
        #expect(DeliveryMatcher([.authMethod("none")]).matches(facts))
        #expect(!DeliveryMatcher([.authMethod("token")]).matches(facts))
    }

    @Test func emptyMatcherMatchesEverything() {
        #expect(DeliveryMatcher().matches(FakeFacts()))
        #expect(DeliveryMatcher().isEmpty)
    }

    @Test func everyConditionMustHold() {
        #expect(!DeliveryMatcher([.topic("com.example.app"), .status(410)]).matches(FakeFacts()))
        #expect(DeliveryMatcher([.topic("com.example.app"), .status(200)]).matches(FakeFacts()))
    }

    // MARK: payload subsets

    @Test func payloadSubsetFromJSON() throws {
        let subset = try #require(JSONValue.parse(#"{"aps":{"alert":{"title":"Hello"},"badge":3}}"#))
        let matcher = try DeliveryMatcher(json: .object([("payload", subset)]))
        #expect(matcher.conditions.count == 2)
        #expect(matcher.matches(FakeFacts()))
        let wrong = try #require(JSONValue.parse(#"{"aps":{"alert":{"title":"Hello","subtitle":"x"}}}"#))
        #expect(try !DeliveryMatcher(json: .object([("payload", wrong)])).matches(FakeFacts()))
    }

    @Test func arraysMatchElementByElement() throws {
        func matches(_ json: String) throws -> Bool {
            let subset = try #require(JSONValue.parse(json))
            return try DeliveryMatcher(json: .object([("payload", subset)])).matches(FakeFacts())
        }
        #expect(try matches(#"{"ids":[1,2]}"#))
        #expect(try !matches(#"{"ids":[2,1]}"#))
        #expect(try !matches(#"{"ids":[1]}"#))
        #expect(try matches(#"{"aps":{}}"#))
        #expect(try !matches(#"{"missing":{}}"#))
    }

    @Test func payloadThatIsNotJSONMatchesNoPayloadCondition() {
        var facts = FakeFacts()
        facts.matchPayload = Array("not json".utf8)
        #expect(!DeliveryMatcher([.payload(path: [.key("aps")], expected: .object([]))]).matches(facts))
    }

    // MARK: parsing

    @Test func jsonFieldsAndErrors() throws {
        let json = try #require(
            JSONValue.parse(
                #"{"token":"ABCD0123ABCD0123","status":200,"priority":10,"headers":{"X-Custom":"1"},"environment":"sandbox"}"#
            ))
        let matcher = try DeliveryMatcher(json: json, at: "expect[0].match")
        #expect(matcher.matches(FakeFacts()))
        #expect(matcher.token == "abcd0123abcd0123")
        let unknown = #expect(throws: MatcherError.self) {
            try DeliveryMatcher(json: .object([("tokn", .string("x"))]), at: "expect[0].match")
        }
        #expect(unknown?.code == .unknownField)
        #expect(unknown?.field == "expect[0].match.tokn")
        #expect(
            unknown?.message
                == "unknown matcher field 'expect[0].match.tokn' (did you mean 'token'?); known: \(DeliveryMatcher.fieldNames.joined(separator: ", "))"
        )
        // The sentence is built from the fields: a URL's reader calls the field a query parameter.
        #expect(
            unknown?.message(naming: "query parameter").hasPrefix(
                "unknown query parameter 'expect[0].match.tokn' (did you mean 'token'?);")
                == true)
        let invalid = #expect(throws: MatcherError.self) {
            try DeliveryMatcher(json: .object([("status", .string("ok"))]))
        }
        #expect(invalid?.code == .invalidValue)
        #expect(
            invalid?.message(naming: "query parameter")
                == "query parameter 'match.status' must be an HTTP status code from 200 to 599, such as 200 or 410; got 'ok'"
        )
        #expect(throws: MatcherError.self) { try DeliveryMatcher(json: .object([("status", .string("ok"))])) }
        #expect(throws: MatcherError.self) { try DeliveryMatcher(json: .object([("headers", .string("x"))])) }
        #expect(throws: MatcherError.self) { try DeliveryMatcher(json: .string("token")) }
    }

    @Test func jsonRoundTrip() throws {
        let text =
            #"{"token":"abcd0123abcd0123","status":410,"headers":{"apns-priority":"5"},"payload":{"aps":{"badge":3}}}"#
        let matcher = try DeliveryMatcher(json: #require(JSONValue.parse(text)))
        #expect(try DeliveryMatcher(json: matcher.json) == matcher)
    }

    @Test func nearMissReportNamesEachField() throws {
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "topic", value: "com.example.app")
        try matcher.add(queryParameter: "payload.aps.alert.title", value: "Welcome")
        let results = matcher.evaluate(FakeFacts())
        #expect(results.map(\.matched) == [true, false])
        #expect(results[1].actual == "Hello")
        #expect(results[1].condition.fieldName == "payload.aps.alert.title")
        #expect(results[1].condition.expectedText == "Welcome")
    }
}

@Suite("JSONValue parsing")
struct JSONValueTests {
    @Test(arguments: [
        #"{"a":[1,2.5,-3e2,true,false,null,"x\u00e9\n"]}"#, "[]", "{}", "0", #""\ud83d\ude00""#, " 1 ",
    ])
    func parsesValidJSON(_ text: String) {
        #expect(JSONValue.parse(text) != nil)
    }

    @Test(arguments: ["{", "[1,]", "01", "1.", #""\x""#, "{'a':1}", "tru", #"{"a" 1}"#, "1 2", #""\ud83d""#])
    func rejectsInvalidJSON(_ text: String) {
        #expect(JSONValue.parse(text) == nil)
    }

    /// Strings decode to the same text with and without escapes, multi-byte characters kept
    /// whole around them; invalid UTF-8 is refused, escaped or not.
    @Test func stringsWithAndWithoutEscapes() {
        #expect(JSONValue.parse(#""Café 😀 ok""#) == .string("Café 😀 ok"))
        #expect(JSONValue.parse(#""Caf\u00e9 \ud83d\ude00\n\"q\" é""#) == .string("Café 😀\n\"q\" é"))
        #expect(JSONValue.parse(#""\\U0001F600""#) == .string(#"\U0001F600"#))
        let long = String(repeating: "é", count: 3000)
        #expect(JSONValue.parse("\"\(long)\\t\"") == .string(long + "\t"))
        #expect(JSONValue.parse([0x22, 0xC3, 0x22]) == nil)
        #expect(JSONValue.parse([0x22, 0xC3, 0x5C, 0x6E, 0x22]) == nil)
        #expect(JSONValue.parse([0x22, 0x5C, 0x6E, 0xFF, 0x22]) == nil)
    }

    @Test func keepsKeyOrderAndValues() throws {
        let value = try #require(JSONValue.parse(#"{"b":1,"a":"é","c":[true]}"#))
        guard case .object(let members) = value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["b", "a", "c"])
        #expect(value["a"] == .string("é"))
        #expect(value.jsonText == #"{"b":1,"a":"é","c":[true]}"#)
    }
}

/// `webPush` conditions: written in JSON as an object, read back the same, and never true for a
/// record that is no web push.
@Suite struct DeliveryMatcherWebPushTests {
    @Test func aJSONSubsetIsItsQueryParameters() throws {
        let json = try #require(
            JSONValue.parse(#"{"webPush":{"urgency":"high","vapid":{"subject":"mailto:ops@example.com"}}}"#))
        let matcher = try DeliveryMatcher(json: json)
        #expect(matcher.matches(FakeFacts()))
        #expect(
            matcher.queryString
                == "webPush.urgency=high&webPush.vapid.subject=mailto%3Aops%40example.com")
        #expect(try DeliveryMatcher(json: matcher.json) == matcher)
        var fromQuery = DeliveryMatcher()
        try fromQuery.add(queryParameter: "webPush.urgency", value: "high")
        try fromQuery.add(queryParameter: "webPush.vapid.subject", value: "mailto:ops@example.com")
        #expect(fromQuery == matcher)
    }

    @Test func aDevicePushHasNoWebPushFacts() throws {
        var facts = FakeFacts()
        facts.matchWebPush = nil
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "webPush.urgency", value: "high")
        #expect(!matcher.matches(facts))
        #expect(matcher.evaluate(facts).first?.actual == nil)
    }

    @Test func bareOrNonObjectWebPushIsRefusedWithAnExample() {
        var matcher = DeliveryMatcher()
        #expect(throws: MatcherError.self) { try matcher.add(queryParameter: "webPush", value: "x") }
        do {
            try matcher.add(queryParameter: "webPush", value: "x")
        } catch {
            #expect(error.description.contains("webPush.urgency=high"), "\(error)")
        }
        #expect(throws: MatcherError.self) { try DeliveryMatcher(json: .object([("webPush", .string("high"))])) }
    }
}
