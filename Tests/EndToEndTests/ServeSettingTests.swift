import APNSMock
import APNSMockRegistry
import Foundation
import Testing

/// One declaration per `serve` setting (`ServeSetting.all`): the command line, the environment,
/// the configuration reader, the settings table of docs/COMMAND-LINE.md and
/// `apns-mock.example.yaml` agree with it. (That the executable's `serve --help` lists exactly
/// its flags is `CLITests.helpListsEveryDeclaredSetting`.)
@Suite struct ServeSettingTests {
    static let root = E2E.repositoryRoot

    /// Flags and keys are unique, and a key is its flag in camelCase but where it reads better
    /// as a plural or an acronym.
    @Test func flagsAndKeysAreUniqueAndNamedAlike() {
        let flags = ServeSetting.all.map(\.flag)
        let keys = ServeSetting.all.compactMap(\.key)
        #expect(Set(flags).count == flags.count)
        #expect(Set(keys).count == keys.count)
        let named = [
            "behavior": "behaviors", "client-ca": "clientCA", "webpush-port": "webPushPort",
            "advertise-webpush-url": "advertiseWebPushUrl",
        ]
        for setting in ServeSetting.all {
            guard let key = setting.key else { continue }
            #expect(key == named[setting.flag] ?? Self.camel(setting.flag), "--\(setting.flag) is '\(key)' in the file")
        }
    }

    static func camel(_ flag: String) -> String {
        flag.split(separator: "-").enumerated().map {
            $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
        }.joined()
    }

    static func file(_ yaml: String) throws(ConfigurationFileError) -> ConfigurationFile {
        try ConfigurationFile(yaml: yaml, file: "f.yaml", baseDirectory: "/base", now: 0)
    }

    /// The arguments that give `setting` its example (`--port 443 --port 2197`, `--strict-payload`).
    static func arguments(_ setting: ServeSetting) -> [String] {
        if setting.isSwitch { return ["--" + setting.flag] }
        let example = setting.example ?? "x.yaml"
        guard example.hasPrefix("[") else { return ["--" + setting.flag, example] }
        return example.dropFirst().dropLast().split(separator: ",").flatMap {
            ["--" + setting.flag, $0.trimmingCharacters(in: .whitespaces)]
        }
    }

