import APNSMockCore
import Testing

@testable import APNSMockStore

/// One view of a request: the facts a fault rule matches while the request is decided, and the
/// record made of them afterwards, answer every matcher field alike.
@Suite struct LiveRequestFactsTests {
    static let token = String(repeating: "ab", count: 32)

    static func facts(kind: RecordKind, sentID: String?, answer: APNSAnswer) -> LiveRequestFacts {
        var headers = [HTTPHeaderField(name: "apns-priority", value: "5")]
        if let sentID { headers.append(HTTPHeaderField(name: "apns-id", value: sentID)) }
        let request = APNSRequest(
            method: "POST", path: kind == .push ? "/3/device/\(token)" : "/4/broadcasts/apps/com.example.app",
            authority: "api.sandbox.push.apple.com", headers: headers, payload: Array(#"{"aps":{}}"#.utf8))
        let verdict = APNSVerdict(
            status: answer.status, reason: answer.reason, deviceToken: kind == .push ? token : nil,
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity",
            authentication: AuthenticationResult(method: .token), sentMessageID: sentID, kind: kind,
            channelID: kind == .push ? nil : "dHN0LXNyY2gtY2hubA==")
        return LiveRequestFacts(
            request: request, verdict: verdict, environment: .sandbox, answer: answer, connectionID: 9)
    }

    @Test(arguments: [
        (RecordKind.push, Optional("0a2b2b2c-0000-4000-8000-000000000001"), 200),
        (.push, "not-a-uuid", 400),
        (.push, nil, 410),
        (.broadcast, nil, 200),
    ])
    func theRecordMadeOfTheFactsAnswersAsTheyDo(_ kind: RecordKind, _ sentID: String?, _ status: Int) {
        var random = FastRandom(seed: (1, 2, 3, 4))
        let id: ResponseMessageID =
            sentID.map { APNSMessageID.isValid($0) ? .echoed($0) : .generate(using: &random) }
            ?? .generate(using: &random)
        let answer =
            status == 200
            ? APNSAnswer(status: 200, apnsID: id)
            : APNSAnswer(status: status, reason: status == 410 ? .unregistered : .badMessageId, apnsID: id)
        let live = Self.facts(kind: kind, sentID: sentID, answer: answer)
        let record = DeliveryRecord(
            live, streamID: 1, receivedAt: 1_000,
            response: DeliveryResponse(status: answer.status, reason: answer.reason, respondedAt: 1_000),
            outcome: .answered, faultID: nil, detail: nil)
        #expect(record.matchToken == live.matchToken)
        #expect(record.matchTopic == live.matchTopic)
        #expect(record.matchPushType == live.matchPushType)
        #expect(record.matchStatus == live.matchStatus)
        #expect(record.matchReason == live.matchReason)
        #expect(record.matchAPNSID == live.matchAPNSID)
        #expect(record.matchEnvironment == live.matchEnvironment)
        #expect(record.matchAuthMethod == live.matchAuthMethod)
        #expect(record.matchHeader("apns-priority") == live.matchHeader("apns-priority"))
        #expect(record.matchPayload == live.matchPayload)
        #expect(record.matchConnectionID == live.matchConnectionID)
        #expect(record.matchKind == live.matchKind)
        #expect(record.matchChannelID == live.matchChannelID)
        // The id a rule sees is the answer's, never an invalid one the client sent.
        #expect(live.matchAPNSID == id.text)
    }
}
