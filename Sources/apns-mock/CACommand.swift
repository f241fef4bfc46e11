import APNSMock
import APNSMockAdmin
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock ca`: the CA certificate a client trusts to reach apns-mock's APNs ports.
struct CACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ca",
        abstract: "Print the CA certificate (PEM) the server's certificate chains to, for clients to trust.",
        discussion: """
            Without --admin (or $APNS_MOCK_ADMIN_URL): the CA 'apns-mock serve' uses when started here with no certificate \
            given: certs/ca.pem in the repository, else the development CA generated once per user \
            (generated now if missing). With --admin: the running server's, from GET /v1/ca.pem \
            (also across containers). Exit status: 0 printed; 1 the server does not know its CA; \
            2 unreachable server.
            """)

    @Option(
        help: ArgumentHelp(
            "Ask this running server (GET /v1/ca.pem) instead (default: $APNS_MOCK_ADMIN_URL when set).",
            valueName: "url"))
    var admin: String?
    @Option(help: ArgumentHelp("Bearer token for the admin API (default: $APNS_MOCK_ADMIN_TOKEN).", valueName: "token"))
    var adminToken: String?
    @Flag(help: "Print the CA file's path instead of its PEM (without --admin).") var path = false

    func run() throws {
        if let admin = admin
            ?? ProcessInfo.processInfo.environment[AdminOptions.urlVariable].flatMap({ $0.isEmpty ? nil : $0 })
        {
            guard !path else { throw ValidationError("--path reads the local CA; with --admin the PEM is printed") }
            let options = try AdminOptions.parse(
                ["--admin", admin] + (adminToken.map { ["--admin-token", $0] } ?? []))
            let response = options.call("ca", .caCertificate)
            DescriptorOutput.standardOutput(response.body)
            return
        }
        let file: String
        if FileManager.default.fileExists(atPath: APNSMockConfiguration().tlsCertificatePath),
            FileManager.default.fileExists(atPath: APNSMockConfiguration.developmentClientCAPath)
        {
            file = FileManager.default.currentDirectoryPath + "/" + APNSMockConfiguration.developmentClientCAPath
        } else {
            do {
                file = try DevelopmentCredentials.ensure().paths.caCertificate
            } catch {
                throw CLIError("cannot make the development CA in \(DevelopmentCredentials.directory()): \(error)")
            }
        }
        if path { return print(file) }
        guard let pem = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read '\(file)'") }
        DescriptorOutput.standardOutput([UInt8](pem))
    }
}
