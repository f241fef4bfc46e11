/// What every payload analysis of a server shares: the app's localizations, the locale of
/// devices that have none, and the payload limit that replaces APNs's (`--payload-limit`).
public struct PayloadAnalysisOptions: Sendable, Hashable {
    /// The `.strings` files and `.xcstrings` catalogs loaded (`--localizations DIR`).
    public var catalog: LocalizationCatalog
    /// The locale of a device that has none in the registry (`--locale`).
    public var defaultLocale: String
    /// The payload limit in bytes for every push type, in place of APNs's (4096, VoIP 5120):
    /// 2048 or 256 emulate the binary interface's eras. Applies to answers (413) too.
    public var payloadLimit: Int?

    /// The default locale when none is given.
    public static let defaultLocaleName = "en"
    /// The smallest limit `--payload-limit` accepts (the binary interface before iOS 8).
    public static let smallestPayloadLimit = 256

    /// Whether `name` looks like a locale: a language code (`en`, `fil`) with optional script
    /// or region parts (`pt-BR`, `zh_Hans`, `sr-Latn-RS`), or `Base`.
    public static func isValidLocale(_ name: String) -> Bool {
        if name == "Base" { return true }
        let parts = name.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    public init(
        catalog: LocalizationCatalog = LocalizationCatalog(), defaultLocale: String = defaultLocaleName,
        payloadLimit: Int? = nil
    ) {
        self.catalog = catalog
        self.defaultLocale = defaultLocale
        self.payloadLimit = payloadLimit
    }

    /// The largest payload accepted for `pushType`.
    public func limit(for pushType: APNSPushType?) -> Int {
        payloadLimit ?? (pushType ?? .alert).payloadLimit
    }

    /// What the analyzer needs for a push with these headers to a device of `locale` (`nil`:
    /// the default locale). Without localizations loaded, no table is given: loc keys show as
    /// themselves and their arguments are not counted.
    public func context(
        pushType: APNSPushType?, pushTypeHeaderPresent: Bool, priority: String?, topic: String?, locale: String?
    ) -> PayloadContext {
        PayloadContext(
            pushType: pushType, pushTypeHeaderPresent: pushTypeHeaderPresent, priority: priority, topic: topic,
            payloadLimit: payloadLimit,
            strings: catalog.locales.isEmpty ? nil : catalog.strings(for: locale ?? defaultLocale))
    }

    /// What the analyzer needs for a broadcast sent with `apns-priority` `priority` (as sent),
    /// shown on a device of `locale` (`nil`: the default locale, as for the broadcast itself,
    /// which reaches many devices).
    public func broadcastContext(priority: String?, locale: String? = nil) -> PayloadContext {
        .broadcast(
            priority: priority, payloadLimit: payloadLimit,
            strings: catalog.locales.isEmpty ? nil : catalog.strings(for: locale ?? defaultLocale))
    }

    /// The context a request's payload is analysed in, by what the request is: a device push in
    /// its headers' context; a broadcast, and its delivery to a subscribed device
    /// (`viaChannel`), in a broadcast's (its limit, its findings); `nil` for channel
    /// management, whose body is a channel's configuration, not a notification. The one place
    /// that chooses, for records and for fault rules that match on `lint` or `preview`.
    public func context(
        kind: RecordKind, viaChannel: Bool, pushType: APNSPushType?, pushTypeHeaderPresent: Bool,
        priority: String?, topic: String?, locale: String?
    ) -> PayloadContext? {
        switch kind {
        case .channel, .webPush: nil
        case .broadcast: broadcastContext(priority: priority, locale: locale)
        case .push:
            viaChannel
                ? broadcastContext(priority: priority, locale: locale)
                : context(
                    pushType: pushType, pushTypeHeaderPresent: pushTypeHeaderPresent, priority: priority, topic: topic,
                    locale: locale)
        }
    }
}
