import Testing

@testable import APNSMockCore

@Suite("FaultRule: reading, writing and matching fault rules")
struct FaultRuleTests {
    static func parse(_ json: String, id: String = "r1", createdAt: Int64 = 1_000, defaultSeed: UInt64 = 7)
        throws -> FaultRule
    {
        let document = try #require(JSONValue.parse(json))
        return try FaultRule.parse(document, id: id, createdAt: createdAt, defaultSeed: defaultSeed)
    }

    static func written(_ rule: FaultRule, hits: Int = 0, matches: Int = 0) -> String {
        var writer = JSONWriter()
        rule.write(to: &writer, hits: hits, matches: matches)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// (action object, the action it reads as).
    static let actions: [(String, FaultAction)] = [
        (
            #"{"respond": {"status": 410, "reason": "Unregistered", "timestamp": 1700000000000}}"#,
            FaultAction(.respond(FaultResponse(status: 410, reason: .unregistered, timestamp: 1_700_000_000_000)))
        ),
        (
            #"{"respond": {"status": 500, "reason": "InternalServerError", "dataFrames": 3}}"#,
            FaultAction(.respond(FaultResponse(status: 500, reason: .internalServerError, dataFrames: 3)))
        ),
        (#"{"respond": {"status": 200}}"#, FaultAction(.respond(FaultResponse(status: 200)))),
        (
            #"{"respond": {"status": 418, "reason": "TeapotOverflow"}}"#,
            FaultAction(.respond(FaultResponse(status: 418, reason: APNSReason("TeapotOverflow"))))
        ),
        (#"{"delay": {"duration": "500ms"}}"#, FaultAction(delay: FaultDelay(milliseconds: 500), effect: nil)),
        (
            #"{"delay": {"min": "100ms", "max": "900ms"}}"#,
            FaultAction(delay: FaultDelay(milliseconds: 100...900), effect: nil)
        ),
        (
            #"{"delay": {"min": "1.5s", "max": "1.5s"}}"#,
            FaultAction(delay: FaultDelay(milliseconds: 1_500), effect: nil)
        ),
        (#"{"delay": {"duration": "1h"}}"#, FaultAction(delay: FaultDelay(milliseconds: 3_600_000), effect: nil)),
        (#"{"delay": {"duration": "0ms"}}"#, FaultAction(delay: FaultDelay(milliseconds: 0), effect: nil)),
        (
            #"{"delay": {"duration": "2s"}, "respond": {"status": 503, "reason": "ServiceUnavailable"}}"#,
            FaultAction(
                delay: FaultDelay(milliseconds: 2_000),
                effect: .respond(FaultResponse(status: 503, reason: .serviceUnavailable)))
        ),
        (
            #"{"hang": {}, "delay": {"duration": "2m"}}"#,
            FaultAction(delay: FaultDelay(milliseconds: 120_000), effect: .hang)
        ),
        (#"{"hang": {}}"#, FaultAction(.hang)),
        (#"{"resetStream": {"errorCode": "REFUSED_STREAM"}}"#, FaultAction(.resetStream(.refusedStream))),
        (#"{"resetStream": {}}"#, FaultAction(.resetStream(.refusedStream))),
        (#"{"resetStream": {"errorCode": 255}}"#, FaultAction(.resetStream(HTTP2ErrorCode(255)))),
        (#"{"resetStream": {"errorCode": 2}}"#, FaultAction(.resetStream(.internalError))),
        (
            #"{"goaway": {"errorCode": "NO_ERROR", "lastStreamId": 5, "debug": "{\"reason\":\"Shutdown\"}"}}"#,
            FaultAction(.goAway(errorCode: .noError, lastStreamID: 5, debugData: Array(#"{"reason":"Shutdown"}"#.utf8)))
        ),
        (
            #"{"goaway": {}}"#,
            FaultAction(
                .goAway(errorCode: .noError, lastStreamID: nil, debugData: Array(#"{"reason":"Shutdown"}"#.utf8)))
        ),
        (
            #"{"goaway": {"errorCode": "ENHANCE_YOUR_CALM", "reason": "Too \"many\""}}"#,
            FaultAction(
                .goAway(
                    errorCode: .enhanceYourCalm, lastStreamID: nil, debugData: Array(#"{"reason":"Too \"many\""}"#.utf8)
                ))
        ),
        (
            #"{"goaway": {"debug": "plain text", "lastStreamId": 0}}"#,
            FaultAction(.goAway(errorCode: .noError, lastStreamID: 0, debugData: Array("plain text".utf8)))
        ),
        (
            #"{"goaway": {"order": "goAwayFirst"}}"#,
            FaultAction(
                .goAway(
                    errorCode: .noError, lastStreamID: nil, debugData: Array(#"{"reason":"Shutdown"}"#.utf8),
                    order: .goAwayFirst))
        ),
        (
            #"{"goaway": {"order": "answerFirst", "lastStreamId": 3}}"#,
            FaultAction(
                .goAway(
                    errorCode: .noError, lastStreamID: 3, debugData: Array(#"{"reason":"Shutdown"}"#.utf8),
                    order: .answerFirst))
        ),
        (#"{"close": {"respondFirst": false}}"#, FaultAction(.close(respondFirst: false))),
        (#"{"close": {}}"#, FaultAction(.close(respondFirst: false))),
        (#"{"close": {"respondFirst": true}}"#, FaultAction(.close(respondFirst: true))),
        (#"{"setMaxConcurrentStreams": {"value": 1}}"#, FaultAction(.setMaxConcurrentStreams(1))),
        (#"{"setMaxConcurrentStreams": {"value": 0}}"#, FaultAction(.setMaxConcurrentStreams(0))),
        (
            #"{"setMaxConcurrentStreams": {"value": 2147483647}}"#,
            FaultAction(.setMaxConcurrentStreams(2_147_483_647))
        ),
    ]

    /// Every action name is read by an example above and names the effect it reads as: a new
    /// action without its parse case, its name in `FaultEffect.names` or an example fails here.
    @Test func everyActionNameHasAnExampleThatReadsAsIt() throws {
        var named: Set<String> = []
        for (text, action) in Self.actions {
            guard let effect = action.effect else { continue }
            #expect(FaultEffect.names.contains(effect.name), "\(effect.name) is not in FaultEffect.names")
            #expect(text.contains("\"\(effect.name)\""), "\(text) reads as \(effect.name)")
            named.insert(effect.name)
        }
        #expect(
            named == Set(FaultEffect.names), "actions without an example: \(Set(FaultEffect.names).subtracting(named))")
    }

    @Test(arguments: actions)
    func readsEachActionAndWritesItBack(_ example: (String, FaultAction)) throws {
        let rule = try Self.parse(#"{"action": \#(example.0)}"#)
        #expect(rule.action == example.1)
        #expect(rule.matcher.isEmpty)
        #expect(rule.connectionID == nil)
        #expect(rule.selection == .always)
        // What is written reads back as the same rule, and writes the same text again.
        let text = Self.written(rule, hits: 2, matches: 5)
        let again = try Self.parse(text, id: "other")
        #expect(again == rule)
        #expect(Self.written(again, hits: 2, matches: 5) == text)
    }

    /// (select object, the selection it reads as).
    static let selections: [(String, FaultSelection)] = [
        ("{}", .always),
        (#"{"first": 2}"#, .first(2)),
        (#"{"nth": 3}"#, .nth(3)),
        (#"{"every": 2}"#, .everyKth(2)),
        (#"{"every": 2.0}"#, .everyKth(2)),
        (#"{"probability": 0.25, "seed": 42}"#, .probability(0.25)),
        (#"{"probability": 0}"#, .probability(0)),
        (#"{"probability": 1}"#, .probability(1)),
        (#"{"probability": 1e-5}"#, .probability(0.000_01)),
        (#"{"for": "30s"}"#, .window(milliseconds: 30_000)),
        (#"{"for": "250ms"}"#, .window(milliseconds: 250)),
        (#"{"for": "24h"}"#, .window(milliseconds: 86_400_000)),
    ]

    @Test(arguments: selections)
    func readsEachSelectionAndWritesItBack(_ example: (String, FaultSelection)) throws {
        let rule = try Self.parse(
            #"{"id": "sel", "match": {"token": "ABCD0123ABCD0123", "headers": {"X-Custom": "1"}, "#
                + #""payload": {"aps": {"badge": 3, "alert": {"title": "Hello"}}}, "connectionId": 3}, "#
                + #""select": \#(example.0), "action": {"hang": {}}}"#)
        #expect(rule.selection == example.1)
        #expect(rule.id == "sel")
        let text = Self.written(rule)
        let again = try Self.parse(text)
        #expect(again == rule)
        #expect(Self.written(again) == text)
    }

    @Test func writesTheCanonicalShape() throws {
        let rule = try Self.parse(
            #"{"id": "gone", "match": {"connectionId": 3, "token": "ABCD0123ABCD0123", "status": 200.0}, "#
                + #""select": {"first": 2}, "action": {"respond": {"reason": "Unregistered", "status": 410, "#
                + #""timestamp": 1700000000000}, "delay": {"min": "0.1s", "max": "1500ms"}}}"#)
        #expect(
            Self.written(rule, hits: 1, matches: 2)
                == #"{"id":"gone","match":{"token":"abcd0123abcd0123","status":200,"connectionId":3},"#
                + #""select":{"first":2},"action":{"delay":{"min":"100ms","max":"1.5s"},"#
                + #""respond":{"status":410,"reason":"Unregistered","timestamp":1700000000000}},"#
                + #""createdAt":1000,"hits":1,"matches":2}"#)
    }

    @Test func writesTheSeedInEffect() throws {
        let seeded = try Self.parse(
            #"{"select": {"probability": 0.5, "seed": 18446744073709551615}, "action": {"hang": {}}}"#)
        #expect(seeded.seed == .max)
        #expect(Self.written(seeded).contains(#""select":{"probability":0.5,"seed":18446744073709551615}"#))
        // Without a seed, the rule's own comes from the server's seed and the id, and is written
        // out so that the listing reproduces the sequence anywhere.
        let derived = try Self.parse(#"{"select": {"probability": 0.5}, "action": {"hang": {}}}"#, id: "a")
        #expect(derived.seed == FaultRule.derivedSeed(defaultSeed: 7, id: "a"))
        #expect(Self.written(derived).contains(#""seed":\#(derived.seed)"#))
        #expect(try Self.parse(Self.written(derived), defaultSeed: 99) == derived)
    }

    @Test func derivedSeedsDependOnTheServerSeedAndTheID() {
        let seed = FaultRule.derivedSeed(defaultSeed: 1, id: "a")
        #expect(FaultRule.derivedSeed(defaultSeed: 1, id: "a") == seed)
        #expect(FaultRule.derivedSeed(defaultSeed: 1, id: "b") != seed)
        #expect(FaultRule.derivedSeed(defaultSeed: 2, id: "a") != seed)
    }

    @Test func theIDInTheObjectWins() throws {
        #expect(try Self.parse(#"{"action": {"hang": {}}}"#, id: "given").id == "given")
        #expect(try Self.parse(#"{"id": "mine", "action": {"hang": {}}}"#, id: "given").id == "mine")
        let longest = String(repeating: "a", count: 64)
        #expect(try Self.parse(#"{"id": "\#(longest)", "action": {"hang": {}}}"#).id == longest)
        #expect(try Self.parse(#"{"id": "A-z_0.9", "action": {"hang": {}}}"#).id == "A-z_0.9")
    }

    @Test func listingFieldsAreAcceptedAndIgnored() throws {
        let rule = try Self.parse(
            #"{"action": {"hang": {}}, "createdAt": 5, "hits": 3, "matches": 4}"#, createdAt: 9)
        #expect(rule.createdAt == 9)
    }

    /// (rule, a fragment of the message): every error names its field by key path.
    static let errors: [(String, String)] = [
        ("[]", "a fault rule must be an object"),
        ("{}", "'action' is missing"),
        (#"{"action": {"hang": {}}, "bogus": 1}"#, "unknown field 'bogus'; known: id, match, select, action"),
        (#"{"action": {"hang": {}}, "action": {"hang": {}}}"#, "'action' is given more than once"),
        (#"{"id": "", "action": {"hang": {}}}"#, "'id' must be a string of 1 to 64 characters"),
        (#"{"id": "has space", "action": {"hang": {}}}"#, "'id' must be a string of 1 to 64 characters"),
        (#"{"id": 5, "action": {"hang": {}}}"#, "'id' must be a string of 1 to 64 characters"),
        (
            #"{"id": "\#(String(repeating: "a", count: 65))", "action": {"hang": {}}}"#,
            "'id' must be a string of 1 to 64 characters"
        ),
        (#"{"action": {"hang": {}}, "createdAt": "now"}"#, "'createdAt' must be an integer of at least 0"),
        (#"{"action": {"hang": {}}, "hits": -1}"#, "'hits' must be an integer of at least 0"),
        // action
        (#"{"action": []}"#, "'action' must be an object such as"),
        (#"{"action": {}}"#, "'action' names no action; use one of delay, respond, hang"),
        (#"{"action": {"explode": {}}}"#, "unknown field 'action.explode'; known: delay, respond, hang"),
        (
            #"{"action": {"respond": {"status": 503, "reason": "X"}, "hang": {}}}"#,
            "'action' holds both 'respond' and 'hang'"
        ),
        (
            #"{"action": {"respond": {"status": 199, "reason": "X"}}}"#,
            "'action.respond.status' must be an integer from 200 to 599"
        ),
        (
            #"{"action": {"respond": {"status": 600, "reason": "X"}}}"#,
            "'action.respond.status' must be an integer from 200 to 599"
        ),
        (
            #"{"action": {"respond": {"status": "410", "reason": "X"}}}"#,
            "'action.respond.status' must be an integer from 200 to 599"
        ),
        (
            #"{"action": {"respond": {"status": 410.5, "reason": "X"}}}"#,
            "'action.respond.status' must be an integer from 200 to 599"
        ),
        (#"{"action": {"respond": {"reason": "X"}}}"#, "'action.respond.status' is missing"),
        (#"{"action": {"respond": {"status": 410}}}"#, "'action.respond.reason' is missing"),
        (
            #"{"action": {"respond": {"status": 410, "reason": ""}}}"#,
            "'action.respond.reason' must be a non-empty string"
        ),
        (
            #"{"action": {"respond": {"status": 410, "reason": 7}}}"#,
            "'action.respond.reason' must be a non-empty string"
        ),
        (#"{"action": {"respond": {"status": 200, "reason": "X"}}}"#, "'action.respond.reason' must be absent"),
        (#"{"action": {"respond": {"status": 200, "timestamp": 1}}}"#, "'action.respond.timestamp' must be absent"),
        (#"{"action": {"respond": {"status": 200, "dataFrames": 2}}}"#, "'action.respond.dataFrames' must be absent"),
        (
            #"{"action": {"respond": {"status": 410, "reason": "X", "timestamp": -1}}}"#,
            "'action.respond.timestamp' must be an integer of at least 0"
        ),
        (
            #"{"action": {"respond": {"status": 410, "reason": "X", "dataFrames": 0}}}"#,
            "'action.respond.dataFrames' must be an integer from 1 to 16"
        ),
        (
            #"{"action": {"respond": {"status": 410, "reason": "X", "dataFrames": 17}}}"#,
            "'action.respond.dataFrames' must be an integer from 1 to 16"
        ),
        (
            #"{"action": {"respond": {"stauts": 410}}}"#,
            "unknown field 'action.respond.stauts' (did you mean 'status'?); known: status, reason"
        ),
        (#"{"action": {"respond": 410}}"#, "'action.respond' must be an object"),
        (#"{"action": {"hang": true}}"#, "'action.hang' must be an empty object"),
        (#"{"action": {"hang": {"x": 1}}}"#, "unknown field 'action.hang.x'; 'action.hang' takes no fields"),
        (#"{"action": {"delay": {}}}"#, "'action.delay' needs either 'duration' or both 'min' and 'max'"),
        (#"{"action": {"delay": {"min": "1s"}}}"#, "'action.delay' needs either 'duration' or both 'min' and 'max'"),
        (
            #"{"action": {"delay": {"duration": "1s", "min": "1s", "max": "2s"}}}"#,
            "'action.delay' needs either 'duration' or both 'min' and 'max'"
        ),
        (#"{"action": {"delay": {"duration": "soon"}}}"#, "'action.delay.duration' must be a duration from 0ms to 1h"),
        (#"{"action": {"delay": {"duration": "61m"}}}"#, "'action.delay.duration' must be a duration from 0ms to 1h"),
        (#"{"action": {"delay": {"duration": 500}}}"#, "'action.delay.duration' must be a duration from 0ms to 1h"),
        (#"{"action": {"delay": {"duration": "-1s"}}}"#, "'action.delay.duration' must be a duration from 0ms to 1h"),
        (#"{"action": {"delay": {"min": "2s", "max": "1h1s"}}}"#, "'action.delay.max' must be a duration"),
        (
            #"{"action": {"delay": {"min": "2s", "max": "1s"}}}"#,
            "'action.delay.min' must not be longer than 'action.delay.max'"
        ),
        (#"{"action": {"delay": {"for": "1s"}}}"#, "unknown field 'action.delay.for'; known: duration, min, max"),
        (
            #"{"action": {"resetStream": {"errorCode": "NOPE"}}}"#,
            "'action.resetStream.errorCode' must be an HTTP/2 error code"
        ),
        (
            #"{"action": {"resetStream": {"errorCode": -1}}}"#,
            "'action.resetStream.errorCode' must be an HTTP/2 error code"
        ),
        (
            #"{"action": {"resetStream": {"errorCode": 4294967296}}}"#,
            "'action.resetStream.errorCode' must be an HTTP/2 error code"
        ),
        (#"{"action": {"resetStream": {"code": 1}}}"#, "unknown field 'action.resetStream.code'; known: errorCode"),
        (
            #"{"action": {"goaway": {"errorCode": "no_error"}}}"#,
            "'action.goaway.errorCode' must be an HTTP/2 error code"
        ),
        (
            #"{"action": {"goaway": {"lastStreamId": -1}}}"#,
            "'action.goaway.lastStreamId' must be an integer from 0 to 2147483647"
        ),
        (
            #"{"action": {"goaway": {"lastStreamId": 2147483648}}}"#,
            "'action.goaway.lastStreamId' must be an integer from 0 to 2147483647"
        ),
        (#"{"action": {"goaway": {"debug": 5}}}"#, "'action.goaway.debug' must be a string"),
        (
            #"{"action": {"goaway": {"order": "later"}}}"#,
            "'action.goaway.order' must be one of answerFirst, goAwayFirst"
        ),
        (#"{"action": {"goaway": {"order": 1}}}"#, "'action.goaway.order' must be one of answerFirst, goAwayFirst"),
        (
            #"{"action": {"goaway": {"order": "AnswerFirst"}}}"#,
            "'action.goaway.order' must be one of answerFirst, goAwayFirst"
        ),
        (#"{"action": {"goaway": {"reason": ""}}}"#, "'action.goaway.reason' must be a non-empty string"),
        (
            #"{"action": {"goaway": {"debug": "x", "reason": "Shutdown"}}}"#,
            "'action.goaway.debug' and 'action.goaway.reason' cannot both be given"
        ),
        (
            #"{"action": {"goaway": {"debug": "\#(String(repeating: "x", count: 16_377))"}}}"#,
            "'action.goaway.debug' makes 16377 bytes of debug data"
        ),
        (#"{"action": {"close": {"respondFirst": "no"}}}"#, "'action.close.respondFirst' must be true or false"),
        (#"{"action": {"close": {"now": true}}}"#, "unknown field 'action.close.now'; known: respondFirst"),
        (#"{"action": {"setMaxConcurrentStreams": {}}}"#, "'action.setMaxConcurrentStreams.value' is missing"),
        (
            #"{"action": {"setMaxConcurrentStreams": {"value": -1}}}"#,
            "'action.setMaxConcurrentStreams.value' must be an integer from 0 to 2147483647"
        ),
        (
            #"{"action": {"setMaxConcurrentStreams": {"value": 2147483648}}}"#,
            "'action.setMaxConcurrentStreams.value' must be an integer from 0 to 2147483647"
        ),
        // select
        (#"{"select": 3, "action": {"hang": {}}}"#, "'select' must be an object"),
        (#"{"select": {"last": 1}, "action": {"hang": {}}}"#, "unknown field 'select.last'; known: first, nth"),
        (#"{"select": {"first": 1, "nth": 2}, "action": {"hang": {}}}"#, "'select' holds both 'first' and 'nth'"),
        (#"{"select": {"first": 0}, "action": {"hang": {}}}"#, "'select.first' must be an integer of at least 1"),
        (#"{"select": {"nth": "3"}, "action": {"hang": {}}}"#, "'select.nth' must be an integer of at least 1"),
        (#"{"select": {"every": 1.5}, "action": {"hang": {}}}"#, "'select.every' must be an integer of at least 1"),
        (
            #"{"select": {"probability": 1.5}, "action": {"hang": {}}}"#,
            "'select.probability' must be a number from 0 to 1"
        ),
        (
            #"{"select": {"probability": -0.1}, "action": {"hang": {}}}"#,
            "'select.probability' must be a number from 0 to 1"
        ),
        (
            #"{"select": {"probability": "0.5"}, "action": {"hang": {}}}"#,
            "'select.probability' must be a number from 0 to 1"
        ),
        (
            #"{"select": {"probability": 0.5, "seed": -1}, "action": {"hang": {}}}"#,
            "'select.seed' must be an integer from 0 to 18446744073709551615"
        ),
        (
            #"{"select": {"probability": 0.5, "seed": 18446744073709551616}, "action": {"hang": {}}}"#,
            "'select.seed' must be an integer from 0 to 18446744073709551615"
        ),
        (#"{"select": {"seed": 1}, "action": {"hang": {}}}"#, "'select.seed' only goes with 'select.probability'"),
        (#"{"select": {"for": "0ms"}, "action": {"hang": {}}}"#, "'select.for' must be a duration from 1ms to 24h"),
        (#"{"select": {"for": "25h"}, "action": {"hang": {}}}"#, "'select.for' must be a duration from 1ms to 24h"),
        (#"{"select": {"for": 30}, "action": {"hang": {}}}"#, "'select.for' must be a duration from 1ms to 24h"),
        // match
        (#"{"match": [], "action": {"hang": {}}}"#, "'match' must be an object of matcher fields"),
        (
            #"{"match": {"tokn": "ab"}, "action": {"hang": {}}}"#,
            "unknown matcher field 'match.tokn' (did you mean 'token'?); known: token"
        ),
        (#"{"match": {"tokn": "ab"}, "action": {"hang": {}}}"#, "authMethod, headers, payload, connectionId"),
        (#"{"match": {"status": 700}, "action": {"hang": {}}}"#, "matcher field 'match.status' must be an HTTP status"),
        (#"{"match": {"pushType": "loud"}, "action": {"hang": {}}}"#, "matcher field 'match.pushType' must be one of"),
        (#"{"match": {"headers": 1}, "action": {"hang": {}}}"#, "'match.headers' must be an object"),
        (#"{"match": {"connectionId": -1}, "action": {"hang": {}}}"#, "'match.connectionId' must be an integer from 0"),
        (
            #"{"match": {"connectionId": "3"}, "action": {"hang": {}}}"#,
            "'match.connectionId' must be an integer from 0"
        ),
        (
            #"{"match": {"connectionId": 1, "connectionId": 2}, "action": {"hang": {}}}"#,
            "'match.connectionId' is given more than once"
        ),
        // What reaches the device is decided after the answer the rule changes (issue 32).
        (
            #"{"match": {"delivery": "stored"}, "action": {"hang": {}}}"#,
            "'match.delivery' cannot pick the requests a rule acts on"
        ),
        (
            #"{"match": {"deliveryReason": "expired"}, "action": {"hang": {}}}"#,
            "'match.deliveryReason' cannot pick the requests a rule acts on"
        ),
    ]

    /// The list of known fields in an unknown field's error names each field once.
    @Test func unknownFieldListsEachKnownFieldOnce() throws {
        do {
            _ = try Self.parse(#"{"match": {"tokn": "ab"}, "action": {"hang": {}}}"#)
            Issue.record("an unknown matcher field was taken")
        } catch let error as FaultRuleError {
            let known = try #require(error.message.split(separator: "known: ").last).split(separator: ", ")
            #expect(known.count == Set(known).count, "\(known)")
            #expect(known.contains("connectionId"))
        }
    }

    @Test(arguments: errors)
    func errorsNameTheirField(_ example: (String, String)) throws {
        #expect {
            try Self.parse(example.0)
        } throws: { error in
            guard let error = error as? FaultRuleError else { return false }
            return error.message.contains(example.1)
        }
    }

    @Test func errorMessagesAreTheWholeSentence() throws {
        #expect(throws: FaultRuleError("'action.respond.status' must be an integer from 200 to 599")) {
            try Self.parse(#"{"action": {"respond": {"status": 99, "reason": "X"}}}"#)
        }
        #expect(FaultRuleError("x").description == "x")
    }

    @Test func respondBodiesAreAPNsErrorBodies() {
        #expect(FaultResponse(status: 200).body.isEmpty)
        #expect(
            FaultResponse(status: 410, reason: .unregistered, timestamp: 5).body
                == Array(#"{"reason":"Unregistered","timestamp":5}"#.utf8))
        #expect(
            FaultResponse(status: 500, reason: APNSReason("Say \"hi\"")).body == Array(#"{"reason":"Say \"hi\""}"#.utf8)
        )
    }

    @Test func matchesFollowTheMatcherAndTheConnection() throws {
        let onThree = try Self.parse(
            #"{"match": {"token": "abcd0123abcd0123", "connectionId": 3}, "action": {"hang": {}}}"#)
        #expect(onThree.connectionID == 3)
        #expect(onThree.matcher.conditions == [.token("abcd0123abcd0123")])
        #expect(onThree.matches(FakeFacts(), connectionID: 3))
        #expect(!onThree.matches(FakeFacts(), connectionID: 4))
        var otherToken = FakeFacts()
        otherToken.matchToken = "ffff0123abcd0123"
        #expect(!onThree.matches(otherToken, connectionID: 3))

        let anywhere = try Self.parse(#"{"match": {"topic": "com.example.app"}, "action": {"hang": {}}}"#)
        #expect(anywhere.connectionID == nil)
        #expect(anywhere.matches(FakeFacts(), connectionID: 1))
        #expect(anywhere.matches(FakeFacts(), connectionID: 99))

        let onlyConnection = try Self.parse(
            #"{"match": {"connectionId": 18446744073709551615}, "action": {"hang": {}}}"#)
        #expect(onlyConnection.matcher.isEmpty)
        #expect(onlyConnection.matches(FakeFacts(), connectionID: .max))
        #expect(!onlyConnection.matches(FakeFacts(), connectionID: 0))

        let everything = try Self.parse(#"{"action": {"hang": {}}}"#)
        #expect(everything.matches(otherToken, connectionID: 0))
    }

    @Test func matchersWithPayloadConditionsRoundTrip() throws {
        for payload in [#"{}"#, #""text""#, #"{"aps": {}}"#, #"{"ids": [1, 2], "aps": {"badge": 3}}"#] {
            let rule = try Self.parse(#"{"match": {"payload": \#(payload)}, "action": {"hang": {}}}"#)
            #expect(try Self.parse(Self.written(rule)) == rule, "payload \(payload)")
        }
    }
}
