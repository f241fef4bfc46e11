import APNSMock
import APNSMockCore
import APNSMockTransport
import Crypto
import Foundation
import Logging
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `apns-mock serve --config FILE`: the YAML file, its errors, and flags over it.
@Suite(.serialized) struct ConfigurationFileTests {
    static let exampleFile = E2E.repositoryRoot + "/apns-mock.example.yaml"

    /// A fresh directory holding `files` (name → text); removed by the caller.
    static func directory(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apns-mock-config-\(UUID().uuidString)")
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }

    /// The fault-injection settings and `setup.faults`, as `serve --config` reads them.
    @Test func faultSettingsAreRead() throws {
        let text = """
            seed: 42
            throttle: 3/10s
            behaviors: [streams-after-rejection, token-update-lockout=30s]
            idleTimeout: 5m
            maxConnections: 7
            setup:
              faults:
                - {id: gone, match: {tokenPrefix: "ab"}, action: {respond: {status: 410, reason: Unregistered}}}
            """
        let directory = try Self.directory(["a.yaml": text])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.appendingPathComponent("a.yaml").path)
            .configuration
        #expect(configuration.seed == 42)
        #expect(configuration.throttle == ThrottleLimit(pushes: 3, windowMilliseconds: 10_000))
        #expect(configuration.behaviors == [.streamsAfterRejection: 60_000, .tokenUpdateLockout: 30_000])
        #expect(configuration.idleTimeout == .seconds(300))
        #expect(configuration.maxConnections == 7)
        #expect(configuration.faults.count == 1)
        #expect(configuration.faults.first?["id"] == .string("gone"))
    }

    /// The payload-analysis settings: localizations (relative to the file), locale, limit, and a
    /// device's locale in `setup.devices`.
    @Test func payloadAnalysisSettingsAreRead() throws {
        let text = """
            localizations: l10n
            locale: fr-CA
            payloadLimit: 2048
            setup:
              devices:
                - {token: abababababababab, locale: de}
            """
        let directory = try Self.directory(["a.yaml": text])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.appendingPathComponent("a.yaml").path)
            .configuration
        #expect(configuration.localizationsPath == directory.appendingPathComponent("l10n").path)
        #expect(configuration.locale == "fr-CA")
        #expect(configuration.payloadLimit == 2048)
        #expect(configuration.devices.first?.locale == "de")
    }

    @Test func adminTokenAndInsecureAreSettings() throws {
        let directory = try Self.directory(["a.yaml": "adminHost: 0.0.0.0\nadminToken: t0ken\nadminInsecure: true\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.appendingPathComponent("a.yaml").path)
            .configuration
        #expect(configuration.adminHost == "0.0.0.0")
        #expect(configuration.adminToken == "t0ken")
        #expect(configuration.adminInsecure)
    }

    @Test func theExampleFileLoadsWithTheDefaultsAndItsSetup() throws {
        let file = try ConfigurationFile(contentsOf: Self.exampleFile)
        let configuration = file.configuration
        let defaults = APNSMockConfiguration()
        #expect(configuration.host == defaults.host)
        #expect(configuration.port == defaults.port && configuration.additionalPorts.isEmpty)
        #expect(configuration.adminHost == defaults.adminHost)
        #expect(configuration.adminPort == defaults.adminPort)
        #expect(configuration.adminToken == nil && configuration.adminInsecure == defaults.adminInsecure)
        // Left to the default, which serves the repository's certificates from its root, and the
        // development credentials anywhere else.
        #expect(configuration.usesDefaultServerCertificate)
        #expect(configuration.environment == defaults.environment)
        #expect(configuration.http2 == defaults.http2)
        #expect(configuration.recordCapacity == defaults.recordCapacity)
        #expect(configuration.strictPayload == defaults.strictPayload)
        #expect(configuration.strictRegistry == defaults.strictRegistry)
        #expect(configuration.authStreamLimit == defaults.authStreamLimit)
        #expect(configuration.environmentKeyReason == defaults.environmentKeyReason)
        #expect(configuration.clientCAPath == nil)
        #expect(configuration.logLevel == defaults.logLevel)
        #expect(configuration.seed == defaults.seed && configuration.behaviors.isEmpty)
        #expect(configuration.throttle == nil && configuration.idleTimeout == nil)
        #expect(configuration.maxConnections == nil && configuration.faults.isEmpty)

        let key = try #require(configuration.keys.first)
        #expect(configuration.keys.count == 1)
        #expect(key.keyID == "ABC123DEFG" && key.teamID == "DEF123GHIJ" && key.environment == .both)
        let privateKey = try P256.Signing.PrivateKey(
            pemRepresentation: String(contentsOfFile: E2E.keyFile, encoding: .utf8))
        #expect(key.publicKeyX963 == Array(privateKey.publicKey.x963Representation))

        #expect(configuration.devices.count == 3)
        let active = try #require(configuration.devices.first { $0.state == .active && $0.topic != nil })
        #expect(active.topic == "com.example.app" && active.environment == .sandbox)
        // The phone offline for its first ten minutes (docs/EMULATION.md, "After the 200").
        let offline = try #require(configuration.devices.first { $0.conditions.needsModel })
        #expect(offline.conditions.presence == .online)
        #expect(offline.conditions.periods.map(\.presence) == [.offline])
        #expect(offline.conditions.periods.map { $0.until - $0.from } == [600_000])
        #expect(configuration.devices.contains { if case .unregistered = $0.state { true } else { false } })
    }

    @Test func everySettingIsRead() throws {
        let directory = try Self.directory([
            "conf/apns-mock.yaml": """
            host: 0.0.0.0
            port: [0, 443]
            adminHost: "::1"
            adminPort: 0
            tlsCert: tls/server.pem
            tlsKey: /etc/server-key.pem
            environment: auto
            maxConcurrentStreams: 10
            maxHeaderListSize: 16000
            recordCapacity: 1_000
            threads: 3
            strictPayload: yes
            strictRegistry: true
            authStreamLimit: off
            environmentKeyReason: BadEnvironmentKeyInToken
            clientCA: ca/client-ca.pem
            logLevel: debug
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.path + "/conf/apns-mock.yaml").configuration
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 0 && configuration.additionalPorts == [443])
        #expect(configuration.adminHost == "::1" && configuration.adminPort == 0)
        #expect(configuration.tlsCertificatePath == directory.path + "/conf/tls/server.pem")
        #expect(configuration.tlsKeyPath == "/etc/server-key.pem")
        #expect(configuration.environment == .auto)
        #expect(configuration.http2.maxConcurrentStreams == 10 && configuration.http2.maxHeaderListSize == 16000)
        #expect(configuration.recordCapacity == 1000)
        #expect(configuration.threads == 3)
        #expect(configuration.strictPayload && configuration.strictRegistry && !configuration.authStreamLimit)
        #expect(configuration.environmentKeyReason == .badEnvironmentKeyInToken)
        #expect(configuration.clientCAPath == directory.path + "/conf/ca/client-ca.pem")
        #expect(configuration.logLevel == .debug)
        #expect(configuration.keys.isEmpty && configuration.devices.isEmpty)
    }

    @Test func aGeneratedChainIsASetting() throws {
        let directory = try Self.directory(["conf/apns-mock.yaml": "chain: untrusted-root\nchainOut: chain\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.path + "/conf/apns-mock.yaml").configuration
        #expect(configuration.serverChain == .untrustedRoot)
        #expect(configuration.serverChainDirectory == directory.path + "/conf/chain")
        #expect(APNSMockConfiguration().serverChain == nil)
    }

    @Test func keyFilesAreRelativeToTheFilesDirectory() throws {
        let p8 = try String(contentsOfFile: E2E.keyFile, encoding: .utf8)
        let publicPEM = try String(
            contentsOfFile: E2E.repositoryRoot + "/certs/AuthKey_ABC123DEFG.pub.pem", encoding: .utf8)
        let directory = try Self.directory([
            "keys/AuthKey_ABC123DEFG.p8": p8,
            "keys/public.pem": publicPEM,
            "apns-mock.yaml": """
            setup:
              keys:
                - {keyId: ABC123DEFG, teamId: DEF123GHIJ, privateKeyFile: keys/AuthKey_ABC123DEFG.p8, environment: sandbox}
                - keyId: XYZ987WVUT
                  teamId: DEF123GHIJ
                  publicKeyFile: ./keys/public.pem
                  topics: [com.example.app]
                  relatedKeyId: ABC123DEFG
                - keyId: INLINE1234
                  teamId: 1234567890
                  publicKey: |

            """ + publicPEM.split(separator: "\n").map { "          " + $0 + "\n" }.joined()
                + """
                  devices:
                    - {token: \(String(repeating: "AB", count: 32)), state: expired, expiredAt: 5}
                """,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        // The test's working directory is not the file's: paths follow the file.
        #expect(FileManager.default.currentDirectoryPath != directory.path)
        let configuration = try ConfigurationFile(contentsOf: directory.path + "/apns-mock.yaml").configuration
        let expected = try P256.Signing.PublicKey(pemRepresentation: publicPEM).x963Representation
        #expect(configuration.keys.map(\.keyID) == ["ABC123DEFG", "XYZ987WVUT", "INLINE1234"])
        #expect(configuration.keys.allSatisfy { $0.publicKeyX963 == Array(expected) })
        #expect(configuration.keys[0].environment == .sandbox)
        #expect(
            configuration.keys[1].topics == ["com.example.app"] && configuration.keys[1].relatedKeyID == "ABC123DEFG")
        #expect(configuration.keys[2].teamID == "1234567890")
        #expect(configuration.devices.first?.token == String(repeating: "ab", count: 32))
        #expect(configuration.devices.first?.state == .expired(at: 5))
    }

    @Test(arguments: [
        (
            "setup:\n  keys:\n    - {keyId: ABC123DEFG, teamId: DEF123GHIJ, publicKeyFile: pub.pem, environment: prod}",
            "setup.keys[0].environment must be sandbox, production or both; got 'prod'"
        ),
        ("prot: 2197", "prot is not a known field (did you mean 'port'?); known fields: host, port"),
        ("recordCapcity: 10", "recordCapcity is not a known field (did you mean 'recordCapacity'?); known fields:"),
        ("RecordCapacity: 10", "RecordCapacity is not a known field (did you mean 'recordCapacity'?)"),
        ("port: 70000", "port must be 0–65535; got 70000"),
        ("chain: apple", "chain must be apple-like or untrusted-root; got 'apple'"),
        ("chain: apple-like\ntlsCert: a.pem", "chain is served in place of tlsCert and tlsKey"),
        ("port: [2197, http]", "port[1] must be a whole number; got 'http'"),
        ("port: []", "port must list at least one port"),
        ("adminPort: -1", "adminPort must be 0–65535; got -1"),
        ("environment: staging", "environment must be sandbox, production or auto; got 'staging'"),
        ("maxConcurrentStreams: 0", "maxConcurrentStreams must be 1–4294967295; got 0"),
        ("recordCapacity: lots", "recordCapacity must be a whole number; got 'lots'"),
        ("threads: 0", "threads must be 1–256; got 0"),
        ("throttle: 3", "throttle must be PUSHES/WINDOW such as 3/10s"),
        ("behaviors: [stream-limit]", "behaviors must be one of"),
        ("idleTimeout: soon", "idleTimeout must be a duration such as 30s or 5m; got 'soon'"),
        ("locale: english", "locale must be a locale such as en, fr or pt-BR; got 'english'"),
        ("payloadLimit: 100", "payloadLimit must be 256–5120; got 100"),
        (
            "setup:\n  faults:\n    - {action: {respond: {status: 99}}}",
            "setup.faults[0] 'action.respond.status' must be"
        ),
        ("strictPayload: maybe", "strictPayload must be true or false; got 'maybe'"),
        ("authStreamLimit: 'on'", "authStreamLimit must be true or false; got a string"),
        (
            "environmentKeyReason: BadEnvironment",
            "environmentKeyReason must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken; got 'BadEnvironment'"
        ),
        ("logLevel: loud", "logLevel must be trace, debug, info, notice, warning, error or critical; got 'loud'"),
        ("host: ''", "host must not be empty"),
        ("tlsCert: [a]", "tlsCert must be a string; got a list"),
        ("setup: [1]", "setup must be an object of named fields; got a list"),
        ("setup: {kees: []}", "setup.kees is not a known field (did you mean 'keys'?); known fields: keys, devices"),
        ("setup: {keys: {keyId: A}}", "setup.keys must be a list; got an object"),
        ("setup: {keys: [{keyId: K1, teamId: T1}]}", "setup.keys[0] must have exactly one of publicKey, privateKey"),
        (
            "setup: {keys: [{keyId: K1, teamId: T1, privateKeyFile: missing.p8}]}",
            "setup.keys[0].privateKeyFile names a file that cannot be read: '"
        ),
        (
            "setup: {keys: [{keyId: K1, teamId: T1, publicKeyFile: pub.pem}, {keyId: K1, teamId: T2, publicKeyFile: pub.pem}]}",
            "setup.keys[1].keyId 'K1' is already given by setup.keys[0]"
        ),
        ("setup: {keys: [{teamId: T1, publicKeyFile: pub.pem}]}", "setup.keys[0].keyId is required"),
        ("setup: {devices: [{token: zz}]}", "setup.devices[0].token must be an even number of hex digits"),
        (
            "setup: {devices: [{token: abababababababab, state: gone}]}",
            "setup.devices[0].state must be active, unregistered or expired; got 'gone'"
        ),
        ("host: a\nhost: b", "is not valid YAML: line 1, column 1: 'host' is given twice"),
        ("setup: {keys: [], keys: []}", "'keys' is given twice"),
        ("host: [", "is not valid YAML: line"),
        ("- host\n- port", "must be a YAML mapping of settings"),
    ])
    func errorsAreOneLineNamingTheFileAndKeyPath(_ yaml: String, _ message: String) throws {
        let publicPEM = try String(
            contentsOfFile: E2E.repositoryRoot + "/certs/AuthKey_ABC123DEFG.pub.pem", encoding: .utf8)
        let directory = try Self.directory(["apns-mock.yaml": yaml, "pub.pem": publicPEM])
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path + "/apns-mock.yaml"
        do {
            _ = try ConfigurationFile(contentsOf: path)
            Issue.record("accepted: \(yaml)")
        } catch {
            let description = error.description
            #expect(description.hasPrefix(path + ": "), "\(description)")
            #expect(description.contains(message), "\(description)")
            #expect(!description.contains("\n"), "\(description)")
        }
    }

    @Test func anchorsAndAliasesAreResolved() throws {
        let directory = try Self.directory(["a.yaml": "host: &loopback 127.0.0.2\nadminHost: *loopback\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.path + "/a.yaml").configuration
        #expect(configuration.host == "127.0.0.2" && configuration.adminHost == "127.0.0.2")
    }

    @Test func aMissingFileIsNamed() {
        do {
            _ = try ConfigurationFile(contentsOf: "/nonexistent/apns-mock.yaml")
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.description == "/nonexistent/apns-mock.yaml: no such file or directory")
        }
    }

    @Test func anEmptyFileSetsNothing() throws {
        let directory = try Self.directory(["empty.yaml": "# nothing here\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try ConfigurationFile(contentsOf: directory.path + "/empty.yaml").configuration
        #expect(configuration.port == APNSMockConfiguration().port)
        #expect(configuration.tlsCertificatePath == APNSMockConfiguration().tlsCertificatePath)
    }

    // MARK: the executable

    /// Starts `apns-mock serve` with `arguments` in `directory`; returns the ready line (or
    /// nil when it exits first) and the process, still running.
    static func serve(
        _ arguments: [String], in directory: String, executable: String = CLITests.executable
    ) async throws -> (String?, Process) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        // Outside the repository the development credentials are generated: into a test state directory.
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["XDG_STATE_HOME": E2E.testStateDirectory]) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = await E2E.firstLine(of: out)
        return (line.isEmpty ? nil : line, process)
    }

    /// Finding of issue 29: served from the repository root as the README says, the example file
    /// asks for the committed provider certificates, and the README's certificate push gets 200
    /// (the file used to name certs/server.pem itself, which turned the development client CA off).
    @Test func theExampleFileTakesTheCommittedProviderCertificate() async throws {
        let (ready, process) = try await Self.serve(
            ["--config", Self.exampleFile, "--port", "0", "--admin-port", "0"], in: E2E.repositoryRoot)
        let line = try #require(ready, "no ready line")
        let port = try #require(line.firstMatch(of: #/apns=https://127\.0\.0\.1:(\d+)/#)?.1)
        let certs = E2E.repositoryRoot + "/certs/"
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", certs + "ca.pem", "--cert", certs + "provider-sandbox.pem", "--key",
                certs + "provider-sandbox-key.pem", "-H", "apns-topic: com.example.app", "-d",
                #"{"aps":{"alert":"hi"}}"#,
                "-w", "%{http_code}", "https://127.0.0.1:\(port)/3/device/" + String(repeating: "ab", count: 32),
            ])
        #expect(output.stdout == "200", "\(output.stdout) \(output.stderr)")
        try await Self.stop(process)
    }

    /// Sends SIGTERM and expects the exit, with status 0, within 15 s (else SIGKILL).
    static func stop(_ process: Process) async throws {
        kill(process.processIdentifier, SIGTERM)
        let ending = await E2E.ending(of: process, within: 15)
        #expect(ending == E2E.Ending(reason: .exit, status: 0), "after SIGTERM")
        if ending == nil { kill(process.processIdentifier, SIGKILL) }
    }

    @Test func serveTheExampleFileFromAnotherDirectoryWithFlagsOverIt() async throws {
        // The file says port 2197 and admin port 2198; the flags pick free ports instead.
        let (ready, process) = try await Self.serve(
            ["--config", Self.exampleFile, "--port", "0", "--admin-port", "0"], in: NSTemporaryDirectory())
        let line = try #require(ready, "no ready line")
        let pattern =
            #/^apns-mock ready apns=https://127\.0\.0\.1:(\d+) admin=http://127\.0\.0\.1:(\d+) channels=https://127\.0\.0\.1:\d+ webpush=https://127\.0\.0\.1:\d+\n$/#
        let match = try #require(line.wholeMatch(of: pattern), "ready line: \(line)")
        #expect(match.1 != "2197" && match.2 != "2198")
        let keys = try await E2E.run("curl", ["-sS", "http://127.0.0.1:\(match.2)/v1/keys"])
        #expect(keys.stdout.contains(#""keyId":"ABC123DEFG""#), "\(keys.stdout)")
        let devices = try await E2E.run("curl", ["-sS", "http://127.0.0.1:\(match.2)/v1/devices"])
        #expect(devices.stdout.contains(#""state":"unregistered""#), "\(devices.stdout)")
        try await Self.stop(process)
    }

    @Test func aFlagOverridesABadPathInTheFile() async throws {
        let directory = try Self.directory([
            "apns-mock.yaml": """
            port: 0
            adminPort: 0
            adminHost: localhost
            tlsCert: missing/server.pem
            tlsKey: \(E2E.repositoryRoot)/certs/server-key.pem
            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.path + "/apns-mock.yaml"
        let failed = try await E2E.run(CLITests.executable, ["serve", "--config", file])
        #expect(failed.status != 0)
        #expect(
            failed.stderr.contains("\(file): tlsCert: cannot read '\(directory.path)/missing/server.pem'"),
            "\(failed.stderr)")
        let (ready, process) = try await Self.serve(
            ["--config", file, "--tls-cert", E2E.repositoryRoot + "/certs/server.pem", "--admin-host", "127.0.0.1"],
            in: directory.path)
        defer { kill(process.processIdentifier, SIGTERM) }
        let line = try #require(ready, "no ready line")
        #expect(line.contains("admin=http://127.0.0.1:"), "\(line)")
        try await Self.stop(process)
    }

    @Test func aBadFileIsOneLineOnStderr() async throws {
        let directory = try Self.directory(["apns-mock.yaml": "setup:\n  keys:\n    - {keyId: K1, teamId: T1}\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(
            CLITests.executable, ["serve", "--config", directory.path + "/apns-mock.yaml"])
        #expect(output.status != 0)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(output.stderr.contains("apns-mock.yaml: setup.keys[0] must have exactly one of"), "\(output.stderr)")
    }
}
