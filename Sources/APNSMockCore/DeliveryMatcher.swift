/// Which pushes something is about: the one matcher behind query filters, `DELETE` scopes,
/// waits, events and expectation files.
///
/// Every condition must hold. Fields: `token`, `tokenPrefix`, `topic`, `pushType`, `status`,
/// `reason`, `apnsId`, `collapseId`, `priority`, `environment`, `authMethod`, `headers` (each
/// named header has that value) and `payload` (a structural subset: the delivered JSON holds
/// these keys with these values; arrays match element by element, by position), `lint`
/// (`error`, `warning`, `clean` or a finding's code) and `preview` (a subset of the preview,
/// `preview.body` written flat), `connectionId`, `faultId`, `outcome`, `kind`, `channelId`, `delivery`, `deliveryReason`, `subscriptionId` (a web push's subscription) and `webPush` (a subset
/// of a web push record's `webPush` object: `webPush.vapid.subject`, `webPush.ttl`,
/// `webPush.urgency`, `webPush.topic`, `webPush.decrypted`, `webPush.decryption.problem`). Device tokens
/// and apns-ids compare case-insensitively; a scalar written as text (a query string) matches
/// a JSON number or boolean with that text.
public struct DeliveryMatcher: Sendable, Hashable {
    /// One condition of a matcher.
    public enum Condition: Sendable, Hashable {
        case token(String)
        case tokenPrefix(String)
        case topic(String)
        case pushType(APNSPushType)
        case status(Int)
        case reason(String)
        case apnsID(String)
        case collapseID(String)
        case priority(Int)
        case environment(APNSEnvironment)
        /// `token`, `certificate`, or `none` (the push did not get as far as authentication, or
        /// carried nothing).
        case authMethod(String)
        /// Header `name` (lower case) has `value` (its first occurrence).
        case header(name: String, value: String)
        /// The payload's value at `path` matches `expected` (a subset for objects and arrays).
        case payload(path: [PayloadPathComponent], expected: JSONValue)
        /// The APNs connection (`connectionId` of the records).
        case connectionID(UInt64)
        /// The fault rule that acted (`faultId`).
        case faultID(String)
        /// The broadcast channel (`channelId`).
        case channelID(String)
        /// The Web Push subscription a web push was sent to (`subscriptionId`: the id in its
        /// endpoint, exactly; base64url is case-sensitive).
        case subscriptionID(String)
        /// What became of the request (`outcome`).
        case outcome(DeliveryOutcome)
        /// What the record is of (`kind`: `push`, `broadcast` or `channel`).
        case kind(RecordKind)
        /// What became of the push after its 200 (`delivery`: `delivered`, `stored` or
        /// `discarded`).
        case delivery(DeviceDelivery.State)
        /// Why the push was discarded (`deliveryReason`).
        case deliveryReason(DeviceDelivery.Reason)
        /// The payload's lint (`lint`): `error` or `warning` (a finding of that severity),
        /// `clean` (no finding at all), or a finding's code.
        case lint(String)
        /// The preview's value at `path` matches `expected` (`preview.body`, `preview.sound.name`).
        case preview(path: [PayloadPathComponent], expected: JSONValue)
        /// A web push record's `webPush` object holds `expected` at `path` (`webPush.urgency`,
        /// `webPush.vapid.subject`, `webPush.decryption.problem`): what its headers and VAPID
        /// credential said and whether its body decrypted, as the record writes them.
        case webPush(path: [PayloadPathComponent], expected: JSONValue)

        /// The field's name as written in a query string (`payload.aps.badge`).
        public var fieldName: String {
            switch self {
            case .token: "token"
            case .tokenPrefix: "tokenPrefix"
            case .topic: "topic"
            case .pushType: "pushType"
            case .status: "status"
            case .reason: "reason"
            case .apnsID: "apnsId"
            case .collapseID: "collapseId"
            case .priority: "priority"
            case .environment: "environment"
            case .authMethod: "authMethod"
            case .header(let name, _): "headers.\(name)"
            case .payload(let path, _): (["payload"] + path.map(\.description)).joined(separator: ".")
            case .connectionID: "connectionId"
            case .faultID: "faultId"
            case .channelID: "channelId"
            case .subscriptionID: "subscriptionId"
            case .outcome: "outcome"
            case .kind: "kind"
            case .delivery: "delivery"
            case .deliveryReason: "deliveryReason"
            case .lint: "lint"
            case .preview(let path, _): (["preview"] + path.map(\.description)).joined(separator: ".")
            case .webPush(let path, _): (["webPush"] + path.map(\.description)).joined(separator: ".")
            }
        }

