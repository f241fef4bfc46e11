import APNSMockCore
import Testing

/// `LocalizationCatalog.addStringsFile`: the `Localizable.strings` syntax and encodings.
@Suite("Localizable.strings")
struct StringsFileTests {
    static let sample = """
        /* Notifications */
        "GAME_PLAY_REQUEST_FORMAT" = "%@ et %@ vous invitent à jouer";
        // The title of an invitation
        "INVITE_TITLE" = "Invitation de %1$@";  /* trailing comment */
        "QUOTE" = "Il a dit \\"bonjour\\" \\\\ fin";
        "LINES" = "un\\ndeux\\tcol\\rretour";
        "EMOJI" = "\\U263A et \\UD83D\\UDE00";
        UNQUOTED_KEY = unquoted.value-1;
        "SELF";
        /* a comment
           over two lines */ "AFTER_COMMENT"="collé";
        "MULTI" = "first
        second";
        "EMPTY" = "";
        "OTHER_ESCAPE" = "\\'quoted\\'";
        """

    static let sampleStrings: [String: String] = [
        "GAME_PLAY_REQUEST_FORMAT": "%@ et %@ vous invitent à jouer",
        "INVITE_TITLE": "Invitation de %1$@",
        "QUOTE": #"Il a dit "bonjour" \ fin"#,
        "LINES": "un\ndeux\tcol\rretour",
        "EMOJI": "☺ et 😀",
        "UNQUOTED_KEY": "unquoted.value-1",
        "SELF": "SELF",
        "AFTER_COMMENT": "collé",
        "MULTI": "first\nsecond",
        "EMPTY": "",
        "OTHER_ESCAPE": "'quoted'",
    ]

    static func load(_ bytes: [UInt8], locale: String = "fr") throws -> LocalizedStrings? {
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(bytes, locale: locale, fileName: "\(locale).lproj/Localizable.strings")
        return catalog.strings(for: locale)
    }

    static func utf16(_ text: String, littleEndian: Bool, bom: Bool) -> [UInt8] {
        var bytes: [UInt8] = bom ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
        for unit in text.utf16 {
            let (low, high) = (UInt8(unit & 0xFF), UInt8(unit >> 8))
            bytes += littleEndian ? [low, high] : [high, low]
        }
        return bytes
    }

    enum Encoding: String, CaseIterable, Sendable {
        case utf8, utf8WithBOM, utf16LittleEndianWithBOM, utf16BigEndianWithBOM, utf16LittleEndian, utf16BigEndian

        func encode(_ text: String) -> [UInt8] {
            switch self {
            case .utf8: Array(text.utf8)
            case .utf8WithBOM: [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            case .utf16LittleEndianWithBOM: StringsFileTests.utf16(text, littleEndian: true, bom: true)
            case .utf16BigEndianWithBOM: StringsFileTests.utf16(text, littleEndian: false, bom: true)
            case .utf16LittleEndian: StringsFileTests.utf16(text, littleEndian: true, bom: false)
            case .utf16BigEndian: StringsFileTests.utf16(text, littleEndian: false, bom: false)
            }
        }
    }

    @Test("Entries, comments and escapes in every encoding", arguments: Encoding.allCases)
    func encodings(_ encoding: Encoding) throws {
        let table = try #require(try Self.load(encoding.encode(Self.sample)))
        #expect(table.strings == Self.sampleStrings)
        #expect(table.locale == "fr")
        #expect(table["INVITE_TITLE"] == "Invitation de %1$@")
        #expect(table["MISSING"] == nil)
    }

    @Test("An empty file, or one with only comments, has no entries")
    func empty() throws {
        #expect(try Self.load([])?.strings == [:])
        #expect(try Self.load(Array("/* nothing */\n// here\n".utf8))?.strings == [:])
    }

