extension NotificationPreview {
    /// What a device would show for the JSON object `payload`, with `strings` as the device's
    /// localized strings (`nil`: loc keys are shown as they are).
    ///
    /// An alert string is the body; in an alert dictionary `title-loc-key` (with
    /// `title-loc-args`) takes the place of `title`, `subtitle-loc-key` of `subtitle` and
    /// `loc-key` of `body`. Values of the wrong type are left out.
    init(payload: JSONValue, strings: LocalizedStrings?) {
        let aps = payload["aps"]
        var title: String?
        var subtitle: String?
        var body: String?
        switch aps?["alert"] {
        case .string(let text)?:
            body = text
        case let alert? where alert.lintIsObject:
            title = Self.text(of: alert, plain: "title", locKey: "title-loc-key", locArgs: "title-loc-args", strings)
            subtitle = Self.text(
                of: alert, plain: "subtitle", locKey: "subtitle-loc-key", locArgs: "subtitle-loc-args", strings)
            body = Self.text(of: alert, plain: "body", locKey: "loc-key", locArgs: "loc-args", strings)
        default:
            break
        }
        let sound: Sound?
        switch aps?["sound"] {
        case .string(let name)?:
            sound = Sound(name: name)
        case let dictionary? where dictionary.lintIsObject:
            sound = Sound(
                name: dictionary["name"]?.lintString, critical: dictionary["critical"]?.lintInteger == 1,
                volume: dictionary["volume"]?.lintNumber)
        default:
            sound = nil
        }
        self.init(
            title: title, subtitle: subtitle, body: body, badge: aps?["badge"]?.lintInteger, sound: sound,
            category: aps?["category"]?.lintString, threadId: aps?["thread-id"]?.lintString,
            interruptionLevel: aps?["interruption-level"]?.lintString)
    }

    /// An alert text: the localized `locKey` when it is a string, else the `plain` string.
    private static func text(
        of alert: JSONValue, plain: String, locKey: String, locArgs: String, _ strings: LocalizedStrings?
    ) -> String? {
        guard let key = alert[locKey]?.lintString else { return alert[plain]?.lintString }
        return localized(key, arguments: alert[locArgs], strings)
    }

    /// The text a device shows for a loc key: its format rendered with the arguments, or the
    /// key itself when the strings lack it (or none are loaded).
    private static func localized(_ key: String, arguments: JSONValue?, _ strings: LocalizedStrings?) -> String {
        guard let format = strings?[key] else { return key }
        return LocalizedFormat.render(format, arguments: argumentTexts(arguments)).text
    }

    /// The texts of a loc-args array (a non-string element as its JSON text).
    private static func argumentTexts(_ arguments: JSONValue?) -> [String] {
        guard case .array(let elements)? = arguments else { return [] }
        return elements.map { $0.scalarText ?? $0.jsonText }
    }
}