        /// The expected value as text.
        public var expectedText: String {
            switch self {
            case .token(let value), .tokenPrefix(let value), .topic(let value), .reason(let value),
                .apnsID(let value), .collapseID(let value), .authMethod(let value):
                value
            case .pushType(let type): type.rawValue
            case .status(let status): String(status)
            case .priority(let priority): String(priority)
            case .environment(let environment): environment.rawValue
            case .header(_, let value): value
            case .payload(_, let expected): expected.scalarText ?? expected.jsonText
            case .connectionID(let id): String(id)
            case .faultID(let id): id
            case .channelID(let id): id
            case .subscriptionID(let id): id
            case .outcome(let outcome): outcome.rawValue
            case .kind(let kind): kind.rawValue
            case .delivery(let state): state.rawValue
            case .deliveryReason(let reason): reason.rawValue
            case .lint(let value): value
            case .preview(_, let expected), .webPush(_, let expected): expected.scalarText ?? expected.jsonText
            }
        }
    }

    /// A step into a JSON document: an object key or an array index.
    public enum PayloadPathComponent: Sendable, Hashable, CustomStringConvertible {
        case key(String)
        case index(Int)

        public var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// The outcome of one condition against one push, for near-miss reports.
    public struct ConditionResult: Sendable, Hashable {
        public var condition: Condition
        /// What the push had there (`nil`: nothing).
        public var actual: String?
        public var matched: Bool
        /// For a `payload.`, `preview.` or `headers.` condition whose path none of the records
        /// looked at has: the path they have that is closest to it ("did you mean"), if any.
        public var suggestion: String? = nil
    }

    /// The field names a matcher knows (query-string and JSON spelling).
    public static let fieldNames = [
        "token", "tokenPrefix", "topic", "pushType", "status", "reason", "apnsId", "collapseId", "priority",
        "environment", "authMethod", "headers", "payload", "connectionId", "faultId", "outcome", "kind", "channelId",
        "lint", "preview", "delivery", "deliveryReason", "subscriptionId", "webPush",
    ]

    /// The fields written with a path in a query string (`headers.apns-priority`,
    /// `payload.aps.badge`, `preview.body`, `webPush.urgency`): one free-form parameter of the
    /// document's, an object in JSON.
    public static let pathFieldNames = ["headers", "payload", "preview", "webPush"]

    /// The `lint` values that are not finding codes.
    public static let lintSummaries = ["error", "warning", "clean"]

    /// The `apns-priority` values APNs accepts, which a `priority` condition takes.
    public static let priorities = [10, 5, 1]

    /// Whether some condition needs the payload's analysis (`lint`, `preview.*`).
    public var needsAnalysis: Bool {
        conditions.contains {
            switch $0 {
            case .lint, .preview: true
            default: false
            }
        }
    }

    /// The conditions, in the order they were given.
    public private(set) var conditions: [Condition]

    /// A matcher of `conditions`; none matches every push.
    public init(_ conditions: [Condition] = []) { self.conditions = conditions }

    /// Whether the matcher has no condition (matches everything).
    public var isEmpty: Bool { conditions.isEmpty }

    /// The `token` condition's value (ASCII letters in lower case, as `ASCIIBytes.lowercased`
    /// writes it), for an index look-up.
    public var token: String? {
        for case .token(let token) in conditions { return ASCIIBytes.lowercased(token) }
        return nil
    }

    /// The `token` condition's value when it is a well-formed token (lower case): the records it
    /// can match are all in the store's token index under it.
    public var indexableToken: String? {
        guard let token, DeviceToken.isLowercaseHexToken(token) else { return nil }
        return token
    }

    /// The `apnsId` condition's value, for an index look-up.
    public var apnsID: String? {
        for case .apnsID(let id) in conditions { return id }
        return nil
    }

    /// Adds `condition`.
    public mutating func append(_ condition: Condition) { conditions.append(condition) }

    // MARK: matching

    /// Whether every condition holds for `facts`.
    public func matches(_ facts: some DeliveryFacts) -> Bool {
        var parsed = Parsed()
        for condition in conditions where !Self.check(condition, facts, &parsed).matched { return false }
        return true
    }

    /// Each condition's outcome for `facts`, in order.
    public func evaluate(_ facts: some DeliveryFacts) -> [ConditionResult] {
        var parsed = Parsed()
        return conditions.map { Self.check($0, facts, &parsed) }
    }

    /// What one match computes at most once: the payload's tree, its analysis.
    private struct Parsed {
        var payload: JSONValue?? = nil
        var analysis: PayloadAnalysis?? = nil
        var preview: JSONValue?? = nil
        var webPush: JSONValue?? = nil
    }

