import APNSMockCore
import Testing

/// One row per lint code: a valid baseline payload and context with one mutation, and the
/// findings it must give. Rules follow Apple's payload key reference (seed 001) and the mock's
/// APNS-REFERENCE §2 and §7.
@Suite("Lint rules")
struct LintRuleTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let code: LintCode
        let mutation: String
        let json: String
        var context: PayloadContext
        /// The finding's path.
        let path: String
        /// All findings expected, in order (usually just `code`).
        var expected: [LintCode]
        /// How many bytes were kept, when fewer than received.
        var kept: Int?

        var testDescription: String { "\(code): \(mutation)" }

        init(
            _ code: LintCode, _ mutation: String, _ json: String, path: String,
            context: PayloadContext = Baseline.alertContext, expected: [LintCode]? = nil, kept: Int? = nil
        ) {
            self.code = code
            self.mutation = mutation
            self.json = json
            self.context = context
            self.path = path
            self.expected = expected ?? [code]
            self.kept = kept
        }

        func analyze() -> PayloadAnalysis {
            let bytes = Array(json.utf8)
            return PayloadAnalyzer.analyze(
                payload: Array(bytes.prefix(kept ?? bytes.count)), payloadSize: bytes.count, context: context)
        }
    }

    /// The valid payloads and contexts the rows mutate.
    enum Baseline {
        static let alert = #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default"}}"#
        static let alertContext = PayloadContext(pushType: .alert, topic: "com.example.app")

        static let background = #"{"aps":{"content-available":1},"job":"sync"}"#
        static let backgroundContext = PayloadContext(pushType: .background, priority: "5", topic: "com.example.app")

        static let liveActivity =
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"},"#
            + #""alert":{"title":"Goal","body":"1-0"}}}"#
        static let liveActivityContext = PayloadContext(
            pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity")

        /// A broadcast to a channel ("Sending broadcast push notification requests to APNs").
        static let broadcast =
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"}}}"#
        static let broadcastContext = PayloadContext.broadcast(priority: "10")

        static let voip = #"{"caller":"Bob","callId":"42"}"#
        static let voipContext = PayloadContext(pushType: .voip, priority: "10", topic: "com.example.app.voip")

        static let localizedContext = PayloadContext(
            pushType: .alert, topic: "com.example.app", strings: PayloadTestSupport.english)
        static let localized =
            #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna","Frank"]}}}"#

        static let all: [(String, PayloadContext)] = [
            (alert, alertContext), (background, backgroundContext), (liveActivity, liveActivityContext),
            (voip, voipContext), (localized, localizedContext), (broadcast, broadcastContext),
        ]
    }

    static let rows: [Row] = [
        // The whole payload.
        Row(.payloadEmpty, "no bytes", "", path: ""),
        Row(.payloadTooLarge, "4097 bytes", PayloadTestSupport.payload(bytes: 4097), path: ""),
        Row(.payloadNearLimit, "3892 bytes (over 95 % of 4096)", PayloadTestSupport.payload(bytes: 3892), path: ""),
        Row(
            .payloadTruncated, "5000 bytes, 4096 kept", PayloadTestSupport.payload(bytes: 5000), path: "",
            expected: [.payloadTooLarge, .payloadTruncated], kept: 4096),
        Row(.payloadNotJSON, "trailing comma", #"{"aps":{"alert":"Hi",}}"#, path: ""),
        Row(.payloadNotObject, "an array", #"[{"aps":{"alert":"Hi"}}]"#, path: ""),
        Row(.apsMissing, "alert outside aps", #"{"alert":"Hi"}"#, path: "aps"),
        Row(.apsNotObject, "aps a string", #"{"aps":"Hi"}"#, path: "aps"),

        // The keys of aps.
        Row(
            .apsUnknownKey, "aps.titel",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","titel":"Hi"}}"#, path: "aps.titel"),
        Row(
            .apsKeyWrongType, "thread-id a number",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","thread-id":42}}"#,
            path: "aps.thread-id"),
        Row(
            .alertKeyWrongType, "body a number", #"{"aps":{"alert":{"title":"Hi","body":42},"sound":"default"}}"#,
            path: "aps.alert.body"),
        Row(
            .alertUnknownKey, "alert.subtitel",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello","subtitel":"x"},"sound":"default"}}"#,
            path: "aps.alert.subtitel"),
        Row(
            .alertUnsupportedEscape, #"body with \U263A after decoding"#,
            #"{"aps":{"alert":{"title":"Hi","body":"Smile \\U263A"},"sound":"default"}}"#, path: "aps.alert.body"),
        Row(
            .locKeyNotFound, "loc-key not in the strings",
            #"{"aps":{"alert":{"loc-key":"GAME_INVITE","loc-args":["Jenna","Frank"]}}}"#, path: "aps.alert.loc-key",
            context: Baseline.localizedContext),
        Row(
            .locArgsCountMismatch, "one loc-arg for two placeholders",
            #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna"]}}}"#,
            path: "aps.alert.loc-args", context: Baseline.localizedContext),
        Row(
            .badgeNotInteger, "badge a string",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","badge":"3"}}"#, path: "aps.badge"),
        Row(
            .badgeNegative, "badge -1",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","badge":-1}}"#, path: "aps.badge"),
        Row(
            .soundCriticalInvalid, "critical 2",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":{"critical":2,"name":"a.caf","volume":0.5}}}"#,
            path: "aps.sound.critical"),
        Row(
            .soundNameNotString, "name a number",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":{"critical":1,"name":5,"volume":0.5}}}"#,
            path: "aps.sound.name"),
        Row(
            .soundNameMissing, "no name",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":{"critical":1,"volume":0.5}}}"#,
            path: "aps.sound.name"),
        Row(
            .soundVolumeInvalid, "volume 1.5",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":{"critical":1,"name":"a.caf","volume":1.5}}}"#,
            path: "aps.sound.volume"),
        Row(
            .soundUnknownKey, "sound.loop",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":{"name":"a.caf","loop":true}}}"#,
            path: "aps.sound.loop"),
        Row(
            .contentAvailableInvalid, "content-available 0",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","content-available":0}}"#,
            path: "aps.content-available"),
        Row(
            .mutableContentInvalid, "mutable-content true",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","mutable-content":true}}"#,
            path: "aps.mutable-content"),
        Row(
            .interruptionLevelInvalid, "interruption-level urgent",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","interruption-level":"urgent"}}"#,
            path: "aps.interruption-level"),
        Row(
            .relevanceScoreInvalid, "relevance-score 2",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","relevance-score":2}}"#,
            path: "aps.relevance-score"),
        Row(
            .eventInvalid, "event stop",
            #"{"aps":{"timestamp":1700000000,"event":"stop","content-state":{"score":"1-0"},"#
                + #""alert":{"title":"Goal","body":"1-0"}}}"#,
            path: "aps.event", context: Baseline.liveActivityContext),
        Row(
            .inputPushTokenInvalid, "input-push-token 0",
            #"{"aps":{"alert":{"title":"Hi","body":"Hello"},"sound":"default","input-push-token":0}}"#,
            path: "aps.input-push-token"),

        // The payload against the headers.
        Row(
            .pushTypeHeaderMissing, "no apns-push-type header", Baseline.alert, path: "header:apns-push-type",
            context: PayloadContext(pushType: .alert, pushTypeHeaderPresent: false, topic: "com.example.app")),
        Row(
            .topicMissingSuffix, "voip push to the bare bundle ID", Baseline.voip, path: "header:apns-topic",
            context: PayloadContext(pushType: .voip, priority: "10", topic: "com.example.app")),
        Row(
            .topicPushTypeMismatch, "alert push to a .voip topic", Baseline.alert, path: "header:apns-topic",
            context: PayloadContext(pushType: .alert, topic: "com.example.app.voip")),
        Row(
            .backgroundPriorityNotFive, "background push with priority 10", Baseline.background,
            path: "header:apns-priority",
            context: PayloadContext(pushType: .background, priority: "10", topic: "com.example.app")),
        Row(
            .contentAvailableHighPriority, "alert push with only content-available, default priority",
            #"{"aps":{"content-available":1}}"#, path: "header:apns-priority",
            expected: [.contentAvailableHighPriority, .alertNothingToShow]),
        Row(
            .backgroundMissingContentAvailable, "background push without content-available",
            #"{"aps":{},"job":"sync"}"#, path: "aps.content-available", context: Baseline.backgroundContext),
        Row(
            .backgroundNotSilent, "background push with a badge", #"{"aps":{"content-available":1,"badge":1}}"#,
            path: "aps.badge", context: Baseline.backgroundContext),
        Row(.alertNothingToShow, "alert push with a category only", #"{"aps":{"category":"NEWS"}}"#, path: "aps"),
        Row(
            .liveActivityMissingKey, "Live Activity update without timestamp",
            #"{"aps":{"event":"update","content-state":{"score":"1-0"},"alert":{"title":"Goal","body":"1-0"}}}"#,
            path: "aps.timestamp", context: Baseline.liveActivityContext),
        Row(
            .broadcastStartsActivity, "broadcast with a start event",
            #"{"aps":{"timestamp":1700000000,"event":"start","content-state":{"score":"0-0"}}}"#,
            path: "aps.event", context: Baseline.broadcastContext),
        Row(
            .broadcastPriorityOne, "broadcast with priority 1", Baseline.broadcast, path: "header:apns-priority",
            context: .broadcast(priority: "1")),
    ]

    @Test("The baselines have no findings", arguments: 0..<Baseline.all.count)
    func baseline(_ index: Int) {
        let (json, context) = Baseline.all[index]
        let analysis = PayloadTestSupport.analyze(json, context)
        #expect(analysis.findings == [])
        #expect(analysis.preview != nil)
    }

    @Test("One mutation, its findings", arguments: rows)
    func row(_ row: Row) throws {
        let analysis = row.analyze()
        #expect(analysis.findings.map(\.code) == row.expected, "\(analysis.findings)")
        let finding = try #require(analysis.findings.first { $0.code == row.code })
        #expect(finding.path == row.path)
        #expect(finding.severity == row.code.severity)
        #expect(analysis.hasErrors == row.expected.contains { $0.severity == .error })
        #expect(analysis.has(severity: .warning) == row.expected.contains { $0.severity == .warning })
    }

    @Test("Every finding's message is one sentence naming its key")
    func messages() {
        for row in Self.rows {
            for finding in row.analyze().findings {
                let named =
                    switch finding.path {
                    case "": "payload"
                    case let header where header.hasPrefix("header:"): String(header.dropFirst(7))
                    case let path: path
                    }
                #expect(finding.message.contains(named), "\(finding)")
                #expect(finding.message.hasSuffix("."), "\(finding)")
                #expect(!finding.message.contains(". "), "\(finding)")
            }
        }
    }

    @Test("Every lint code has a row (a new code without a test fails here)")
    func everyCodeHasARow() {
        // A Declarative Web Push message's codes have their rows in DeclarativeWebPushLinterTests.
        let covered = Set(Self.rows.map(\.code))
        let payloadCodes = LintCode.all.filter { !LintCode.declarativeWebPush.contains($0) }
        for code in payloadCodes {
            #expect(covered.contains(code), "no row for \(code)")
        }
        #expect(Self.rows.count == payloadCodes.count)
    }
}
