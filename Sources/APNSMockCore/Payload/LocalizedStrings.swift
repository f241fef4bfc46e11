/// One locale's localized strings (key → format), as a device of that locale would look them up
/// for `loc-key`, `title-loc-key` and `subtitle-loc-key`.
public struct LocalizedStrings: Sendable, Hashable {
    /// The locale the table belongs to, as loaded (`fr`, `pt-BR`, `Base`).
    public var locale: String
    /// Key → format.
    public var strings: [String: String]

    public init(locale: String, strings: [String: String] = [:]) {
        self.locale = locale
        self.strings = strings
    }

    /// The format for `key`, or `nil` when the table does not have it.
    public subscript(key: String) -> String? { strings[key] }
}
