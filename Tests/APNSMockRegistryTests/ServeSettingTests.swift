import Foundation
import Testing

@testable import APNSMockRegistry

/// One declaration per `serve` setting (`ServeSetting.all`): the configuration reader, the
/// settings table of docs/COMMAND-LINE.md and `apns-mock.example.yaml` agree with it. (That
/// `serve --help` lists exactly its flags is `CLITests.helpListsEveryDeclaredSetting`.)
@Suite struct ServeSettingTests {
    static let root = ProviderKeySpecTests.repositoryRoot

    /// Flags and keys are unique, and a key is its flag in camelCase but where it reads better
    /// as a plural or an acronym.
    @Test func flagsAndKeysAreUniqueAndNamedAlike() {
        let flags = ServeSetting.all.map(\.flag)
        let keys = ServeSetting.all.compactMap(\.key)
        #expect(Set(flags).count == flags.count)
        #expect(Set(keys).count == keys.count)
        let named = ["behavior": "behaviors", "client-ca": "clientCA"]
        for setting in ServeSetting.all {
            guard let key = setting.key else { continue }
            let parts = setting.flag.split(separator: "-").map(String.init)
            let camel = parts[0] + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            #expect(key == named[setting.flag] ?? camel, "--\(setting.flag) is '\(key)' in the file")
        }
    }

    /// Each declared key is read: the document with its example differs from an empty one; a
    /// flag the file does not hold is an unknown key there.
    @Test(arguments: ServeSetting.all)
    func theReaderReadsEveryDeclaredKey(_ setting: ServeSetting) throws {
        let empty = String(describing: ConfigurationDocument())
        guard let key = setting.key else {
            let camel = setting.flag.split(separator: "-").enumerated().map {
                $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
            }.joined()
            #expect(throws: ConfigurationFileError.self) {
                try ConfigurationDocument.parse(yaml: "\(camel): x", file: "f.yaml", baseDirectory: "/", now: 0)
            }
            return
        }
        let example = try #require(setting.example, "\(key) has an example")
        let document = try ConfigurationDocument.parse(
            yaml: "\(key): \(example)\n", file: "f.yaml", baseDirectory: "/", now: 0)
        #expect(String(describing: document) != empty, "\(key): \(example) changed nothing")
    }

    static let tableStart =
        "<!-- The settings table is ServeSetting.markdownTable: make settings-table writes it. -->\n"
    static let tableEnd = "\n<!-- End of the settings table. -->"

    /// docs/COMMAND-LINE.md holds the table `markdownTable` renders, as it is, between its
    /// markers (`make settings-table` writes it there: APNS_MOCK_WRITE_SETTINGS_TABLE=1).
    @Test func theCommandLinePagesTableIsTheDeclaration() throws {
        let path = Self.root + "/docs/COMMAND-LINE.md"
        let page = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(page.range(of: Self.tableStart), "docs/COMMAND-LINE.md has no settings table")
        let end = try #require(page.range(of: Self.tableEnd, range: start.upperBound..<page.endIndex))
        let written = String(page[start.upperBound..<end.lowerBound])
        if ProcessInfo.processInfo.environment["APNS_MOCK_WRITE_SETTINGS_TABLE"] == "1" {
            try (page[..<start.upperBound] + ServeSetting.markdownTable + page[end.lowerBound...])
                .write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        #expect(written == ServeSetting.markdownTable, "make settings-table writes the table ServeSetting declares")
    }

    /// `apns-mock.example.yaml` names every key (set, or commented out with its default), and
    /// nothing else at the top level.
    @Test func theExampleFileNamesEveryKey() throws {
        let text = try String(contentsOfFile: Self.root + "/apns-mock.example.yaml", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        for key in ServeSetting.fileKeys {
            #expect(
                lines.contains { $0.hasPrefix("\(key):") || $0.hasPrefix("# \(key):") },
                "apns-mock.example.yaml does not name '\(key)'")
        }
        let named = lines.compactMap { line -> String? in
            let bare = line.hasPrefix("# ") ? String(line.dropFirst(2)) : line
            guard let match = bare.firstMatch(of: #/^([a-z][a-zA-Z]+):(\s|$)/#) else { return nil }
            return String(match.1)
        }
        #expect(
            Set(named).subtracting(ServeSetting.fileKeys).isEmpty, "\(Set(named).subtracting(ServeSetting.fileKeys))")
    }
}

extension ServeSetting: CustomTestStringConvertible {
    public var testDescription: String { "--\(flag)" }
}
