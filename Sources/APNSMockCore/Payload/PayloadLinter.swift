/// The rules behind `PayloadAnalyzer`: collects findings while it walks a payload.
struct PayloadLinter {
    let context: PayloadContext
    private(set) var findings: [LintFinding] = []

    init(context: PayloadContext) { self.context = context }

    mutating func add(_ code: LintCode, _ path: String, _ message: String) {
        findings.append(LintFinding(code: code, path: path, message: message))
    }

    /// Push types whose payload Apple defines (they need `aps`); the others carry the app's own data.
    static let typesNeedingAps: Set<APNSPushType> = [.alert, .background, .liveactivity, .widgets]

    static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
    static let liveActivityEvents: Set<String> = ["start", "update", "end"]
    /// The keys of aps the user notices: a background push must not carry them, and
    /// content-available alone (none of them) must not go at priority 10.
    static let noticeableKeys: Set<String> = ["alert", "sound", "badge"]

    // MARK: Size

    mutating func checkSize(byteCount: Int, limit: Int) {
        let limitText =
            context.payloadLimit != nil
            ? "the \(limit)-byte limit set for this mock"
            : context.isBroadcast
                ? "the \(limit)-byte limit of broadcasts"
                : "the \(limit)-byte limit of \((context.pushType ?? .alert).rawValue) pushes"
        if byteCount > limit {
            add(.payloadTooLarge, "", "The payload is \(byteCount) bytes, \(byteCount - limit) over \(limitText).")
        } else if Double(byteCount) > 0.95 * Double(limit) {
            add(
                .payloadNearLimit, "",
                "The payload is \(byteCount) bytes, only \(limit - byteCount) bytes under \(limitText).")
        }
    }

    // MARK: The payload's keys

    /// Checks the root object and the keys of its `aps`; returns `aps` when it is a dictionary.
    mutating func checkRoot(_ root: JSONValue) -> [(key: String, value: JSONValue)]? {
        guard let aps = root["aps"] else {
            if let pushType = context.pushType, Self.typesNeedingAps.contains(pushType) {
                add(.apsMissing, "aps", "The payload has no aps dictionary, which \(pushType.rawValue) pushes need.")
            }
            return nil
        }
        guard case .object(let members) = aps else {
            add(.apsNotObject, "aps", "aps must be a dictionary, not \(aps.lintDescription).")
            return nil
        }
        for (key, value) in members { checkApsKey(key, value) }
        return members
    }

    private mutating func checkApsKey(_ key: String, _ value: JSONValue) {
        let path = "aps." + key
        switch key {
        case "alert":
            switch value {
            case .string(let text): checkEscapes(text, path)
            case .object(let members): checkAlert(members, value, path)
            default:
                add(.apsKeyWrongType, path, "\(path) must be a string or a dictionary, not \(value.lintDescription).")
            }
        case "badge":
            if let badge = value.lintInteger {
                if badge < 0 { add(.badgeNegative, path, "\(path) must not be negative, but it is \(badge).") }
            } else {
                add(.badgeNotInteger, path, "\(path) must be an integer, not \(value.lintDescription).")
            }
        case "sound":
            switch value {
            case .string: break
            case .object(let members): checkSound(members, path)
            default:
                add(.apsKeyWrongType, path, "\(path) must be a string or a dictionary, not \(value.lintDescription).")
            }
        case "content-available":
            if value.lintInteger != 1 {
                add(.contentAvailableInvalid, path, "\(path) must be 1, not \(value.lintDescription).")
            }
        case "mutable-content":
            if value.lintInteger != 1 {
                add(.mutableContentInvalid, path, "\(path) must be 1, not \(value.lintDescription).")
            }
        case "input-push-token":
            if value.lintInteger != 1 {
                add(.inputPushTokenInvalid, path, "\(path) must be 1, not \(value.lintDescription).")
            }
        case "interruption-level":
            if !Self.interruptionLevels.contains(value.lintString ?? "") {
                add(
                    .interruptionLevelInvalid, path,
                    "\(path) must be passive, active, time-sensitive or critical, not \(value.lintDescription).")
            }
        case "relevance-score":
            // Apple's payload key reference gives 0 to 1 for a notification's summary order. A Live
            // Activity's score only ranks the app's activities against each other ("Starting and
            // updating Live Activities with ActivityKit push notifications" sends 100): any number.
            if context.pushType == .liveactivity {
                if value.lintNumber == nil {
                    add(.relevanceScoreInvalid, path, "\(path) must be a number, not \(value.lintDescription).")
                }
            } else if !(0...1).contains(value.lintNumber ?? -1) {
                add(.relevanceScoreInvalid, path, "\(path) must be a number from 0 to 1, not \(value.lintDescription).")
            }
        case "event":
            if !Self.liveActivityEvents.contains(value.lintString ?? "") {
                add(.eventInvalid, path, "\(path) must be start, update or end, not \(value.lintDescription).")
            }
        case "category", "thread-id", "target-content-id", "filter-criteria", "attributes-type", "input-push-channel":
            if value.lintString == nil {
                add(.apsKeyWrongType, path, "\(path) must be a string, not \(value.lintDescription).")
            }
        case "timestamp", "stale-date", "dismissal-date":
            if value.lintInteger == nil {
                add(.apsKeyWrongType, path, "\(path) must be an integer (UNIX seconds), not \(value.lintDescription).")
            }
        case "content-state", "attributes":
            if !value.lintIsObject {
                add(.apsKeyWrongType, path, "\(path) must be a dictionary, not \(value.lintDescription).")
            }
        case "content-changed", "url-args":
            break  // WidgetKit's reload flag and Safari's URL arguments: Apple's, not checked here
        default:
            add(.apsUnknownKey, path, "\(path) is not a key Apple defines inside aps, so devices ignore it.")
        }
    }

