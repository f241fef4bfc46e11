import APNSMockCore
import Testing

/// The lint of a broadcast: a Live Activity update to every subscriber of a channel, which cannot
/// start an activity ("Sending broadcast push notification requests to APNs"; ActivityKit's
/// "Starting and updating Live Activities with ActivityKit push notifications").
@Suite("Payload lint: broadcasts")
struct BroadcastLintTests {
    static let update = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"}}}"#

    static func codes(_ json: String, priority: String? = "10") -> [LintCode] {
        PayloadTestSupport.analyze(json, .broadcast(priority: priority)).codes
    }

    @Test("An update or an end is clean at priority 10 and 5")
    func clean() {
        #expect(Self.codes(Self.update).isEmpty)
        #expect(Self.codes(Self.update, priority: "5").isEmpty)
        #expect(Self.codes(#"{"aps":{"timestamp":1700000000,"event":"end","dismissal-date":1700003600}}"#).isEmpty)
    }

    @Test("A start event and attributes are each reported, and no start keys are asked for")
    func start() throws {
        let json =
            #"{"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"Match","attributes":{},"#
            + #""alert":{"title":"Kick-off"}}}"#
        let analysis = PayloadTestSupport.analyze(json, .broadcast(priority: "10"))
        #expect(analysis.codes == [.broadcastStartsActivity, .broadcastStartsActivity])
        #expect(analysis.findings.map(\.path) == ["aps.event", "aps.attributes"])
        #expect(analysis.hasErrors)
        // Without attributes-type and attributes: still only the start event, no missing keys.
        #expect(Self.codes(#"{"aps":{"timestamp":1,"event":"start"}}"#) == [.broadcastStartsActivity])
        // Attributes on an update.
        let attributes = #"{"aps":{"timestamp":1,"event":"update","content-state":{},"attributes":{"a":1}}}"#
        #expect(Self.codes(attributes) == [.broadcastStartsActivity])
    }

    @Test("The same start to a device token (a push-to-start) is not a broadcast finding")
    func pushToStart() {
        let json =
            #"{"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"Match","attributes":{},"#
            + #""alert":{"title":"Kick-off"}}}"#
        let context = PayloadContext(pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity")
        #expect(PayloadTestSupport.analyze(json, context).codes.isEmpty)
    }

    @Test("Priority 1 is a warning; a missing update key is still reported")
    func priorityOne() {
        #expect(Self.codes(Self.update, priority: "1") == [.broadcastPriorityOne])
        #expect(LintCode.broadcastPriorityOne.severity == .warning)
        #expect(Self.codes(#"{"aps":{"timestamp":1,"event":"update"}}"#) == [.liveActivityMissingKey])
    }

    @Test("A broadcast's limit is 5120 bytes, and the message says so")
    func limit() throws {
        let context = PayloadContext.broadcast(priority: "10")
        #expect(context.effectiveLimit == 5120)
        let big = PayloadTestSupport.analyze(
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"x":""#
                + String(repeating: "x", count: 5100) + #""}}}"#, context)
        let finding = try #require(big.findings.first { $0.code == .payloadTooLarge })
        #expect(finding.message.contains("5120-byte limit of broadcasts"))
        #expect(big.limit == 5120)
        #expect(PayloadContext.broadcast(priority: "10", payloadLimit: 2048).effectiveLimit == 2048)
    }

    @Test("PayloadAnalysisOptions gives broadcasts their context")
    func options() {
        let context = PayloadAnalysisOptions(payloadLimit: 3000).broadcastContext(priority: "5")
        #expect(context.isBroadcast)
        #expect(context.pushType == .liveactivity)
        #expect(context.priority == "5")
        #expect(context.topic == nil)
        #expect(context.effectiveLimit == 3000)
    }
}

/// `aps["input-push-channel"]`: the channel a push-to-start subscribes the started activity to.
@Suite("Payload: input-push-channel")
struct InputPushChannelTests {
    static let pushToStart =
        #"{"aps":{"timestamp":1700000000,"event":"start","content-state":{},"attributes-type":"Match","#
        + #""attributes":{},"alert":{"title":"Kick-off"},"input-push-channel":"dGVzdC1jaGFubmVsLTAwMQ=="}}"#

    @Test("A push-to-start names its channel; the analysis reports it")
    func reported() {
        #expect(PayloadAnalyzer.inputPushChannel(in: Array(Self.pushToStart.utf8)) == "dGVzdC1jaGFubmVsLTAwMQ==")
        let context = PayloadContext(pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity")
        let analysis = PayloadTestSupport.analyze(Self.pushToStart, context)
        #expect(analysis.inputPushChannel == "dGVzdC1jaGFubmVsLTAwMQ==")
        #expect(analysis.findings.isEmpty)
    }

    @Test(
        "No channel: absent, not a string, not JSON",
        arguments: [
            #"{"aps":{"event":"start","input-push-token":1}}"#, #"{"aps":{"input-push-channel":7}}"#,
            #"{"input-push-channel":"abc"}"#, "not json", "",
        ])
    func absent(json: String) {
        #expect(PayloadAnalyzer.inputPushChannel(in: Array(json.utf8)) == nil)
        #expect(PayloadTestSupport.analyze(json).inputPushChannel == nil)
    }
}
