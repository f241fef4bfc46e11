/// Lints the plaintext of a web push as a Declarative Web Push message (its codes are
/// `LintCode`'s last group) (WebKit's "Meet
/// Declarative Web Push", Safari 18.4; the W3C Push API's declarative push message): a JSON
/// object with `"web_push": 8030` and a `notification` dictionary whose `title` and `navigate`
/// are required. Pure.
///
/// A plaintext that is not a JSON object, or has no `web_push` member, is an ordinary push for
/// the service worker: no findings. `app_badge` and `mutable` are read at the top level, where
/// the W3C draft puts them.
public enum DeclarativeWebPushLinter {
    /// The value of `web_push` that marks a declarative push message.
    public static let marker = 8030.0

    /// The most plaintext a 4,096-byte body carries: RFC 8291's one aes128gcm record has an
    /// 86-byte header (salt, record size, the sender's 65-byte key), a 16-byte tag and a padding
    /// delimiter.
    public static let plaintextLimit = WebPushRequestRules.payloadLimit - 86 - 16 - 1

    /// A web push's plaintext analysed as a record's payload: the findings of `lint`, no preview
    /// (the dashboard reads a web push's title and body itself), its `size` against
    /// `plaintextLimit`.
    public static func analysis(of plaintext: [UInt8], size: Int) -> PayloadAnalysis {
        PayloadAnalysis(findings: lint(plaintext), preview: nil, byteCount: size, limit: plaintextLimit)
    }

    /// Whether `plaintext` is meant as a declarative push message: a JSON object with `web_push`.
    public static func isDeclarative<Bytes: Collection<UInt8>>(_ plaintext: Bytes) -> Bool {
        JSONValue.parse(plaintext)?["web_push"] != nil
    }

    /// The findings about `plaintext`, in document order of the members checked.
    public static func lint<Bytes: Collection<UInt8>>(_ plaintext: Bytes) -> [LintFinding] {
        guard case .object(let message)? = JSONValue.parse(plaintext),
            let webPush = ProviderTokenParser.member("web_push", of: message)
        else { return [] }
        var findings: [LintFinding] = []
        func add(_ code: LintCode, _ path: String, _ message: String) {
            findings.append(LintFinding(code: code, path: path, message: message))
        }
        if case .number(let value, _) = webPush, value == Self.marker {
            // A declarative push message.
        } else {
            add(.webPushNot8030, "web_push", "web_push is \(webPush.jsonText); a declarative push message has 8030")
        }
        lintUnsignedInteger(ProviderTokenParser.member("app_badge", of: message), path: "app_badge", add: add)
        lintBoolean(ProviderTokenParser.member("mutable", of: message), path: "mutable", add: add)
        guard case .object(let notification)? = ProviderTokenParser.member("notification", of: message) else {
            add(.notificationMissing, "notification", "the message has no notification dictionary")
            return findings
        }
        func member(_ name: String) -> JSONValue? { ProviderTokenParser.member(name, of: notification) }
        if stringValue(member("title")) == nil {
            add(.notificationTitleMissing, "notification.title", "notification.title is missing or not a string")
        }
        if stringValue(member("navigate")) == nil {
            add(
                .notificationNavigateMissing, "notification.navigate",
                "notification.navigate (the URL a tap opens) is missing or not a string")
        }
        if let dir = member("dir"), !["auto", "ltr", "rtl"].contains(stringValue(dir) ?? "") {
            add(
                .notificationDirInvalid, "notification.dir",
                "notification.dir is \(dir.jsonText); it is auto, ltr or rtl")
        }
        for name in ["body", "lang", "tag", "icon", "image", "badge"] {
            guard let value = member(name), stringValue(value) == nil else { continue }
            add(
                .declarativeNotString, "notification.\(name)", "notification.\(name) is \(value.jsonText), not a string"
            )
        }
        for name in ["silent", "renotify", "requireInteraction"] {
            lintBoolean(member(name), path: "notification.\(name)", add: add)
        }
        lintUnsignedInteger(member("timestamp"), path: "notification.timestamp", add: add)
        if member("require_interaction") != nil {
            add(
                .notificationRequireInteractionSpelling, "notification.require_interaction",
                "notification.require_interaction is ignored: the member is requireInteraction")
        }
        if case .array(let actions)? = member("actions") {
            for (index, action) in actions.enumerated() {
                let missing = ["action", "title", "navigate"].filter { stringValue(action[$0]) == nil }
                guard !missing.isEmpty else { continue }
                add(
                    .notificationActionIncomplete, "notification.actions[\(index)]",
                    "notification.actions[\(index)] has no \(missing.joined(separator: ", ")) string")
            }
        }
        return findings
    }

    private static func stringValue(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value else { return nil }
        return text
    }

    private static func lintBoolean(
        _ value: JSONValue?, path: String, add: (LintCode, String, String) -> Void
    ) {
        guard let value else { return }
        if case .bool = value { return }
        add(.declarativeNotBoolean, path, "\(path) is \(value.jsonText), not true or false")
    }

    private static func lintUnsignedInteger(
        _ value: JSONValue?, path: String, add: (LintCode, String, String) -> Void
    ) {
        guard let value else { return }
        if case .number(let number, _) = value, number >= 0, number < 18_446_744_073_709_551_616.0,
            number.rounded(.towardZero) == number
        {
            return
        }
        add(.declarativeNotUnsignedInteger, path, "\(path) is \(value.jsonText), not a whole number from 0 to 2^64-1")
    }
}