    @Test("A key given twice keeps its last value")
    func duplicateKey() throws {
        let table = try Self.load(Array(#""A" = "1"; "A" = "2";"#.utf8))
        #expect(table?["A"] == "2")
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let text: String
        let line: Int?
        let message: String
        var testDescription: String { message }
        init(_ text: String, _ line: Int?, _ message: String) {
            self.text = text
            self.line = line
            self.message = message
        }
    }

    static let errors: [ErrorCase] = [
        ErrorCase("\"A\" = \"1\";\n\"B\" = \"2\"\n\"C\" = \"3\";\n", 2, "expected ';' after the value"),
        ErrorCase("\"A\" = \"1\";\n\n\"B\" \"2\";\n", 3, "expected '=' after the key \"B\""),
        ErrorCase("\"A\" = ;\n", 1, "expected a value after '=' for the key \"A\""),
        ErrorCase("\"A\" = \"1\";\n\"B\" = \"never closed;\n\n", 2, "unterminated string (no closing '\"')"),
        ErrorCase("\"A\" = \"1\";\n/* open\ncomment\n", 2, "unterminated comment ('/*' without '*/')"),
        ErrorCase("\"A\" = \"1\";\n{ \"B\" = \"2\"; }\n", 2, "expected a key (a quoted string) but found '{'"),
        ErrorCase("\"A\" = \"\\U12\";", 1, "\\U must be followed by four hex digits"),
        ErrorCase("\"A\" = \"\\UD83D\";", 1, "\\UD83D is a high surrogate without a \\U low surrogate after it"),
        ErrorCase("\n\"A\" = \"\\UDE00\";", 2, "\\UDE00 is an unpaired low surrogate"),
        ErrorCase("\"A\" = \"1\"", 1, "expected ';' after the value"),
        ErrorCase("\"A\"", 1, "expected '=' after the key \"A\""),
    ]

    @Test("Syntax errors name the file and the line", arguments: errors)
    func syntaxErrors(_ row: ErrorCase) {
        var catalog = LocalizationCatalog()
        #expect(
            throws: LocalizationError(fileName: "fr.lproj/Localizable.strings", line: row.line, message: row.message)
        ) {
            try catalog.addStringsFile(Array(row.text.utf8), locale: "fr", fileName: "fr.lproj/Localizable.strings")
        }
        #expect(catalog.isEmpty)
    }

    @Test("The error reads as a sentence with the file and line")
    func errorDescription() {
        var catalog = LocalizationCatalog()
        do {
            try catalog.addStringsFile(
                Array("\"A\" = \"1\";\n\n\"B\" = \"2\"\n".utf8), locale: "fr", fileName: "fr.lproj/Localizable.strings")
            Issue.record("no error")
        } catch {
            #expect(error.description == "fr.lproj/Localizable.strings line 3: expected ';' after the value")
        }
        #expect(
            LocalizationError(fileName: "x.xcstrings", line: nil, message: "the string catalog is not valid JSON")
                .description == "x.xcstrings: the string catalog is not valid JSON")
    }

    @Test("Bytes that are neither UTF-8 nor UTF-16")
    func encodingErrors() {
        var catalog = LocalizationCatalog()
        #expect(
            throws: LocalizationError(
                fileName: "de.lproj/Localizable.strings", line: 2,
                message: "the file is not valid UTF-8 (nor UTF-16 with a byte order mark)")
        ) {
            try catalog.addStringsFile(
                Array("\"A\" = \"1\";\n\"B\" = \"".utf8) + [0xC3, 0x28] + Array("\";".utf8), locale: "de",
                fileName: "de.lproj/Localizable.strings")
        }
        #expect(
            throws: LocalizationError(
                fileName: "de.lproj/Localizable.strings", line: nil,
                message: "the file has an odd number of bytes for UTF-16")
        ) {
            try catalog.addStringsFile([0xFF, 0xFE, 0x41], locale: "de", fileName: "de.lproj/Localizable.strings")
        }
        #expect(
            throws: LocalizationError(
                fileName: "de.lproj/Localizable.strings", line: 1,
                message: "the file is not valid UTF-16 (an unpaired surrogate)")
        ) {
            try catalog.addStringsFile(
                [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00], locale: "de", fileName: "de.lproj/Localizable.strings")
        }
    }
}