    // MARK: alert

    private mutating func checkAlert(
        _ members: [(key: String, value: JSONValue)], _ alert: JSONValue, _ alertPath: String
    ) {
        for (key, value) in members {
            let path = alertPath + "." + key
            switch key {
            case "title", "subtitle", "body":
                if let text = value.lintString {
                    checkEscapes(text, path)
                } else {
                    add(.alertKeyWrongType, path, "\(path) must be a string, not \(value.lintDescription).")
                }
            case "launch-image", "summary-arg", "action":  // action: Safari's button label (web push)
                if value.lintString == nil {
                    add(.alertKeyWrongType, path, "\(path) must be a string, not \(value.lintDescription).")
                }
            case "action-loc-key":
                if value.lintString == nil && value != .null {
                    add(.alertKeyWrongType, path, "\(path) must be a string or null, not \(value.lintDescription).")
                }
            case "loc-key", "subtitle-loc-key", "title-loc-key":
                // Apple's reference allows null for title-loc-key (Table 9-2).
                if let locKey = value.lintString {
                    checkLocalization(locKey, path, arguments: Self.argumentsKey(of: key), alert, alertPath)
                } else if !(key == "title-loc-key" && value == .null) {
                    add(.alertKeyWrongType, path, "\(path) must be a string, not \(value.lintDescription).")
                }
            case "loc-args", "subtitle-loc-args", "title-loc-args":
                if case .array(let elements) = value {
                    for (index, element) in elements.enumerated() {
                        let elementPath = "\(path)[\(index)]"
                        if let text = element.lintString {
                            checkEscapes(text, elementPath)
                        } else {
                            add(
                                .alertKeyWrongType, elementPath,
                                "\(elementPath) must be a string, not \(element.lintDescription).")
                        }
                    }
                } else if !(key == "title-loc-args" && value == .null) {
                    add(.alertKeyWrongType, path, "\(path) must be an array of strings, not \(value.lintDescription).")
                }
            case "summary-arg-count":
                if value.lintInteger == nil {
                    add(.alertKeyWrongType, path, "\(path) must be an integer, not \(value.lintDescription).")
                }
            default:
                add(.alertUnknownKey, path, "\(path) is not a key Apple defines inside alert, so devices ignore it.")
            }
        }
    }

    private static func argumentsKey(of locKey: String) -> String {
        switch locKey {
        case "title-loc-key": "title-loc-args"
        case "subtitle-loc-key": "subtitle-loc-args"
        default: "loc-args"
        }
    }