    private static func check(_ condition: Condition, _ facts: some DeliveryFacts, _ parsed: inout Parsed)
        -> ConditionResult
    {
        func result(_ actual: String?, _ matched: Bool) -> ConditionResult {
            ConditionResult(condition: condition, actual: actual, matched: matched)
        }
        /// A `payload`, `preview` or `webPush` condition against its document (parsed once).
        func subset(_ document: JSONValue??, _ path: [PayloadPathComponent], _ expected: JSONValue) -> ConditionResult {
            guard case .some(.some(let document)) = document, let actual = Self.value(at: path, in: document) else {
                return result(nil, false)
            }
            return result(actual.scalarText ?? actual.jsonText, Self.contains(actual, expected))
        }
        switch condition {
        case .token(let token):
            let actual = facts.matchToken
            return result(actual, actual.map { ASCIIBytes.equalIgnoringCase($0, token) } ?? false)
        case .tokenPrefix(let prefix):
            let actual = facts.matchToken
            return result(actual, actual.map { $0.lowercased().hasPrefix(prefix.lowercased()) } ?? false)
        case .topic(let topic):
            return result(facts.matchTopic, facts.matchTopic == topic)
        case .pushType(let type):
            return result(facts.matchPushType?.rawValue, facts.matchPushType == type)
        case .status(let status):
            return result(facts.matchStatus.map(String.init), facts.matchStatus == status)
        case .reason(let reason):
            return result(facts.matchReason, facts.matchReason == reason)
        case .apnsID(let id):
            let actual = facts.matchAPNSID
            return result(actual, actual.map { ASCIIBytes.equalIgnoringCase($0, id) } ?? false)
        case .collapseID(let id):
            let actual = facts.matchHeader("apns-collapse-id")
            return result(actual, actual == id)
        case .subscriptionID(let id):
            // A web push's record names its subscription where a push names its device token.
            let actual = facts.matchKind == .webPush ? facts.matchToken : nil
            return result(actual, actual == id)
        case .priority(let priority):
            let actual = facts.matchHeader("apns-priority")
            return result(actual, actual.flatMap { Int($0) } == priority)
        case .environment(let environment):
            return result(facts.matchEnvironment.rawValue, facts.matchEnvironment == environment)
        case .authMethod(let method):
            let actual = facts.matchAuthMethod?.rawValue ?? "none"
            return result(actual, actual == method)
        case .header(let name, let value):
            let actual = facts.matchHeader(name)
            return result(actual, actual == value)
        case .connectionID(let id):
            return result(facts.matchConnectionID.map(String.init), facts.matchConnectionID == id)
        case .faultID(let id):
            return result(facts.matchFaultID, facts.matchFaultID == id)
        case .channelID(let id):
            return result(facts.matchChannelID, facts.matchChannelID == id)
        case .outcome(let outcome):
            return result(facts.matchOutcome?.rawValue, facts.matchOutcome == outcome)
        case .kind(let kind):
            return result(facts.matchKind.rawValue, facts.matchKind == kind)
        case .delivery(let state):
            let actual = facts.matchDelivery?.state
            return result(actual?.rawValue, actual == state)
        case .deliveryReason(let reason):
            let actual = facts.matchDelivery?.reason
            return result(actual?.rawValue, actual == reason)
        case .payload(let path, let expected):
            if parsed.payload == nil { parsed.payload = .some(JSONValue.parse(facts.matchPayload)) }
            return subset(parsed.payload, path, expected)
        case .lint(let value):
            if parsed.analysis == nil { parsed.analysis = .some(facts.matchAnalysis) }
            guard case .some(.some(let analysis)) = parsed.analysis else { return result(nil, false) }
            let codes = analysis.findings.map(\.code.rawValue)
            let actual = codes.isEmpty ? "clean" : codes.joined(separator: ",")
            switch value {
            case "clean": return result(actual, codes.isEmpty)
            case "error": return result(actual, analysis.has(severity: .error))
            case "warning": return result(actual, analysis.has(severity: .warning))
            default: return result(actual, codes.contains(value))
            }
        case .preview(let path, let expected):
            if parsed.preview == nil {
                if parsed.analysis == nil { parsed.analysis = .some(facts.matchAnalysis) }
                parsed.preview = .some(parsed.analysis??.preview?.jsonValue)
            }
            return subset(parsed.preview, path, expected)
        case .webPush(let path, let expected):
            if parsed.webPush == nil { parsed.webPush = .some(facts.matchWebPush) }
            return subset(parsed.webPush, path, expected)
        }
    }

    static func value(at path: [PayloadPathComponent], in document: JSONValue) -> JSONValue? {
        var current = document
        for component in path {
            switch (component, current) {
            case (.key(let key), .object):
                guard let next = current[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            case (.key(let key), .array(let elements)):
                // A numeric key written flat (`payload.list.0`) indexes an array.
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Whether `actual` holds `expected`: objects by subset, arrays element by element,
    /// scalars by value (a string matches a number or boolean with the same text).
    public static func contains(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (.object, .object(let members)):
            return members.allSatisfy { member in actual[member.key].map { contains($0, member.value) } ?? false }
        case (.array(let have), .array(let want)):
            return have.count == want.count && zip(have, want).allSatisfy { contains($0, $1) }
        case (.string(let text), .number), (.string(let text), .bool):
            return text == expected.scalarText
        case (.number, .string(let text)), (.bool, .string(let text)):
            return actual.scalarText == text
        default:
            return actual == expected
        }
    }
}
