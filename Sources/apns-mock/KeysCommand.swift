import APNSMock
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock keys`: token-signing keys.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Make provider token signing keys.", subcommands: [Generate.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Write AuthKey_<KEYID>.p8 (private, mode 0600) and AuthKey_<KEYID>.pub.pem (public).")

        @Option(help: "The 10-character key id.") var keyId: String
        @Option(help: "The 10-character team id (printed for reference).") var teamId: String
        @Option(help: "Directory to write into (created if missing).") var out: String

        func run() throws {
            let key = ProviderToken.generateKey()
            let base = URL(fileURLWithPath: out)
            do {
                try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
                try PrivateKeyFile.save(
                    key.privateKeyPEM, atPath: base.appendingPathComponent("AuthKey_\(keyId).p8").path)
                try key.publicKeyPEM.write(
                    to: base.appendingPathComponent("AuthKey_\(keyId).pub.pem"), atomically: true, encoding: .utf8)
            } catch {
                throw CLIError("cannot write keys to '\(out)': \(error)")
            }
            print("wrote \(out)/AuthKey_\(keyId).p8 and AuthKey_\(keyId).pub.pem (key id \(keyId), team id \(teamId))")
        }
    }
}