    /// A loc key against the device's strings (nothing when none are loaded: the mock cannot know).
    private mutating func checkLocalization(
        _ locKey: String, _ path: String, arguments argumentsKey: String, _ alert: JSONValue, _ alertPath: String
    ) {
        guard let strings = context.strings else { return }
        guard let format = strings[locKey] else {
            add(
                .locKeyNotFound, path,
                "\(path) \"\(locKey)\" is not in the \(strings.locale) strings, so the device shows the key itself.")
            return
        }
        let argumentCount: Int
        switch alert[argumentsKey] {
        case nil, .null?: argumentCount = 0
        case .array(let elements)?: argumentCount = elements.count
        default: return  // not an array: reported as a wrong type
        }
        let placeholders = LocalizedFormat.render(format, arguments: []).placeholders
        guard argumentCount != placeholders else { return }
        let argumentsPath = alertPath + "." + argumentsKey
        add(
            .locArgsCountMismatch, argumentsPath,
            "\(argumentsPath) has \(Self.count(argumentCount, "argument")), but the \(strings.locale) format of "
                + "\"\(locKey)\" uses \(Self.count(placeholders, "placeholder")).")
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }

    /// A `\U` escape (backslash, `U`, four hex digits) left in alert text after JSON decoding.
    private mutating func checkEscapes(_ text: String, _ path: String) {
        guard let escape = Self.unicodeEscape(in: text) else { return }
        add(
            .alertUnsupportedEscape, path,
            "\(path) contains the escape \(escape), which devices show literally; send the UTF-8 character instead.")
    }

