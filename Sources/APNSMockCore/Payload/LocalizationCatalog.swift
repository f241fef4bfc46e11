/// Every loaded localization table, one per locale, built from file contents (the caller reads
/// the files: Core does no I/O).
///
/// Tables for the same locale merge (a later file's keys win). `strings(for:)` picks the table
/// a device of a locale would use.
public struct LocalizationCatalog: Sendable, Hashable {
    /// Tables by normalized locale (lower case, `-` for `_`).
    private var tables: [String: LocalizedStrings] = [:]
    /// The source language of the last string catalog loaded, tried before `en` and `Base`.
    private var sourceLanguage: String?

    public init() {}

    /// Adds a `Localizable.strings` file of `locale` (the `.lproj` name without extension:
    /// `fr`, `pt-BR`, `Base`). UTF-8, or UTF-16 with a BOM (little or big endian), or UTF-16
    /// without a BOM detected by its NUL bytes.
    public mutating func addStringsFile(_ bytes: [UInt8], locale: String, fileName: String) throws(LocalizationError) {
        merge(try StringsFileParser.parse(bytes, fileName: fileName), locale: locale)
    }

    /// Adds an Xcode string catalog (`.xcstrings`): one table per language it has. A key
    /// without a localization in the source language gets the key itself there, as Xcode does;
    /// plural and device variations contribute their `other` form.
    public mutating func addStringCatalog(_ bytes: [UInt8], fileName: String) throws(LocalizationError) {
        let catalog = try StringCatalogReader.read(bytes, fileName: fileName)
        for (language, strings) in catalog.tables.sorted(by: { $0.key < $1.key }) {
            merge(strings, locale: language)
        }
        sourceLanguage = catalog.sourceLanguage
    }

    /// The loaded locales, sorted.
    public var locales: [String] { tables.values.map(\.locale).sorted() }

    /// Whether no table is loaded.
    public var isEmpty: Bool { tables.isEmpty }

    /// The table for `locale`: an exact match (case-insensitive, `_` same as `-`), else the
    /// locale with its last parts removed (`fr-CA` → `fr`, `zh-Hant-TW` → `zh-Hant` → `zh`),
    /// else the development language (a string catalog's source language, else `en`, else
    /// `Base`), else `nil`.
    public func strings(for locale: String) -> LocalizedStrings? {
        var candidate = Self.normalized(locale)
        while true {
            if let table = tables[candidate] { return table }
            guard let dash = candidate.lastIndex(of: "-") else { break }
            candidate = String(candidate[..<dash])
        }
        for fallback in [sourceLanguage.map(Self.normalized), "en", "base"] {
            if let fallback, let table = tables[fallback] { return table }
        }
        return nil
    }

    private mutating func merge(_ strings: [String: String], locale: String) {
        let key = Self.normalized(locale)
        var table = tables[key] ?? LocalizedStrings(locale: locale)
        table.strings.merge(strings) { _, new in new }
        tables[key] = table
    }

    private static func normalized(_ locale: String) -> String {
        String(locale.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}
