import APNSMock
import ArgumentParser
import Foundation

/// `apns-mock token`: prints a fresh provider token.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a fresh provider token (ES256 JWT) for curl and scripts.")

    @Option(help: "The .p8 signing key.") var key: String
    @Option(help: "The 10-character key id.") var keyId: String
    @Option(help: "The 10-character team id.") var teamId: String

    func run() throws {
        guard let pem = try? String(contentsOfFile: key, encoding: .utf8) else {
            throw CLIError("--key: cannot read '\(key)'")
        }
        do {
            print(try ProviderToken.make(privateKeyPEM: pem, keyID: keyId, teamID: teamId))
        } catch {
            throw CLIError("--key: '\(key)' is not an EC P-256 private key in PEM (.p8) form: \(error)")
        }
    }
}
