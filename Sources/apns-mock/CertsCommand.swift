import APNSMock
import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock certs`: test certificates.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs", abstract: "Make test certificates.", subcommands: [Generate.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Write a development CA and server certificate, or with --client a provider (client) certificate.",
            discussion: """
                Without --client: writes a new development CA (ca.pem, ca-key.pem) and a server certificate \
                signed by it (server.pem, server-key.pem) into --out.

                With --client: issues an APNs provider certificate shaped like Apple's (RSA 2048, subject \
                UID=<topic>, environment extensions, and with --topics the multi-topic extension) from the CA \
                in --ca and --ca-key, and writes <name>.pem (certificate), <name>-key.pem (PKCS#8 private key) \
                and <name>-bundle.pem (certificate then key, for clients such as aioapns or curl --cert that \
                want one file). FOR TESTS ONLY.

                Files that hold a private key (ca-key.pem, server-key.pem, <name>-key.pem, <name>-bundle.pem) \
                are created with mode 0600.

                Examples (single-topic sandbox; multi-topic production):
                  apns-mock certs generate --client --topic com.example.app --out /tmp/c
                  apns-mock certs generate --client --topic com.example.app \\
                    --topics app,voip,complication --environment production --out /tmp/c

                A .p12 for Java (Pushy) and other PKCS#12 clients:
                  openssl pkcs12 -export -in provider.pem -inkey provider-key.pem \\
                    -out provider.p12
                """)

        @Option(help: "Directory to write into (created if missing).") var out: String
        @Flag(help: "Issue a provider (client) certificate instead of a new CA and server certificate.")
        var client = false
        @Option(help: "With --client: the bundle ID (subject UID), e.g. com.example.app.") var topic: String?
        @Option(
            help:
                "With --client: make a multi-topic certificate listing these kinds, comma-separated: app, voip (<topic>.voip), complication (<topic>.complication)."
        )
        var topics: String?
        @Option(help: "With --client: sandbox, production or both (default: sandbox).") var environment: String?
        @Option(help: "With --client: the team ID, the subject OU (default: DEF123GHIJ).") var teamId: String?
        @Option(help: "With --client: the issuing CA certificate (default: certs/ca.pem).") var ca: String?
        @Option(help: "With --client: the issuing CA's private key (default: certs/ca-key.pem).") var caKey: String?
        @Option(help: "With --client: base name of the files written (default: provider).") var name: String?
        @Option(
            help: ArgumentHelp(
                "Write a chain shaped like APNs's instead (TEST ONLY): apple-like (root.pem to trust, intermediate.pem, server.pem, server-key.pem) or untrusted-root (no root.pem); serve it with --tls-cert DIR/server.pem --tls-key DIR/server-key.pem.",
                valueName: "apple-like|untrusted-root"))
        var chain: String?

        func run() throws {
            if let chain {
                try generateChain(chain)
            } else if client {
                try generateClient()
            } else {
                let clientOnly: [(String, String?)] = [
                    ("--topic", topic), ("--topics", topics), ("--environment", environment), ("--team-id", teamId),
                    ("--ca", ca), ("--ca-key", caKey), ("--name", name),
                ]
                if let (flag, _) = clientOnly.first(where: { $0.1 != nil }) {
                    throw CLIError("\(flag) needs --client (it applies to provider certificates only)")
                }
                do {
                    try DevCertificates.write(DevCertificates.generate(), to: out)
                } catch {
                    throw CLIError("cannot write certificates to '\(out)': \(error)")
                }
                print("wrote \(out)/ca.pem, ca-key.pem, server.pem, server-key.pem")
            }
        }

        private func generateChain(_ name: String) throws {
            guard let kind = ServerChainKind(rawValue: name) else {
                throw CLIError("--chain must be \(ServerChainKind.spelled); got '\(name)'")
            }
            guard !client else { throw CLIError("--chain and --client cannot be combined") }
            let files: ServerChain.Files
            do {
                files = try ServerChain.generate(kind).write(to: out)
            } catch {
                throw CLIError("cannot write the chain to '\(out)': \(error)")
            }
            let trust = files.root.map { "; a client must trust \($0)" } ?? "; its root was given to nobody"
            print("wrote the \(kind) chain (TEST ONLY) to \(out): server.pem, server-key.pem, intermediate.pem\(trust)")
        }

        private func generateClient() throws {
            guard let topic, !topic.isEmpty else {
                throw CLIError("--client needs --topic <bundle id>, e.g. --topic com.example.app")
            }
            let environmentName = environment ?? "sandbox"
            guard let environment = ProviderCertificate.Environment(rawValue: environmentName),
                environment != .unspecified
            else {
                throw CLIError("--environment must be sandbox, production or both; got '\(environmentName)'")
            }
            let kinds = topics.map {
                $0.split(separator: ",").map { $0.trimmingWhitespace(newlines: false) }.filter { !$0.isEmpty }
            }
            if let kinds {
                do {
                    _ = try ProviderCertificates.topics(bundleID: topic, kinds: kinds)
                } catch {
                    throw CLIError("--topics: \(error)")
                }
            }
            let name = name ?? "provider"
            guard !name.isEmpty, !name.contains("/") else {
                throw CLIError("--name must be a file name without '/'; got '\(name)'")
            }
            let caPath = ca ?? "certs/ca.pem"
            let caKeyPath = caKey ?? "certs/ca-key.pem"
            func read(_ flag: String, _ path: String) throws -> String {
                do {
                    return try FileProblem.readText(path)
                } catch {
                    throw CLIError(
                        "\(flag): cannot read '\(path)': \(error). Run from the repository root (it holds certs/), or pass the file's path."
                    )
                }
            }
            let caPEM = try read("--ca", caPath)
            let caKeyPEM = try read("--ca-key", caKeyPath)

            let issued: (certificatePEM: String, privateKeyPEM: String)
            do {
                issued = try ProviderCertificates.issue(
                    topic: topic, kinds: kinds, environment: environment, teamID: teamId ?? "DEF123GHIJ",
                    caCertificatePEM: caPEM, caPrivateKeyPEM: caKeyPEM)
            } catch let error as ProviderCertificates.IssueError {
                throw CLIError("\(error)")
            } catch {
                throw CLIError("cannot issue the certificate: \(error)")
            }

            let directory = URL(fileURLWithPath: out)
            // The key and the bundle hold the private key: mode 0600.
            let files = [
                ("\(name).pem", issued.certificatePEM, false),
                ("\(name)-key.pem", issued.privateKeyPEM, true),
                ("\(name)-bundle.pem", issued.certificatePEM + issued.privateKeyPEM, true),
            ]
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (file, text, isPrivate) in files {
                    let url = directory.appendingPathComponent(file)
                    if isPrivate {
                        try PrivateKeyFile.save(text, atPath: url.path)
                    } else {
                        try text.write(to: url, atomically: true, encoding: .utf8)
                    }
                }
            } catch {
                throw CLIError("cannot write certificates to '\(out)': \(error)")
            }
            let listed = (try? kinds.map { try ProviderCertificates.topics(bundleID: topic, kinds: $0) }) ?? nil
            let topicsText = listed.map { "topics " + $0.map(\.topic).joined(separator: ", ") } ?? "topic \(topic)"
            print(
                "wrote \(out)/\(name).pem, \(name)-key.pem, \(name)-bundle.pem (\(topicsText); environment \(environment.rawValue); signed by \(caPath))"
            )
        }
    }
}
