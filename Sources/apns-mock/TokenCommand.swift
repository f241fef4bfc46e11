import APNSMock
import APNSMockCore
import APNSMockRegistry
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock token`: prints a provider token, fresh or issued at another time (`--iat`,
/// `--age`) to rehearse `ExpiredProviderToken` and tokens from the future.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Print a provider token (ES256 JWT) for curl and scripts.",
        discussion: """
            Fresh by default. --age 65m mints one issued 65 minutes ago (APNs answers 403 \
            ExpiredProviderToken past 60); --iat sets the issue time itself (UNIX seconds or \
            2026-11-27T10:00:00Z), a future one too.
            """)

    @Option(help: ArgumentHelp("The .p8 signing key.", valueName: "file")) var key: String
    @Option(help: "The 10-character key id.") var keyId: String
    @Option(help: "The 10-character team id.") var teamId: String
    @Option(help: ArgumentHelp("Issued this long ago (65m, 2h, 30s; a bare number is seconds).", valueName: "duration"))
    var age: String?
    @Option(help: ArgumentHelp("Issued at this time: UNIX seconds or ISO 8601.", valueName: "time")) var iat: String?

    func validate() throws {
        for (flag, value) in [("--key-id", keyId), ("--team-id", teamId)] {
            guard value.count == 10, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                throw ValidationError(
                    "\(flag) must be 10 letters or digits, as Apple issues them (e.g. ABC123DEFG); got '\(value)' (\(value.count) characters)"
                )
            }
        }
        if age != nil && iat != nil { throw ValidationError("give --age or --iat, not both") }
        if let age, DurationText.seconds(age) == nil {
            throw ValidationError("--age must be a duration such as 65m, 2h or 30s; got '\(age)'")
        }
        if let iat, Self.time(iat) == nil {
            throw ValidationError(
                "--iat must be UNIX seconds or an ISO 8601 time such as 2026-11-27T10:00:00Z; got '\(iat)'")
        }
    }

    /// `text` as a time: UNIX seconds, or ISO 8601 with a zone.
    static func time(_ text: String) -> Date? {
        if let seconds = Int64(text) { return Date(timeIntervalSince1970: Double(seconds)) }
        return try? Date.ISO8601FormatStyle().parse(text)
    }

    func run() throws {
        var issuedAt = Date()
        if let age, let seconds = DurationText.seconds(age) { issuedAt = issuedAt.addingTimeInterval(-seconds) }
        if let iat, let time = Self.time(iat) { issuedAt = time }
        let pem: String
        do {
            pem = try FileProblem.readText(key)
        } catch {
            throw CLIError("--key: cannot read '\(key)': \(error)")
        }
        do {
            print(try ProviderToken.make(privateKeyPEM: pem, keyID: keyId, teamID: teamId, issuedAt: issuedAt))
        } catch {
            throw CLIError(
                "--key: '\(key)' "
                    + PEMProblem.describe(
                        pem, expecting: "an EC P-256 private key (.p8)", labels: PEMProblem.privateKeyLabels))
        }
    }
}
