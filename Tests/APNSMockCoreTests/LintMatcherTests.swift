import Testing

@testable import APNSMockCore

/// A push whose analysis is computed from its payload, as the store and live requests do.
struct AnalysedFacts: DeliveryFacts {
    var payload: String
    var pushType: APNSPushType = .alert
    var matchToken: String? { "abcd0123abcd0123" }
    var matchTopic: String? { "com.example.app" }
    var matchPushType: APNSPushType? { pushType }
    var matchStatus: Int? { 200 }
    var matchReason: String? { nil }
    var matchAPNSID: String? { nil }
    var matchEnvironment: APNSEnvironment { .sandbox }
    var matchAuthMethod: AuthenticationResult.Method? { .token }
    func matchHeader(_ name: String) -> String? { nil }
    var matchPayload: [UInt8] { Array(payload.utf8) }
    var matchAnalysis: PayloadAnalysis? {
        PayloadAnalyzer.analyze(
            payload: matchPayload, payloadSize: matchPayload.count,
            context: PayloadContext(pushType: pushType, priority: "10", topic: "com.example.app"))
    }
}

/// The matcher's `lint` and `preview` fields (issue: "findings and previews are matcher fields").
@Suite struct LintMatcherTests {
    static let clean = AnalysedFacts(payload: #"{"aps":{"alert":{"title":"Game","body":"Bob wants to play"}}}"#)
    static let badBadge = AnalysedFacts(payload: #"{"aps":{"alert":"hi","badge":"3"}}"#)
    static let unknownKey = AnalysedFacts(payload: #"{"aps":{"alert":"hi","colour":"red"}}"#)

    @Test func lintSummariesAndCodes() throws {
        func matches(_ value: String, _ facts: AnalysedFacts) throws -> Bool {
            var matcher = DeliveryMatcher()
            try matcher.add(queryParameter: "lint", value: value)
            return matcher.matches(facts)
        }
        #expect(try matches("clean", Self.clean))
        #expect(try !matches("clean", Self.badBadge))
        #expect(try matches("error", Self.badBadge))
        #expect(try !matches("error", Self.unknownKey))
        #expect(try matches("warning", Self.unknownKey))
        #expect(try !matches("warning", Self.clean))
        #expect(try matches("badge-not-integer", Self.badBadge))
        #expect(try !matches("badge-not-integer", Self.unknownKey))
    }

    @Test func anUnknownLintValueIsRefusedByName() {
        var matcher = DeliveryMatcher()
        // A bare `preview` (or `payload`) parameter says how to write a path.
        let bare = #expect(throws: MatcherError.self) { try matcher.add(queryParameter: "preview", value: "x") }
        #expect(bare?.message.contains("preview.<path>=value") == true)
        #expect(throws: MatcherError.self) { try matcher.add(queryParameter: "lint", value: "bad-badge") }
        #expect(throws: MatcherError.self) { _ = try DeliveryMatcher(json: .object([("lint", .integer(3))])) }
    }

    @Test func previewFlatAndAsASubset() throws {
        var flat = DeliveryMatcher()
        try flat.add(queryParameter: "preview.body", value: "Bob wants to play")
        #expect(flat.matches(Self.clean))
        #expect(!flat.matches(Self.badBadge))
        let subset = try DeliveryMatcher(
            json: .object([("preview", .object([("title", .string("Game")), ("silent", .bool(false))]))]))
        #expect(subset.matches(Self.clean))
        #expect(!subset.matches(Self.unknownKey))
        #expect(throws: MatcherError.self) { _ = try DeliveryMatcher(json: .object([("preview", .string("x"))])) }
    }

    @Test func aNearMissReportsWhatTheRecordHad() throws {
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "lint", value: "clean")
        try matcher.add(queryParameter: "preview.body", value: "hello")
        let results = matcher.evaluate(Self.badBadge)
        #expect(results.map(\.actual) == ["badge-not-integer", "hi"])
        #expect(results.map(\.matched) == [false, false])
    }

    @Test func writtenBackAsJSONAndReadAgain() throws {
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "lint", value: "error")
        try matcher.add(queryParameter: "preview.sound.name", value: "default")
        let again = try DeliveryMatcher(json: matcher.json)
        #expect(again == matcher)
        #expect(matcher.json.jsonText == #"{"lint":"error","preview":{"sound":{"name":"default"}}}"#)
        #expect(matcher.needsAnalysis && !DeliveryMatcher([.status(200)]).needsAnalysis)
    }
}

/// The `.apns` file for the iOS Simulator (`xcrun simctl push booted FILE`).
@Suite struct SimulatorPushFileTests {
    @Test(arguments: [
        ("com.example.app", APNSPushType.alert, "com.example.app"),
        ("com.example.app.voip", .voip, "com.example.app"),
        ("com.example.app.push-type.liveactivity", .liveactivity, "com.example.app"),
        ("com.example.app.push-type.liveactivity", .alert, "com.example.app"),
        ("com.example.app.complication", .complication, "com.example.app"),
    ])
    func theBundleIsTheTopicWithoutItsSuffix(_ topic: String, _ type: APNSPushType, _ bundle: String) {
        #expect(SimulatorPushFile.bundleID(topic: topic, pushType: type) == bundle)
    }

    @Test func theTargetBundleComesFirstThenThePayload() throws {
        let file = try SimulatorPushFile.encode(
            payload: Array(#"{"aps":{"alert":"hi"},"id":7}"#.utf8), topic: "com.example.app.voip", pushType: .voip)
        #expect(
            String(decoding: file, as: UTF8.self)
                == #"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"hi"},"id":7}"#)
        let noTopic = try SimulatorPushFile.encode(payload: Array(#"{"aps":{}}"#.utf8), topic: nil, pushType: nil)
        #expect(String(decoding: noTopic, as: UTF8.self) == #"{"aps":{}}"#)
        #expect(throws: SimulatorPushFile.Problem.notAnObject) {
            _ = try SimulatorPushFile.encode(payload: Array("[1]".utf8), topic: "a", pushType: nil)
        }
    }
}
