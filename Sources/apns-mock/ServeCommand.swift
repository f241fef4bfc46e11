import APNSMock
import APNSMockCore
import ArgumentParser
import Foundation
import Logging

/// `apns-mock serve`: the APNs endpoint and the admin API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the APNs provider API (HTTP/2 over TLS) and the admin API.")

    @Option(help: "Address the APNs listener binds.") var host = "127.0.0.1"
    @Option(help: "APNs port; 0 picks a free port. Repeat to serve several (e.g. --port 443 --port 2197).")
    var port: [Int] = [2197]
    @Option(help: "Address the admin API binds.") var adminHost = "127.0.0.1"
    @Option(help: "Admin API port; 0 picks a free port.") var adminPort = 2198
    @Option(help: "PEM server certificate (chain).") var tlsCert = "certs/server.pem"
    @Option(help: "PEM server private key.") var tlsKey = "certs/server-key.pem"
    @Option(help: "sandbox, production, or auto (from the TLS server name or :authority).")
    var environment = "sandbox"
    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS announced to clients.") var maxConcurrentStreams: UInt32 = 1000
    @Option(help: "SETTINGS_MAX_HEADER_LIST_SIZE announced and enforced.") var maxHeaderListSize: UInt32 = 8000
    @Option(help: "Most requests recorded; the oldest go first.") var recordCapacity = 100_000
    @Flag(help: "Reject payloads that are not a JSON object (400 BadRequestPayload, the mock's own reason).")
    var strictPayload = false
    @Option(help: "trace, debug, info, notice, warning, error or critical (logs go to stderr).")
    var logLevel = "notice"

    func validate() throws {
        guard EnvironmentMode(rawValue: environment) != nil else {
            throw ValidationError("--environment must be sandbox, production or auto; got '\(environment)'")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level must be one of trace, debug, info, notice, warning, error, critical; got '\(logLevel)'")
        }
        for port in port where !(0...65535).contains(port) {
            throw ValidationError("--port must be 0–65535; got \(port)")
        }
        guard (0...65535).contains(adminPort) else {
            throw ValidationError("--admin-port must be 0–65535; got \(adminPort)")
        }
        guard maxConcurrentStreams >= 1 else { throw ValidationError("--max-concurrent-streams must be at least 1") }
        guard recordCapacity >= 1 else { throw ValidationError("--record-capacity must be at least 1") }
    }

    func run() async throws {
        var configuration = APNSMockConfiguration()
        configuration.host = host
        configuration.port = port[0]
        configuration.additionalPorts = Array(port.dropFirst())
        configuration.adminHost = adminHost
        configuration.adminPort = adminPort
        configuration.tlsCertificatePath = tlsCert
        configuration.tlsKeyPath = tlsKey
        configuration.environment = EnvironmentMode(rawValue: environment)!
        configuration.http2.maxConcurrentStreams = maxConcurrentStreams
        configuration.http2.maxHeaderListSize = maxHeaderListSize
        configuration.recordCapacity = recordCapacity
        configuration.strictPayload = strictPayload
        configuration.logLevel = Logger.Level(rawValue: logLevel)!
        for (flag, path) in [("--tls-cert", tlsCert), ("--tls-key", tlsKey)]
        where !FileManager.default.isReadableFile(atPath: path) {
            throw CLIError(
                "\(flag): cannot read '\(path)'. Run from the repository root (it holds certs/), or pass the file's path."
            )
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        let application: APNSMockApplication
        do {
            application = try await APNSMockApplication(configuration: configuration)
        } catch {
            throw CLIError("\(error)")
        }
        do {
            try await application.run { endpoints in
                // One unbuffered write: scripts wait for this line.
                FileHandle.standardOutput.write(Data((endpoints.description + "\n").utf8))
            }
        } catch {
            throw CLIError("\(error)")
        }
    }
}

/// A failure reported as one line on stderr with exit code 1, never a stack trace.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