    /// Each declared key is read, and changes the configuration; a flag the file does not hold
    /// is an unknown key there.
    @Test(arguments: ServeSetting.all)
    func theReaderReadsEveryDeclaredKey(_ setting: ServeSetting) throws {
        guard let key = setting.key else {
            #expect(throws: ConfigurationFileError.self) { try Self.file("\(Self.camel(setting.flag)): x") }
            return
        }
        let example = try #require(setting.example, "\(key) has an example")
        let file = try Self.file("\(key): \(example)\n")
        #expect(file.settings.gives(setting))
        #expect(
            String(describing: file.configuration) != String(describing: APNSMockConfiguration()),
            "\(key): \(example) changed nothing")
    }

    /// Each declared flag is read from the command line, and gives the configuration the file's
    /// key gives (paths aside: the file's are relative to its directory).
    @Test(arguments: ServeSetting.all)
    func theCommandLineReadsEveryDeclaredFlag(_ setting: ServeSetting) throws {
        guard case .serve(let layer) = try ServeCommandLine.parse(Self.arguments(setting)) else {
            Issue.record("\(Self.arguments(setting)) is no setting")
            return
        }
        #expect(layer.gives(setting))
        guard let key = setting.key, let example = setting.example, setting.valueName != "dir",
            ![ServeSetting.tlsCert, .tlsKey, .clientCA].contains(setting)
        else { return }
        var fromFlags = APNSMockConfiguration()
        layer.apply(to: &fromFlags)
        #expect(
            String(describing: fromFlags) == String(describing: try Self.file("\(key): \(example)").configuration))
    }

    /// A bad value gets the same words from a flag and from the file: the setting's own, after
    /// its flag or after the file's name and its key.
    @Test(arguments: [
        (ServeSetting.port, "70000", "must be 0–65535; got 70000"),
        (.port, "http", "must be a whole number; got 'http'"),
        (.threads, "0", "must be 1–256; got 0"),
        (.logLevel, "loud", "must be trace, debug, info, notice, warning, error or critical; got 'loud'"),
        (.authStreamLimit, "maybe", "must be true or false; got 'maybe'"),
        (.payloadLimit, "100", "must be 256–5120; got 100"),
        (.environment, "staging", "must be sandbox, production or auto; got 'staging'"),
        (.chain, "apple", "must be apple-like or untrusted-root; got 'apple'"),
        (.idleTimeout, "soon", "must be a duration such as 30s or 5m; got 'soon'"),
        (.handshakeTimeout, "later", "must be a duration such as 10s (0 turns it off); got 'later'"),
        (.locale, "english", "must be a locale such as en, fr or pt-BR; got 'english'"),
        (.throttle, "3", "must be PUSHES/WINDOW such as 3/10s"),
        (.adminToken, "'a b'", "must be non-empty and without spaces"),
        (.maxConnections, "0", "must be 1–1000000; got 0"),
        (.channelLimit, "-1", "must be 0–2147483647; got -1"),
        (.clock, "later", "must be system, manual or manual:<epoch milliseconds>; got 'later'"),
        (
            .environmentKeyReason, "Nope",
            "must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken; got 'Nope'"
        ),
        (.host, "''", "must not be empty"),
    ])
    func aBadValueHasTheSameWordsFromEverySource(_ setting: ServeSetting, _ value: String, _ problem: String) throws {
        let key = try #require(setting.key)
        let text = value.hasPrefix("'") ? String(value.dropFirst().dropLast()) : value
        let flag = #expect(throws: SpecError.self) { try ServeCommandLine.parse(["--" + setting.flag, text]) }
        #expect(flag?.description.hasPrefix("--\(setting.flag) \(problem)") == true, "\(String(describing: flag))")
        let file = #expect(throws: ConfigurationFileError.self) { try Self.file("\(key): \(value)") }
        #expect(file?.description.hasPrefix("f.yaml: \(key) \(problem)") == true, "\(String(describing: file))")
    }

    @Test func theEnvironmentGivesTheAdminTokenWithTheSameChecks() throws {
        let layer = try ServeSettingLayer.environment(["APNS_MOCK_ADMIN_TOKEN": "s3cret", "HOME": "/"])
        #expect(layer.value(of: .adminToken, as: String.self) == "s3cret")
        #expect(!(try ServeSettingLayer.environment(["APNS_MOCK_ADMIN_TOKEN": ""]).gives(.adminToken)))
        let error = #expect(throws: SpecError.self) {
            try ServeSettingLayer.environment(["APNS_MOCK_ADMIN_TOKEN": "a b"])
        }
        #expect(error?.description == "APNS_MOCK_ADMIN_TOKEN must be non-empty and without spaces")
    }

    /// The client libraries start the server in a directory of their own and set
    /// APNS_MOCK_BASE_DIRECTORY to their caller's: a relative path in a flag then names the file
    /// the caller meant (`APNS_MOCK_ARGS="--config apns-mock.example.yaml"` from the project).
    @Test func relativePathsInFlagsResolveAgainstTheBaseDirectory() throws {
        let arguments = [
            "--config", "apns-mock.example.yaml", "--journal", "out/j.jsonl", "--expectations", "e.yaml",
            "/abs/f.yaml", "--tls-cert", "/etc/server.pem",
        ]
        guard case .serve(let layer) = try ServeCommandLine.parse(arguments, baseDirectory: "/work/project") else {
            throw CancellationError()
        }
        #expect(layer.value(of: .config, as: String.self) == "/work/project/apns-mock.example.yaml")
        #expect(layer.value(of: .journal, as: String.self) == "/work/project/out/j.jsonl")
        #expect(layer.value(of: .expectations, as: [String].self) == ["/work/project/e.yaml", "/abs/f.yaml"])
        #expect(layer.value(of: .tlsCert, as: String.self) == "/etc/server.pem")
        guard case .serve(let asGiven) = try ServeCommandLine.parse(arguments) else { throw CancellationError() }
        #expect(asGiven.value(of: .config, as: String.self) == "apns-mock.example.yaml")
        #expect(try ServeSetting.baseDirectory(["APNS_MOCK_BASE_DIRECTORY": "/work/project"]) == "/work/project")
        #expect(try ServeSetting.baseDirectory([:]) == nil)
        let error = #expect(throws: SpecError.self) {
            try ServeSettingLayer.environment(["APNS_MOCK_BASE_DIRECTORY": "project"])
        }
        #expect(error?.description == "APNS_MOCK_BASE_DIRECTORY must be an absolute path; got 'project'")
    }

    /// A flag wins over the environment, which wins over the file, which wins over the default.
    @Test func precedenceIsFlagThenEnvironmentThenFileThenDefault() throws {
        let file = try Self.file("port: 1\nadminPort: 3\nadminToken: file\nbehaviors: [streams-after-rejection]")
        let environment = try ServeSettingLayer.environment(["APNS_MOCK_ADMIN_TOKEN": "environment"])
        func settings(_ arguments: [String]) throws -> ServeSettings {
            guard case .serve(let layer) = try ServeCommandLine.parse(arguments) else { throw CancellationError() }
            return try ServeSettings(commandLine: layer, environment: environment, file: file.settings)
        }
        var configuration = APNSMockConfiguration()
        let plain = try settings([])
        plain.apply(to: &configuration)
        #expect(configuration.port == 1 && configuration.adminPort == 3 && configuration.adminToken == "environment")
        #expect(plain.origin(of: .port) == "f.yaml: port")
        #expect(plain.origin(of: .adminToken) == "APNS_MOCK_ADMIN_TOKEN")
        #expect(plain.origin(of: .host) == "--host")
        configuration = APNSMockConfiguration()
        let flags = try settings(["--port", "2", "--admin-token", "flag", "--behavior", "stream-limit-goaway"])
        flags.apply(to: &configuration)
        #expect(configuration.port == 2 && configuration.adminPort == 3 && configuration.adminToken == "flag")
        #expect(configuration.behaviors.count == 2, "flags add behaviors to the file's")
        #expect(flags.origin(of: .port) == "--port")
    }

    /// A flag's certificate replaces the file's generated chain; settings that cannot go together
    /// in one source are refused there, in its words; a setting's needs may come from any source.
    @Test func settingsThatGoTogether() throws {
        let chainFile = try Self.file("chain: apple-like")
        guard case .serve(let certificate) = try ServeCommandLine.parse(["--tls-cert", "a.pem"]) else { return }
        var configuration = APNSMockConfiguration()
        try ServeSettings(commandLine: certificate, environment: nil, file: chainFile.settings).apply(
            to: &configuration)
        #expect(configuration.serverChain == nil && configuration.tlsCertificatePath == "a.pem")

        let flags = #expect(throws: SpecError.self) {
            try ServeCommandLine.parse(["--chain", "apple-like", "--tls-key", "k.pem"])
        }
        #expect(flags?.description == "--chain is served in place of --tls-cert and --tls-key: give one or the other")
        let file = #expect(throws: ConfigurationFileError.self) { try Self.file("chain: apple-like\ntlsCert: a.pem") }
        #expect(file?.description == "f.yaml: chain is served in place of tlsCert and tlsKey: give one or the other")

        guard case .serve(let chainOut) = try ServeCommandLine.parse(["--chain-out", "/tmp/x"]) else { return }
        let needs = #expect(throws: ServeSettings.Problem.self) {
            try ServeSettings(commandLine: chainOut, environment: nil, file: nil)
        }
        #expect(needs?.description == "--chain-out needs --chain")
        _ = try ServeSettings(commandLine: chainOut, environment: nil, file: chainFile.settings)
        let fileNeeds = #expect(throws: ServeSettings.Problem.self) {
            try ServeSettings(
                commandLine: try ServeSettingLayer(.commandLine, given: []), environment: nil,
                file: try Self.file("chainOut: out").settings)
        }
        #expect(fileNeeds?.description == "f.yaml: chainOut needs chain")
    }

    @Test(arguments: [
        (["--bogus"], "Unknown option '--bogus'"),
        (["--prot", "1"], "Unknown option '--prot' (did you mean '--port'?)"),
        (["--port"], "Missing value for '--port <port>'"),
        (["--host", "--port", "1"], "Missing value for '--host <host>'"),
        (["extra"], "Unexpected argument 'extra'"),
        (["--strict-payload=yes"], "--strict-payload takes no value"),
    ])
    func badArgumentsAreOneLine(_ arguments: [String], _ message: String) {
        let error = #expect(throws: SpecError.self) { try ServeCommandLine.parse(arguments) }
        #expect(error?.description == message)
    }

    @Test func flagsTakeTheirValuesAsArgumentParserDid() throws {
        let arguments = [
            "--port=0", "--port", "443", "--expectations", "a.yaml", "b", "--strict-payload", "--no-strict-payload",
            "--expectations", "c", "--channel-limit", "-1",
        ]
        let error = #expect(throws: SpecError.self) { try ServeCommandLine.parse(arguments) }
        #expect(error?.description == "--channel-limit must be 0–2147483647; got -1", "a negative number is a value")
        guard case .serve(let layer) = try ServeCommandLine.parse(Array(arguments.dropLast(2))) else { return }
        #expect(layer.value(of: .port, as: [Int].self) == [0, 443])
        #expect(layer.value(of: .expectations, as: [String].self) == ["a.yaml", "b", "c"])
        #expect(layer.value(of: .strictPayload, as: Bool.self) == false)
        guard case .help = try ServeCommandLine.parse(["--port", "0", "-h"]) else {
            Issue.record("-h is help")
            return
        }
    }

    /// `serve --help` lists every setting with its help.
    @Test func helpListsEverySetting() {
        let help = ServeCommandLine.help(columns: 400)
        for setting in ServeSetting.all {
            #expect(help.contains("  --\(setting.flag)"))
            #expect(help.contains(setting.help))
        }
        let narrow = ServeCommandLine.help(columns: 80).split(separator: "\n")
        #expect(narrow.allSatisfy { $0.count <= 80 || !$0.contains(" ") || $0.hasPrefix("  --") })
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
