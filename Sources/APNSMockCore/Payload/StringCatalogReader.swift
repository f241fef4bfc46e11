/// Reads an Xcode string catalog (`.xcstrings`, JSON) into one table per language.
///
/// `{"sourceLanguage":"en","strings":{"KEY":{"localizations":{"fr":{"stringUnit":{"state":
/// "translated","value":"…"}}}}}}`. A key without a localization in the source language gets the
/// key itself there, as Xcode compiles it; other languages simply lack it. A localization with
/// `variations` (plural, device) contributes its `other` variation. A string unit's `state` is
/// not consulted: its value is what the build ships.
enum StringCatalogReader {
    /// The catalog's source language and its tables (language → key → format).
    static func read(
        _ bytes: [UInt8], fileName: String
    ) throws(LocalizationError) -> (sourceLanguage: String, tables: [String: [String: String]]) {
        func failure(_ message: String) -> LocalizationError {
            LocalizationError(fileName: fileName, line: nil, message: message)
        }
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        guard let root = JSONValue.parse(text) else { throw failure("the string catalog is not valid JSON") }
        guard case .object = root else { throw failure("the string catalog is not a JSON object") }
        let sourceLanguage: String
        switch root["sourceLanguage"] {
        case nil: sourceLanguage = "en"
        case .string(let language)?: sourceLanguage = language
        default: throw failure("'sourceLanguage' must be a string")
        }
        guard case .object(let entries)? = root["strings"] else {
            throw failure("'strings' must be a dictionary of keys")
        }
        var tables: [String: [String: String]] = [sourceLanguage: [:]]
        for (key, entry) in entries {
            guard case .object = entry else { throw failure("'strings.\(key)' must be a dictionary") }
            if case .object(let localizations)? = entry["localizations"] {
                for (language, localization) in localizations {
                    guard let value = self.value(of: localization) else { continue }
                    tables[language, default: [:]][key] = value
                }
            }
            if tables[sourceLanguage]?[key] == nil { tables[sourceLanguage]?[key] = key }
        }
        return (sourceLanguage, tables)
    }

    /// The value of a localization: its string unit's, or its `other` variation's.
    private static func value(of localization: JSONValue) -> String? {
        if case .string(let value)? = localization["stringUnit"]?["value"] { return value }
        guard case .object(let kinds)? = localization["variations"] else { return nil }
        for (_, variants) in kinds {
            if let other = variants["other"], let value = value(of: other) { return value }
        }
        return nil
    }
}
