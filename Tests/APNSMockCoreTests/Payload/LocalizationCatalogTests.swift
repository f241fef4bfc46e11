import APNSMockCore
import Testing

/// `LocalizationCatalog`: string catalogs (`.xcstrings`) and the choice of a locale's table.
@Suite("LocalizationCatalog")
struct LocalizationCatalogTests {
    /// A catalog in English, French and German, as Xcode writes it (trimmed).
    static let xcstrings = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "GAME_PLAY_REQUEST_FORMAT" : {
              "localizations" : {
                "en" : { "stringUnit" : { "state" : "translated", "value" : "%@ and %@ have invited you to play" } },
                "fr" : { "stringUnit" : { "state" : "translated", "value" : "%@ et %@ vous invitent à jouer" } },
                "de" : { "stringUnit" : { "state" : "needs_review", "value" : "%2$@ und %1$@ laden dich ein" } }
              }
            },
            "NEW_MESSAGES" : {
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : { "stringUnit" : { "state" : "translated", "value" : "%lld new message" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld new messages" } }
                    }
                  }
                },
                "fr" : {
                  "variations" : {
                    "device" : {
                      "iphone" : { "stringUnit" : { "state" : "translated", "value" : "%lld messages (iPhone)" } },
                      "other" : { "stringUnit" : { "state" : "translated", "value" : "%lld nouveaux messages" } }
                    }
                  }
                }
              }
            },
            "Welcome back" : {
            },
            "ONLY_FRENCH" : {
              "localizations" : {
                "fr" : { "stringUnit" : { "state" : "translated", "value" : "Seulement en français" } }
              }
            }
          },
          "version" : "1.0"
        }
        """

    static func catalog() throws -> LocalizationCatalog {
        var catalog = LocalizationCatalog()
        try catalog.addStringCatalog(Array(xcstrings.utf8), fileName: "Localizable.xcstrings")
        return catalog
    }

    @Test("A string catalog gives one table per language")
    func languages() throws {
        let catalog = try Self.catalog()
        #expect(catalog.locales == ["de", "en", "fr"])
        let english = try #require(catalog.strings(for: "en"))
        #expect(
            english.strings == [
                "GAME_PLAY_REQUEST_FORMAT": "%@ and %@ have invited you to play",
                "NEW_MESSAGES": "%lld new messages",
                "Welcome back": "Welcome back",
                "ONLY_FRENCH": "ONLY_FRENCH",
            ])
        let french = try #require(catalog.strings(for: "fr"))
        #expect(
            french.strings == [
                "GAME_PLAY_REQUEST_FORMAT": "%@ et %@ vous invitent à jouer",
                "NEW_MESSAGES": "%lld nouveaux messages",
                "ONLY_FRENCH": "Seulement en français",
            ])
        #expect(catalog.strings(for: "de")?.strings == ["GAME_PLAY_REQUEST_FORMAT": "%2$@ und %1$@ laden dich ein"])
    }

    @Test("Locale fallback: exact, then the language, then the development language")
    func fallback() throws {
        var catalog = try Self.catalog()
        try catalog.addStringsFile(
            Array(#""HELLO" = "Bonjour le Québec";"#.utf8), locale: "fr-CA", fileName: "fr-CA.lproj/Localizable.strings"
        )
        #expect(catalog.strings(for: "fr-CA")?.locale == "fr-CA")
        #expect(catalog.strings(for: "fr_ca")?.locale == "fr-CA")
        #expect(catalog.strings(for: "FR-ca")?.locale == "fr-CA")
        #expect(catalog.strings(for: "fr-BE")?.locale == "fr")
        #expect(catalog.strings(for: "fr")?.locale == "fr")
        #expect(catalog.strings(for: "de-AT")?.locale == "de")
        #expect(catalog.strings(for: "ja")?.locale == "en")
        #expect(catalog.strings(for: "")?.locale == "en")
    }

    @Test("fr-CA falls back to fr, then to en when fr is missing too")
    func stringsFilesFallback() throws {
        var catalog = LocalizationCatalog()
        #expect(catalog.strings(for: "fr-CA") == nil)
        try catalog.addStringsFile(Array(#""A" = "en";"#.utf8), locale: "en", fileName: "en.lproj/Localizable.strings")
        #expect(catalog.strings(for: "fr-CA")?.locale == "en")
        try catalog.addStringsFile(Array(#""A" = "fr";"#.utf8), locale: "fr", fileName: "fr.lproj/Localizable.strings")
        #expect(catalog.strings(for: "fr-CA")?["A"] == "fr")
        #expect(catalog.strings(for: "zh-Hant-TW")?["A"] == "en")
    }

    @Test("Without en, Base is the development language; a catalog's source language comes first")
    func developmentLanguage() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(
            Array(#""A" = "base";"#.utf8), locale: "Base", fileName: "Base.lproj/Localizable.strings")
        try catalog.addStringsFile(Array(#""A" = "es";"#.utf8), locale: "es", fileName: "es.lproj/Localizable.strings")
        #expect(catalog.strings(for: "it")?.locale == "Base")
        #expect(catalog.strings(for: "zh-Hant-TW")?.locale == "Base")
        try catalog.addStringCatalog(
            Array(#"{"sourceLanguage":"es","strings":{"B":{}}}"#.utf8), fileName: "Localizable.xcstrings")
        #expect(catalog.strings(for: "it")?.locale == "es")
        #expect(catalog.strings(for: "it")?.strings == ["A": "es", "B": "B"])
        #expect(catalog.locales == ["Base", "es"])
    }

    @Test("Tables of one locale merge; a later file's keys win")
    func merge() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(Array(#""A" = "1"; "B" = "2";"#.utf8), locale: "pt-BR", fileName: "a")
        try catalog.addStringsFile(Array(#""B" = "3"; "C" = "4";"#.utf8), locale: "pt_br", fileName: "b")
        #expect(catalog.locales == ["pt-BR"])
        #expect(catalog.strings(for: "pt-BR")?.strings == ["A": "1", "B": "3", "C": "4"])
    }

    struct CatalogError: Sendable, CustomTestStringConvertible {
        let json: String
        let message: String
        var testDescription: String { message }
    }

    static let catalogErrors: [CatalogError] = [
        CatalogError(json: #"{"sourceLanguage":"en","strings":{}"#, message: "the string catalog is not valid JSON"),
        CatalogError(json: "[]", message: "the string catalog is not a JSON object"),
        CatalogError(json: #"{"sourceLanguage":1,"strings":{}}"#, message: "'sourceLanguage' must be a string"),
        CatalogError(json: #"{"sourceLanguage":"en"}"#, message: "'strings' must be a dictionary of keys"),
        CatalogError(
            json: #"{"sourceLanguage":"en","strings":{"A":"x"}}"#, message: "'strings.A' must be a dictionary"),
    ]

    @Test("Catalog errors name the file", arguments: catalogErrors)
    func catalogError(_ row: CatalogError) {
        var catalog = LocalizationCatalog()
        #expect(throws: LocalizationError(fileName: "Localizable.xcstrings", line: nil, message: row.message)) {
            try catalog.addStringCatalog(Array(row.json.utf8), fileName: "Localizable.xcstrings")
        }
        #expect(catalog.isEmpty)
    }

    @Test("A catalog without sourceLanguage is English")
    func defaultSourceLanguage() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringCatalog(Array(#"{"strings":{"HI":{}}}"#.utf8), fileName: "Localizable.xcstrings")
        #expect(catalog.strings(for: "en")?.strings == ["HI": "HI"])
    }
}
