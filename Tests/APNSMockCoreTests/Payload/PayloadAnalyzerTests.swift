import APNSMockCore
import Testing

/// `PayloadAnalyzer` beyond one-rule rows: order, sizes, truncation, value variants, headers.
@Suite("PayloadAnalyzer")
struct PayloadAnalyzerTests {
    typealias Support = PayloadTestSupport

    static func codes(_ json: String, _ context: PayloadContext = PayloadContext()) -> [LintCode] {
        Support.analyze(json, context).findings.map(\.code)
    }

    // MARK: Order and shape

    @Test("Whole payload first, then keys in document order, then headers")
    func order() {
        let json =
            #"{"aps":{"badge":"1","foo":1,"alert":{"body":1,"x":2},"sound":{"volume":2}},"pad":""#
            + String(repeating: "x", count: 3900) + #""}"#
        let analysis = Support.analyze(
            json, PayloadContext(pushType: .alert, pushTypeHeaderPresent: false, topic: "com.example.app.voip"))
        #expect(
            analysis.findings.map(\.code) == [
                .payloadNearLimit, .badgeNotInteger, .apsUnknownKey, .alertKeyWrongType, .alertUnknownKey,
                .soundVolumeInvalid, .soundNameMissing, .pushTypeHeaderMissing, .topicPushTypeMismatch,
            ])
        #expect(
            analysis.findings.map(\.path) == [
                "", "aps.badge", "aps.foo", "aps.alert.body", "aps.alert.x", "aps.sound.volume", "aps.sound.name",
                "header:apns-push-type", "header:apns-topic",
            ])
    }

    @Test("A finding writes code, severity, path and message")
    func findingJSON() {
        let finding = LintFinding(code: .badgeNegative, path: "aps.badge", message: "aps.badge must not be negative.")
        var writer = JSONWriter()
        finding.write(to: &writer)
        #expect(
            String(decoding: writer.bytes, as: UTF8.self)
                == #"{"code":"badge-negative","severity":"error","path":"aps.badge","message":"aps.badge must not be negative."}"#
        )
        #expect(finding.severity == .error)
    }

    @Test("Messages name the value found")
    func messages() {
        let analysis = Support.analyze(#"{"aps":{"alert":"Hi","badge":"3","sound":{"name":"a","volume":1.5}}}"#)
        #expect(
            analysis.findings.map(\.message) == [
                #"aps.badge must be an integer, not the string "3"."#,
                "aps.sound.volume must be a number from 0 to 1, not the number 1.5.",
            ])
    }

    // MARK: Size

    @Test("Limits: the push type's, alert's when unknown, or the override")
    func limits() {
        let bytes = Support.payload(bytes: 5000)
        #expect(Support.analyze(bytes).limit == 4096)
        let voip = Support.analyze(bytes, PayloadContext(pushType: .voip, topic: "com.example.app.voip"))
        #expect(voip.limit == 5120)
        #expect(voip.bytesRemaining == 120)
        #expect(voip.findings.map(\.code) == [.payloadNearLimit])
        #expect(
            voip.findings.first?.message
                == "The payload is 5000 bytes, only 120 bytes under the 5120-byte limit of voip pushes.")
        #expect(Support.analyze(bytes, PayloadContext(pushType: nil)).limit == 4096)
        let custom = Support.analyze(bytes, PayloadContext(payloadLimit: 6000))
        #expect(custom.limit == 6000)
        #expect(custom.findings == [])
        let tight = Support.analyze(bytes, PayloadContext(payloadLimit: 4000))
        #expect(
            tight.findings.first?.message
                == "The payload is 5000 bytes, 1000 over the 4000-byte limit set for this mock.")
    }

    @Test(
        "Near the limit means more than 95 % of it",
        arguments: [(3891, false), (3892, true), (4096, true), (4097, false)])
    func nearLimit(_ size: Int, _ near: Bool) {
        let codes = Self.codes(Support.payload(bytes: size))
        #expect(codes.contains(.payloadNearLimit) == near)
        #expect(codes.contains(.payloadTooLarge) == (size > 4096))
    }

    @Test("An oversized payload kept whole is still analyzed")
    func oversizedKept() {
        let json = #"{"aps":{"alert":"Hi","badge":-1},"pad":""# + String(repeating: "x", count: 5000) + #""}"#
        let analysis = Support.analyze(json)
        #expect(analysis.findings.map(\.code) == [.payloadTooLarge, .badgeNegative])
        #expect(analysis.preview?.body == "Hi")
        #expect(analysis.bytesRemaining < 0)
    }

    @Test("A truncated payload: what was kept is analyzed when it parses, else only the size")
    func truncated() {
        let analyze = { (kept: String, size: Int) in
            PayloadAnalyzer.analyze(payload: Array(kept.utf8), payloadSize: size, context: PayloadContext())
        }
        let cut = analyze(#"{"aps":{"alert":"Hi"#, 5000)
        #expect(cut.findings.map(\.code) == [.payloadTooLarge, .payloadTruncated])
        #expect(cut.preview == nil)
        #expect(cut.byteCount == 5000)
        #expect(
            cut.findings[1].message
                == "Only the first 19 of the payload's 5000 bytes were kept, so the rest was not checked.")
        let parsable = analyze(#"{"aps":{"alert":"Hi"}}   "#, 5000)
        #expect(parsable.findings.map(\.code) == [.payloadTooLarge, .payloadTruncated])
        #expect(parsable.preview?.body == "Hi")
        let nothingKept = analyze("", 5000)
        #expect(nothingKept.findings.map(\.code) == [.payloadTooLarge, .payloadTruncated])
    }

    @Test("Not JSON, not an object, and empty payloads have no preview but keep header findings")
    func noPreview() {
        let context = PayloadContext(pushType: .background, pushTypeHeaderPresent: false, priority: "10")
        for json in ["", "{", "[]", "\"aps\"", "42", "null"] {
            let analysis = Support.analyze(json, context)
            #expect(analysis.preview == nil)
            #expect(analysis.findings.suffix(2).map(\.code) == [.pushTypeHeaderMissing, .backgroundPriorityNotFive])
        }
        #expect(Self.codes("", context).first == .payloadEmpty)
        #expect(Self.codes("42").first == .payloadNotObject)
        #expect(
            Support.analyze("42").findings.first?.message
                == "The payload is the number 42, but APNs needs a JSON dictionary.")
        #expect(Self.codes(#"{"aps":{"alert":"\U263A"}}"#) == [.payloadNotJSON])
        #expect(Self.codes(#"{"aps":{"alert":"caf\u00e9 \uD83D\uDE00"}}"#) == [])
        #expect(Support.analyze(#"{"aps":{"alert":"caf\u00e9 \uD83D\uDE00"}}"#).preview?.body == "café 😀")
    }

    // MARK: aps

    @Test("Push types whose payload is the app's own need no aps", arguments: APNSPushType.allCases)
    func apsNeeded(_ pushType: APNSPushType) {
        let needed: Set<APNSPushType> = [.alert, .background, .liveactivity, .widgets]
        let analysis = Support.analyze(#"{"custom":true}"#, PayloadContext(pushType: pushType, priority: "5"))
        #expect(analysis.findings.contains { $0.code == .apsMissing } == needed.contains(pushType))
        #expect(analysis.preview == NotificationPreview())
        #expect(Self.codes(#"{"aps":[]}"#, PayloadContext(pushType: pushType, priority: "5")).contains(.apsNotObject))
    }

    @Test("An unknown push type: only checks that need none")
    func unknownPushType() {
        let context = PayloadContext(pushType: nil, topic: "com.example.app.voip")
        #expect(Self.codes(#"{"custom":1}"#, context) == [])
        #expect(Self.codes(#"{"aps":{"badge":1.5}}"#, context) == [.badgeNotInteger])
        #expect(Self.codes(#"{"aps":{"content-available":1}}"#, context) == [.contentAvailableHighPriority])
    }

    struct ValueCase: Sendable, CustomTestStringConvertible {
        let key: String
        let value: String
        let code: LintCode?
        var testDescription: String { "\(key): \(value)" }
        init(_ key: String, _ value: String, _ code: LintCode?) {
            self.key = key
            self.value = value
            self.code = code
        }
    }

    /// A value of one aps key in `{"aps":{"alert":"Hi","<key>":<value>}}` sent with priority 5.
    static let values: [ValueCase] = [
        ValueCase("badge", "0", nil),
        ValueCase("badge", "99999", nil),
        ValueCase("badge", "-0", nil),
        ValueCase("badge", "1.0", .badgeNotInteger),
        ValueCase("badge", "1e2", .badgeNotInteger),
        ValueCase("badge", "99999999999999999999", .badgeNotInteger),
        ValueCase("badge", "true", .badgeNotInteger),
        ValueCase("badge", "null", .badgeNotInteger),
        ValueCase("badge", "-3", .badgeNegative),
        ValueCase("sound", #""default""#, nil),
        ValueCase("sound", "1", .apsKeyWrongType),
        ValueCase("sound", #"{"name":"a.caf"}"#, nil),
        ValueCase("sound", #"{"name":"a.caf","critical":0,"volume":0}"#, nil),
        ValueCase("sound", #"{"name":"a.caf","critical":1,"volume":1.0}"#, nil),
        ValueCase("sound", #"{"name":"a.caf","critical":true}"#, .soundCriticalInvalid),
        ValueCase("sound", #"{"name":"a.caf","volume":-0.1}"#, .soundVolumeInvalid),
        ValueCase("sound", #"{"name":"a.caf","volume":"0.5"}"#, .soundVolumeInvalid),
        ValueCase("alert", "42", .apsKeyWrongType),
        ValueCase("alert", "[]", .apsKeyWrongType),
        ValueCase("content-available", "1", nil),
        ValueCase("content-available", #""1""#, .contentAvailableInvalid),
        ValueCase("content-available", "1.0", .contentAvailableInvalid),
        ValueCase("content-available", "true", .contentAvailableInvalid),
        ValueCase("mutable-content", "1", nil),
        ValueCase("mutable-content", "0", .mutableContentInvalid),
        ValueCase("interruption-level", #""passive""#, nil),
        ValueCase("interruption-level", #""active""#, nil),
        ValueCase("interruption-level", #""time-sensitive""#, nil),
        ValueCase("interruption-level", #""critical""#, nil),
        ValueCase("interruption-level", #""Active""#, .interruptionLevelInvalid),
        ValueCase("interruption-level", "1", .interruptionLevelInvalid),
        ValueCase("relevance-score", "0", nil),
        ValueCase("relevance-score", "1", nil),
        ValueCase("relevance-score", "0.5", nil),
        ValueCase("relevance-score", "-0.1", .relevanceScoreInvalid),
        ValueCase("relevance-score", "1.01", .relevanceScoreInvalid),
        ValueCase("relevance-score", #""0.5""#, .relevanceScoreInvalid),
        ValueCase("category", #""NEWS""#, nil),
        ValueCase("category", "1", .apsKeyWrongType),
        ValueCase("thread-id", "null", .apsKeyWrongType),
        ValueCase("target-content-id", #""window-1""#, nil),
        ValueCase("target-content-id", "[]", .apsKeyWrongType),
        ValueCase("filter-criteria", #""work""#, nil),
        ValueCase("filter-criteria", "true", .apsKeyWrongType),
        ValueCase("timestamp", "1700000000", nil),
        ValueCase("timestamp", "1700000000.5", .apsKeyWrongType),
        ValueCase("stale-date", #""tomorrow""#, .apsKeyWrongType),
        ValueCase("dismissal-date", "1700003600", nil),
        ValueCase("event", #""end""#, nil),
        ValueCase("event", "1", .eventInvalid),
        ValueCase("content-state", "{}", nil),
        ValueCase("content-state", "[]", .apsKeyWrongType),
        ValueCase("attributes-type", #""ScoreAttributes""#, nil),
        ValueCase("attributes-type", "{}", .apsKeyWrongType),
        ValueCase("attributes", #"{"team":"A"}"#, nil),
        ValueCase("attributes", #""A""#, .apsKeyWrongType),
        ValueCase("input-push-token", "1", nil),
        ValueCase("input-push-token", "true", .inputPushTokenInvalid),
        ValueCase("input-push-channel", #""dHVuYQ==""#, nil),
        ValueCase("input-push-channel", "1", .apsKeyWrongType),
        ValueCase("content-changed", "true", nil),
        ValueCase("url-args", #"["a"]"#, nil),
        ValueCase("Badge", "1", .apsUnknownKey),
    ]

    /// A Live Activity's relevance-score ranks the app's activities against each other: ActivityKit's
    /// page ("Starting and updating Live Activities with ActivityKit push notifications") sends 100.
    @Test(
        "A Live Activity's relevance-score is any number (ActivityKit's example sends 100)",
        arguments: [("100", nil), ("0.5", nil), ("250.5", nil), (#""100""#, LintCode.relevanceScoreInvalid)])
    func liveActivityRelevanceScore(_ value: String, _ code: LintCode?) {
        let json =
            #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{},"relevance-score":"# + value + "}}"
        let codes = Self.codes(
            json, PayloadContext(pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity"))
        #expect(codes == (code.map { [$0] } ?? []))
    }

    @Test("Values of aps keys", arguments: values)
    func value(_ row: ValueCase) {
        let json = #"{"aps":{"alert":"Hi",""# + row.key + #"":"# + row.value + "}}"
        let codes = Self.codes(json, PayloadContext(priority: "5"))
        #expect(codes == (row.code.map { [$0] } ?? []))
    }

    /// A member of the alert dictionary in `{"aps":{"alert":{"body":"Hi",<member>}}}`.
    static let alertMembers: [ValueCase] = [
        ValueCase("title", #""T""#, nil),
        ValueCase("title", "null", .alertKeyWrongType),
        ValueCase("subtitle", "[]", .alertKeyWrongType),
        ValueCase("launch-image", #""Default.png""#, nil),
        ValueCase("launch-image", "1", .alertKeyWrongType),
        ValueCase("action-loc-key", "null", nil),
        ValueCase("action-loc-key", "1", .alertKeyWrongType),
        ValueCase("title-loc-key", "null", nil),
        ValueCase("title-loc-key", "1", .alertKeyWrongType),
        ValueCase("title-loc-args", "null", nil),
        ValueCase("title-loc-args", #"["a","b"]"#, nil),
        ValueCase("title-loc-args", #""a""#, .alertKeyWrongType),
        ValueCase("subtitle-loc-key", #""SUB""#, nil),
        ValueCase("subtitle-loc-key", "null", .alertKeyWrongType),
        ValueCase("subtitle-loc-args", "[]", nil),
        ValueCase("loc-key", "false", .alertKeyWrongType),
        ValueCase("loc-args", "null", .alertKeyWrongType),
        ValueCase("loc-args", #"{"0":"a"}"#, .alertKeyWrongType),
        ValueCase("summary-arg", #""Bob""#, nil),
        ValueCase("summary-arg-count", "2", nil),
        ValueCase("summary-arg-count", #""2""#, .alertKeyWrongType),
        // Safari web push (Apple, "Configuring Safari Push Notifications"): the button's label.
        ValueCase("action", #""View""#, nil),
        ValueCase("action", "1", .alertKeyWrongType),
        ValueCase("Title", #""T""#, .alertUnknownKey),
    ]

    @Test("Members of the alert dictionary", arguments: alertMembers)
    func alertMember(_ row: ValueCase) {
        let json = #"{"aps":{"alert":{"body":"Hi",""# + row.key + #"":"# + row.value + "}}}"
        #expect(Self.codes(json) == (row.code.map { [$0] } ?? []))
    }

    @Test("Each wrong loc-args element is reported at its index")
    func locArgsElements() {
        let analysis = Support.analyze(#"{"aps":{"alert":{"loc-key":"K","loc-args":["a",1,null,"b"]}}}"#)
        #expect(analysis.findings.map(\.path) == ["aps.alert.loc-args[1]", "aps.alert.loc-args[2]"])
        #expect(analysis.findings.map(\.code) == [.alertKeyWrongType, .alertKeyWrongType])
    }

    // MARK: \U escapes

    @Test(
        "A \\U escape in alert text after JSON decoding",
        arguments: [
            (#"{"aps":{"alert":"Smile \\U263A"}}"#, "aps.alert"),
            (#"{"aps":{"alert":{"title":"\\U0001F600"}}}"#, "aps.alert.title"),
            (#"{"aps":{"alert":{"subtitle":"x\\Uabcd"}}}"#, "aps.alert.subtitle"),
            (#"{"aps":{"alert":{"loc-key":"K","loc-args":["ok","\\U00e9"]}}}"#, "aps.alert.loc-args[1]"),
        ])
    func unicodeEscape(_ json: String, _ path: String) {
        let findings = Support.analyze(json).findings
        #expect(findings.map(\.code) == [.alertUnsupportedEscape])
        #expect(findings.first?.path == path)
    }

    @Test(
        "Backslashes that are no \\U escape",
        arguments: [
            #"{"aps":{"alert":"C:\\Users\\bob"}}"#, #"{"aps":{"alert":"\\U12"}}"#, #"{"aps":{"alert":"\\u263A"}}"#,
            #"{"aps":{"alert":"\u263A"}}"#, #"{"aps":{"alert":"Hi","category":"\\U263A"}}"#,
            #"{"aps":{"alert":{"body":"Hi","loc-key":"\\U263A"}}}"#,
        ])
    func noUnicodeEscape(_ json: String) {
        #expect(Self.codes(json) == [])
    }

    @Test("The escape is named in the message")
    func unicodeEscapeMessage() {
        let finding = Support.analyze(#"{"aps":{"alert":"Smile \\U0001F600!"}}"#).findings.first
        #expect(
            finding?.message
                == #"aps.alert contains the escape \U0001F600, which devices show literally; send the UTF-8 character instead."#
        )
    }

    // MARK: Headers

    @Test("Background pushes: content-available 1, priority 5, nothing shown")
    func background() {
        let context = PayloadContext(pushType: .background, priority: "5")
        #expect(Self.codes(#"{"aps":{"content-available":1}}"#, context) == [])
        #expect(Self.codes(#"{"aps":{"content-available":1},"data":{"id":1}}"#, context) == [])
        #expect(
            Self.codes(#"{"aps":{"content-available":1}}"#, PayloadContext(pushType: .background))
                == [.backgroundPriorityNotFive])
        #expect(
            Support.analyze(#"{"aps":{"content-available":1}}"#, PayloadContext(pushType: .background)).findings
                .first?.message
                == "A background push needs apns-priority 5, but the header is absent (APNs then uses 10).")
        #expect(
            Self.codes(#"{"aps":{"content-available":1}}"#, PayloadContext(pushType: .background, priority: "1"))
                == [.backgroundPriorityNotFive])
        let loud = Support.analyze(
            #"{"aps":{"sound":"a.caf","content-available":1,"alert":"Hi","badge":2,"sound":"b.caf"}}"#, context)
        #expect(loud.findings.map(\.code) == [.backgroundNotSilent, .backgroundNotSilent, .backgroundNotSilent])
        #expect(loud.findings.map(\.path) == ["aps.sound", "aps.alert", "aps.badge"])
        #expect(
            Self.codes(#"{"aps":{"content-available":0}}"#, context)
                == [.contentAvailableInvalid, .backgroundMissingContentAvailable])
        #expect(Self.codes(#"{"job":1}"#, context) == [.apsMissing])
    }

    /// Apple, apns-priority 10: "It is an error to use this priority for a push notification
    /// that contains only the content-available key"; with an alert, sound or badge it is fine.
    @Test("content-available 1 alone needs priority 5 on any push type")
    func contentAvailablePriority() {
        let json = #"{"aps":{"mutable-content":1,"content-available":1},"job":"sync"}"#
        let widgets = PayloadContext(pushType: .widgets, topic: "com.example.app.push-type.widgets")
        #expect(Self.codes(json, widgets) == [.contentAvailableHighPriority])
        var explicit = widgets
        explicit.priority = "10"
        #expect(Self.codes(json, explicit) == [.contentAvailableHighPriority])
        for priority in ["5", "1"] {
            explicit.priority = priority
            #expect(Self.codes(json, explicit) == [])
        }
        #expect(
            Support.analyze(json, widgets).findings.first?.message
                == "aps.content-available 1 with no alert, sound or badge is sent with the default priority 10 "
                + "(no apns-priority header), but background updates need priority 5.")
        for shown in [#""alert":"Hi""#, #""sound":"default""#, #""badge":3"#] {
            let withSomething = #"{"aps":{"content-available":1,"# + shown + "}}"
            #expect(Self.codes(withSomething) == [], "\(withSomething)")
            #expect(Self.codes(withSomething, PayloadContext(priority: "10")) == [])
        }
    }

    @Test("Alert pushes need something to show or play")
    func somethingToShow() {
        #expect(Self.codes(#"{"aps":{"badge":0}}"#) == [])
        #expect(Self.codes(#"{"aps":{"sound":"default"}}"#) == [])
        #expect(Self.codes(#"{"aps":{"sound":{"critical":1}}}"#) == [.soundNameMissing])
        #expect(Self.codes(#"{"aps":{"alert":{"title-loc-key":"T"}}}"#) == [])
        #expect(Self.codes(#"{"aps":{"alert":{"subtitle":"S"}}}"#) == [])
        #expect(Self.codes(#"{"aps":{"alert":""}}"#) == [.alertNothingToShow])
        #expect(Self.codes(#"{"aps":{"alert":{"title":"","body":""}}}"#) == [.alertNothingToShow])
        #expect(Self.codes(#"{"aps":{"alert":{"action-loc-key":"OPEN"},"category":"C"}}"#) == [.alertNothingToShow])
        #expect(Self.codes(#"{"aps":{"badge":"1"}}"#) == [.badgeNotInteger, .alertNothingToShow])
        #expect(Self.codes(#"{"aps":{"content-available":1}}"#, PayloadContext(priority: "5")) == [.alertNothingToShow])
        #expect(Self.codes(#"{"aps":{}}"#, PayloadContext(pushType: .widgets)) == [])
    }

    struct LiveActivityCase: Sendable, CustomTestStringConvertible {
        let json: String
        let missing: [String]
        var testDescription: String { json }
    }

    static let liveActivities: [LiveActivityCase] = [
        LiveActivityCase(
            json: #"{"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"A","attributes":{},"#
                + #""alert":{"title":"Started"}}}"#,
            missing: []),
        LiveActivityCase(
            json: #"{"aps":{"timestamp":1,"event":"start"}}"#,
            missing: ["content-state", "attributes-type", "attributes", "alert"]),
        LiveActivityCase(
            json: #"{"aps":{"timestamp":1,"event":"start","content-state":{},"attributes":{},"alert":{"title":"A"}}}"#,
            missing: ["attributes-type"]),
        // ActivityKit's page: a push-to-start needs alert, beside attributes-type and attributes.
        LiveActivityCase(
            json: #"{"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"A","attributes":{}}}"#,
            missing: ["alert"]),
        LiveActivityCase(json: #"{"aps":{"timestamp":1,"event":"update","content-state":{}}}"#, missing: []),
        LiveActivityCase(json: #"{"aps":{"timestamp":1,"event":"update"}}"#, missing: ["content-state"]),
        LiveActivityCase(json: #"{"aps":{"timestamp":1,"event":"end","dismissal-date":2}}"#, missing: []),
        LiveActivityCase(json: #"{"aps":{"content-state":{}}}"#, missing: ["event", "timestamp"]),
        LiveActivityCase(json: #"{"aps":{"event":"end"}}"#, missing: ["timestamp"]),
    ]

    @Test("Live Activity pushes need the keys of their event", arguments: liveActivities)
    func liveActivity(_ row: LiveActivityCase) {
        let analysis = Support.analyze(
            row.json, PayloadContext(pushType: .liveactivity, topic: "com.example.app.push-type.liveactivity"))
        #expect(analysis.findings.map(\.code) == row.missing.map { _ in LintCode.liveActivityMissingKey })
        #expect(analysis.findings.map(\.path) == row.missing.map { "aps." + $0 })
    }

    @Test("A Live Activity's alert is previewed like any other")
    func liveActivityPreview() {
        let json =
            #"{"aps":{"timestamp":1,"event":"update","content-state":{"score":"2-1"},"#
            + #""alert":{"title":"Goal!","body":"2-1"},"sound":"goal.caf"}}"#
        let analysis = Support.analyze(json, PayloadContext(pushType: .liveactivity))
        #expect(analysis.findings == [])
        #expect(analysis.preview == NotificationPreview(title: "Goal!", body: "2-1", sound: .init(name: "goal.caf")))
    }

    @Test("Every suffixed push type accepts its own suffix", arguments: APNSPushType.allCases)
    func topicSuffix(_ pushType: APNSPushType) {
        let context = { (topic: String) in PayloadContext(pushType: pushType, priority: "5", topic: topic) }
        let own = "com.example.app" + (pushType.requiredTopicSuffix ?? "")
        let payload = #"{"aps":{"alert":"Hi","content-available":1}}"#
        let headerCodes: Set<LintCode> = [.topicMissingSuffix, .topicPushTypeMismatch]
        #expect(Self.codes(payload, context(own)).filter(headerCodes.contains) == [])
        let bare = Self.codes(payload, context("com.example.app")).filter(headerCodes.contains)
        #expect(bare == (pushType.requiredTopicSuffix == nil ? [] : [.topicMissingSuffix]))
    }

    @Test(
        "A topic with another push type's suffix",
        arguments: [
            (APNSPushType.alert, "com.example.app.voip"),
            (.background, "com.example.app.push-type.liveactivity"),
            (.voip, "com.example.app.voip-ptt"),
            (.pushtotalk, "com.example.app.voip"),
            (.liveactivity, "com.example.app.push-type.widgets"),
            (.location, "com.example.app.complication"),
            (.mdm, "com.example.app.pushkit.fileprovider"),
        ])
    func topicMismatch(_ pushType: APNSPushType, _ topic: String) {
        let analysis = Support.analyze(
            #"{"custom":1}"#, PayloadContext(pushType: pushType, priority: "5", topic: topic))
        #expect(analysis.findings.filter { $0.path == "header:apns-topic" }.map(\.code) == [.topicPushTypeMismatch])
    }

    @Test("Topic messages name the topic and both push types")
    func topicMessages() {
        let mismatch = Support.analyze(#"{"x":1}"#, PayloadContext(pushType: .voip, topic: "com.example.app.voip-ptt"))
        #expect(
            mismatch.findings.first?.message
                == "apns-topic com.example.app.voip-ptt ends with .voip-ptt, the suffix of pushtotalk pushes, but the push type is voip."
        )
        let missing = Support.analyze(#"{"x":1}"#, PayloadContext(pushType: .location, topic: "com.example.app"))
        #expect(
            missing.findings.first?.message
                == "apns-topic com.example.app lacks the .location-query suffix that location pushes need.")
    }

    @Test("A missing apns-push-type header is a warning, not an error")
    func missingHeader() {
        let analysis = Support.analyze(
            #"{"aps":{"alert":"Hi"}}"#, PayloadContext(pushType: .alert, pushTypeHeaderPresent: false))
        #expect(analysis.findings.map(\.code) == [.pushTypeHeaderMissing])
        #expect(!analysis.hasErrors)
        #expect(analysis.has(severity: .warning))
        #expect(!analysis.has(severity: .error))
    }
}