    /// The first `\U` followed by 4–8 hex digits in `text`. Scans UTF-8 bytes: every byte of
    /// the pattern is ASCII, which a multi-byte sequence never contains.
    private static func unicodeEscape(in text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.count >= 6 else { return nil }
            func isHex(_ byte: UInt8) -> Bool {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            }
            var index = 0
            while index + 6 <= bytes.count {
                if bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "U") {
                    var end = index + 2
                    while end < bytes.count, end < index + 10, isHex(bytes[end]) { end += 1 }
                    if end - index >= 6 {
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
                    }
                }
                index += 1
            }
            return nil
        }
    }

    // MARK: sound

    private mutating func checkSound(_ members: [(key: String, value: JSONValue)], _ soundPath: String) {
        var hasName = false
        for (key, value) in members {
            let path = soundPath + "." + key
            switch key {
            case "critical":
                if value.lintInteger != 0 && value.lintInteger != 1 {
                    add(.soundCriticalInvalid, path, "\(path) must be 0 or 1, not \(value.lintDescription).")
                }
            case "name":
                hasName = true
                if value.lintString == nil {
                    add(.soundNameNotString, path, "\(path) must be a string, not \(value.lintDescription).")
                }
            case "volume":
                if !(0...1).contains(value.lintNumber ?? -1) {
                    add(
                        .soundVolumeInvalid, path, "\(path) must be a number from 0 to 1, not \(value.lintDescription)."
                    )
                }
            default:
                add(.soundUnknownKey, path, "\(path) is not critical, name or volume, so devices ignore it.")
            }
        }
        if !hasName {
            add(.soundNameMissing, soundPath + ".name", "\(soundPath).name is missing, so no sound file is named.")
        }
    }

    // MARK: The payload against the headers

    /// The findings that concern the headers, alone or with the payload (`aps` when it is a
    /// dictionary, `preview` when the payload is an object).
    mutating func checkAgainstHeaders(aps: [(key: String, value: JSONValue)]?, preview: NotificationPreview?) {
        let pushType = context.pushType
        if !context.pushTypeHeaderPresent {
            add(
                .pushTypeHeaderMissing, "header:apns-push-type",
                "The apns-push-type header is missing; watchOS requires it and Apple recommends it for every push.")
        }
        if let pushType, let topic = context.topic { checkTopic(topic, pushType) }

        let apsValue = aps.map { JSONValue.object($0) }
        let contentAvailable = apsValue?["content-available"]?.lintInteger == 1
        if pushType == .background {
            if context.priority != "5" {
                let sent = context.priority.map { "not \($0)" } ?? "but the header is absent (APNs then uses 10)"
                add(
                    .backgroundPriorityNotFive, "header:apns-priority",
                    "A background push needs apns-priority 5, \(sent).")
            }
        } else if contentAvailable && (context.priority ?? "10") == "10"
            && !(aps ?? []).contains(where: { Self.noticeableKeys.contains($0.key) })
        {
            // Apple (apns-priority 10): "It is an error to use this priority for a push
            // notification that contains only the content-available key"; with an alert, a sound
            // or a badge, priority 10 is right.
            let sent =
                context.priority == nil ? "the default priority 10 (no apns-priority header)" : "apns-priority 10"
            add(
                .contentAvailableHighPriority, "header:apns-priority",
                "aps.content-available 1 with no alert, sound or badge is sent with \(sent), "
                    + "but background updates need priority 5.")
        }

        if context.isBroadcast && context.priority == "1" {
            add(
                .broadcastPriorityOne, "header:apns-priority",
                "A broadcast updates Live Activities, for which ActivityKit asks for apns-priority 5 or 10, not 1.")
        }

        guard let aps, let preview else { return }
        switch pushType {
        case .background?:
            if !contentAvailable {
                add(
                    .backgroundMissingContentAvailable, "aps.content-available",
                    "A background push needs aps.content-available 1.")
            }
            var reported: Set<String> = []
            for (key, _) in aps where Self.noticeableKeys.contains(key) && reported.insert(key).inserted {
                add(
                    .backgroundNotSilent, "aps." + key,
                    "A background push must not carry aps.\(key); send it as an alert push.")
            }
        case .alert?:
            if preview.silent {
                add(
                    .alertNothingToShow, "aps",
                    "An alert push needs a title, subtitle, body, sound or badge, but aps has none.")
            }
        case .liveactivity?:
            checkLiveActivity(apsValue ?? .null)
        default:
            break
        }
    }

    private mutating func checkTopic(_ topic: String, _ pushType: APNSPushType) {
        let owner = APNSPushType.allCases
            .compactMap { type in type.requiredTopicSuffix.map { (type: type, suffix: $0) } }
            .filter { topic.count > $0.suffix.count && topic.hasSuffix($0.suffix) }
            .max { $0.suffix.count < $1.suffix.count }
        if let owner, owner.suffix != pushType.requiredTopicSuffix {
            add(
                .topicPushTypeMismatch, "header:apns-topic",
                "apns-topic \(topic) ends with \(owner.suffix), the suffix of \(owner.type.rawValue) pushes, "
                    + "but the push type is \(pushType.rawValue).")
        } else if let required = pushType.requiredTopicSuffix, !topic.hasSuffix(required) {
            add(
                .topicMissingSuffix, "header:apns-topic",
                "apns-topic \(topic) lacks the \(required) suffix that \(pushType.rawValue) pushes need.")
        }
    }

    private mutating func checkLiveActivity(_ aps: JSONValue) {
        var required = ["event", "timestamp"]
        if context.isBroadcast {
            // A broadcast cannot start a Live Activity: the start event and the attributes a start
            // carries are mistakes, and the keys a start would need are not asked for.
            if aps["event"]?.lintString == "start" {
                add(
                    .broadcastStartsActivity, "aps.event",
                    "aps.event is start, but a broadcast cannot start a Live Activity; "
                        + "start it with a push-to-start to a device token.")
            }
            if aps["attributes"] != nil {
                add(
                    .broadcastStartsActivity, "aps.attributes",
                    "aps.attributes starts a Live Activity, which a broadcast cannot do; "
                        + "send it in a push-to-start to a device token.")
            }
        }
        switch aps["event"]?.lintString {
        // A push-to-start shows its alert as the activity starts: ActivityKit's page requires it
        // with attributes-type and attributes ("Starting and updating Live Activities with
        // ActivityKit push notifications", "Start new Live Activities with ActivityKit push notifications").
        case "start"? where !context.isBroadcast:
            required += ["content-state", "attributes-type", "attributes", "alert"]
        case "update"?: required += ["content-state"]
        default: break
        }
        let event = aps["event"]?.lintString.map { "a Live Activity \($0) push" } ?? "a Live Activity push"
        for key in required where aps[key] == nil {
            add(.liveActivityMissingKey, "aps." + key, "aps.\(key) is missing, but \(event) needs it.")
        }
    }
}
