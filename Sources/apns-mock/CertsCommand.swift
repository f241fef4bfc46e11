import APNSMock
import ArgumentParser

/// `apns-mock certs`: test certificates.
struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs", abstract: "Make test certificates.", subcommands: [Generate.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Write a development CA (ca.pem, ca-key.pem) and a server certificate signed by it (server.pem, server-key.pem)."
        )

        @Option(help: "Directory to write into (created if missing).") var out: String

        func run() throws {
            do {
                try DevCertificates.write(DevCertificates.generate(), to: out)
            } catch {
                throw CLIError("cannot write certificates to '\(out)': \(error)")
            }
            print("wrote \(out)/ca.pem, ca-key.pem, server.pem, server-key.pem")
        }
    }
}
