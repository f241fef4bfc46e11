import APNSMock
import APNSMockRegistry
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
        let pem: String
        do {
            pem = try FileProblem.readText(key)
        } catch {
            throw CLIError("--key: cannot read '\(key)': \(error)")
        }
        do {
            print(try ProviderToken.make(privateKeyPEM: pem, keyID: keyId, teamID: teamId))
        } catch {
            throw CLIError("--key: '\(key)' is not an EC P-256 private key in PEM (.p8) form: \(error)")
        }
    }
}
