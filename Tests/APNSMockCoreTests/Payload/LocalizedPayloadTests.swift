import APNSMockCore
import Testing

/// Loc keys against loaded strings: the lint findings and the preview a device of a locale gets.
@Suite("Localized payloads")
struct LocalizedPayloadTests {
    static func analyze(_ json: String, _ strings: LocalizedStrings?) -> PayloadAnalysis {
        PayloadTestSupport.analyze(json, PayloadContext(strings: strings))
    }

    @Test("Positional arguments are reordered")
    func positional() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"SWAPPED","loc-args":["Ann","Bob"]}}}"#, PayloadTestSupport.english)
        #expect(analysis.findings == [])
        #expect(analysis.preview?.body == "Bob replied to Ann")
    }

    @Test("%% is a percent sign and uses no argument")
    func percent() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"title-loc-key":"DISCOUNT","title-loc-args":["20"],"body":"Today only"}}}"#,
            PayloadTestSupport.english)
        #expect(analysis.findings == [])
        #expect(analysis.preview?.title == "20 % off")
    }

    @Test("A key missing from the table: a warning, and the key is shown")
    func missingKey() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"title-loc-key":"UNKNOWN_TITLE","loc-key":"NO_ARGS"}}}"#, PayloadTestSupport.english)
        #expect(analysis.findings.map(\.code) == [.locKeyNotFound])
        #expect(analysis.findings.first?.path == "aps.alert.title-loc-key")
        #expect(
            analysis.findings.first?.message
                == #"aps.alert.title-loc-key "UNKNOWN_TITLE" is not in the en strings, so the device shows the key itself."#
        )
        #expect(!analysis.hasErrors)
        #expect(analysis.preview?.title == "UNKNOWN_TITLE")
        #expect(analysis.preview?.body == "Welcome back")
    }

    @Test(
        "Too few and too many arguments are errors",
        arguments: [
            (
                #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna"]}}}"#, "aps.alert.loc-args",
                "aps.alert.loc-args has 1 argument, but the en format of \"GAME_PLAY_REQUEST_FORMAT\" uses 2 placeholders."
            ),
            (
                #"{"aps":{"alert":{"loc-key":"NO_ARGS","loc-args":["a","b"]}}}"#, "aps.alert.loc-args",
                "aps.alert.loc-args has 2 arguments, but the en format of \"NO_ARGS\" uses 0 placeholders."
            ),
            (
                #"{"aps":{"alert":{"title-loc-key":"INVITE_TITLE","body":"b"}}}"#, "aps.alert.title-loc-args",
                "aps.alert.title-loc-args has 0 arguments, but the en format of \"INVITE_TITLE\" uses 1 placeholder."
            ),
            (
                #"{"aps":{"alert":{"subtitle-loc-key":"SWAPPED","subtitle-loc-args":null,"body":"b"}}}"#,
                "aps.alert.subtitle-loc-args",
                "aps.alert.subtitle-loc-args has 0 arguments, but the en format of \"SWAPPED\" uses 2 placeholders."
            ),
        ])
    func countMismatch(_ json: String, _ path: String, _ message: String) {
        let findings = Self.analyze(json, PayloadTestSupport.english).findings
        let mismatch = findings.first { $0.code == .locArgsCountMismatch }
        #expect(mismatch?.path == path)
        #expect(mismatch?.message == message)
        #expect(mismatch?.severity == .error)
    }

    @Test("A missing argument renders as empty text in the preview")
    func missingArgument() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna"]}}}"#,
            PayloadTestSupport.english)
        #expect(analysis.preview?.body == "Jenna and  have invited you to play Monopoly")
    }

    @Test("Non-string arguments are shown as their JSON text")
    func nonStringArguments() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"SWAPPED","loc-args":[1,true]}}}"#, PayloadTestSupport.english)
        #expect(analysis.preview?.body == "true replied to 1")
        #expect(analysis.findings.map(\.code) == [.alertKeyWrongType, .alertKeyWrongType])
    }

    @Test("Without loaded strings there are no loc findings and the keys are shown")
    func noStrings() {
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"ANYTHING","loc-args":["a","b","c"]}}}"#, nil)
        #expect(analysis.findings == [])
        #expect(analysis.preview?.body == "ANYTHING")
    }

    @Test("A device in fr-CA gets the fr table of a catalog; one in ja gets en")
    func catalogLocales() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringCatalog(
            Array(LocalizationCatalogTests.xcstrings.utf8), fileName: "Localizable.xcstrings")
        let payload = #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna","Frank"]}}}"#
        #expect(
            Self.analyze(payload, catalog.strings(for: "fr-CA")).preview?.body == "Jenna et Frank vous invitent à jouer"
        )
        #expect(Self.analyze(payload, catalog.strings(for: "de")).preview?.body == "Frank und Jenna laden dich ein")
        #expect(
            Self.analyze(payload, catalog.strings(for: "ja")).preview?.body
                == "Jenna and Frank have invited you to play")
        let englishOnly = #"{"aps":{"alert":{"loc-key":"Welcome back"}}}"#
        let french = Self.analyze(englishOnly, catalog.strings(for: "fr"))
        #expect(french.findings.map(\.code) == [.locKeyNotFound])
        #expect(french.preview?.body == "Welcome back")
        #expect(Self.analyze(englishOnly, catalog.strings(for: "en")).findings == [])
        let plural = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"NEW_MESSAGES","loc-args":["3"]}}}"#, catalog.strings(for: "fr"))
        #expect(plural.findings == [])
        #expect(plural.preview?.body == "3 nouveaux messages")
    }

    @Test("A .strings table in UTF-16 drives the preview")
    func stringsFile() throws {
        var catalog = LocalizationCatalog()
        let text = "/* Invitations */\n\"GAME_PLAY_REQUEST_FORMAT\" = \"%2$@ et %1$@ jouent\";\n"
        try catalog.addStringsFile(
            StringsFileTests.utf16(text, littleEndian: false, bom: true), locale: "fr",
            fileName: "fr.lproj/Localizable.strings")
        let analysis = Self.analyze(
            #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna","Frank"]}}}"#,
            catalog.strings(for: "fr_FR"))
        #expect(analysis.findings == [])
        #expect(analysis.preview?.body == "Frank et Jenna jouent")
    }
}
