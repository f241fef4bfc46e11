import APNSMock
import APNSMockCore
import APNSMockRegistry
import APNSMockTransport
import ArgumentParser
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock serve`: the APNs endpoint and the admin API.
///
/// Its options are `ServeSetting.all`, read by `ServeCommandLine` (ArgumentParser only hands
/// over the arguments): settings come from the built-in defaults, then `--config FILE` (YAML),
/// then the environment (`APNS_MOCK_ADMIN_TOKEN`), then the flags, each source winning over the
/// one before. `serve --help` is `ServeCommandLine.help`.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: ServeCommandLine.abstract, discussion: ServeCommandLine.discussion,
        // serve --help is the declarations' (ServeCommandLine.help), not ArgumentParser's.
        helpNames: [])

    @Argument(
        parsing: .captureForPassthrough,
        help: ArgumentHelp("Settings: every one is listed by 'apns-mock serve --help'.", valueName: "option"))
    var arguments: [String] = []

    /// The environment variable that supplies the admin token when `--admin-token` is not given.
    static let adminTokenVariable = ServeSetting.adminTokenVariable

    func validate() throws {
        _ = try commandLine()
        _ = try environment()
    }

    /// The flags, read; `--help` and `--version` end here.
    func commandLine() throws -> ServeSettingLayer {
        let request: ServeCommandLine.Request
        do throws(SpecError) {
            request = try ServeCommandLine.parse(
                arguments, baseDirectory: try ServeSetting.baseDirectory(ProcessInfo.processInfo.environment))
        } catch {
            throw ValidationError(error.description)
        }
        switch request {
        case .serve(let layer): return layer
        case .help:
            let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
            throw CleanExit.message(String(ServeCommandLine.help(columns: columns).dropLast()))
        case .version: throw CleanExit.message(VersionText.line)
        }
    }

    /// The settings the environment gives.
    func environment() throws -> ServeSettingLayer {
        do throws(SpecError) {
            return try ServeSettingLayer.environment(ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let (settings, file) = try loadSettings()
        let configuration = try makeConfiguration(settings, file: file)
        APNSMockApplication.useThreads(configuration.threads)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        // A failure before the ready line (a port in use, an unusable certificate) is one line
        // on stderr and exit code 1; the ready line is printed only once every port listens.
        let application: APNSMockApplication
        do {
            application = try await APNSMockApplication(configuration: configuration)
        } catch {
            throw cliError(error, settings: settings)
        }
        do {
            try await application.run { endpoints in
                // One unbuffered write: scripts wait for this line.
                DescriptorOutput.standardOutput(endpoints.description + "\n")
            }
        } catch {
            throw cliError(error, settings: settings)
        }
    }

    /// `error` in words; a port that cannot be bound also names the setting that chose it.
    func cliError(_ error: any Error, settings: ServeSettings) -> CLIError {
        guard let error = error as? BindError else { return CLIError("\(error)") }
        let setting: ServeSetting
        switch (error.listener, error.isHostProblem) {
        case (.apns, false): setting = .port
        case (.apns, true), (.channels, true), (.webPush, true): setting = .host
        case (.admin, false): setting = .adminPort
        case (.channels, false): setting = .channelsPort
        case (.webPush, false): setting = .webPushPort
        case (.admin, true): setting = .adminHost
        }
        return CLIError("\(error) (\(settings.origin(of: setting)))")
    }

    /// The flags, the environment and the `--config` file, read and checked together.
    /// - Throws: `CLIError` naming the file and key, or `ValidationError` naming the flag.
    func loadSettings() throws -> (ServeSettings, ConfigurationFile?) {
        let commandLine = try commandLine()
        let environment = try environment()
        var file: ConfigurationFile?
        if let path = commandLine.value(of: .config, as: String.self) {
            do {
                file = try ConfigurationFile(contentsOf: path)
            } catch {
                throw CLIError(error.description)
            }
        }
        do throws(ServeSettings.Problem) {
            let settings = try ServeSettings(commandLine: commandLine, environment: environment, file: file?.settings)
            return (settings, file)
        } catch {
            if case .file = error.source { throw CLIError(error.description) }
            throw ValidationError(error.description)
        }
    }

    /// The defaults, then the `--config` file, the environment and the flags; checks that the
    /// files they name can be read.
    /// - Throws: `CLIError`, one line naming the flag or the file and key.
    func makeConfiguration(_ settings: ServeSettings, file: ConfigurationFile?) throws -> APNSMockConfiguration {
        var configuration = APNSMockConfiguration()
        settings.apply(to: &configuration)
        file?.addSetup(to: &configuration)
        if let expectations = settings.value(of: .expectations, as: [String].self) {
            do {
                for file in try ExpectationFile.load(expectations, now: WallClock.milliseconds()) {
                    configuration.addSetup(
                        keys: file.setup.keys, devices: file.setup.devices, faults: file.setup.faults,
                        channels: file.setup.channels, broadcastDisabled: file.setup.broadcastDisabled)
                }
            } catch {
                throw CLIError("\(settings.origin(of: .expectations)): \(error)")
            }
        }
        if !settings.gives(.clientCA) {
            // On the development certificates, accept the committed sample provider certificates.
            configuration.useDevelopmentClientCA()
        }
        var files = [
            (settings.origin(of: .tlsCert), configuration.tlsCertificatePath),
            (settings.origin(of: .tlsKey), configuration.tlsKeyPath),
        ]
        if let clientCAPath = configuration.clientCAPath {
            files.append((settings.origin(of: .clientCA), clientCAPath))
        }
        if configuration.serverChain != nil
            || (configuration.usesDefaultServerCertificate
                && !FileManager.default.fileExists(atPath: configuration.tlsCertificatePath))
        {
            // A generated chain, or the development credentials (no certs/ here): no files to read.
            files.removeFirst(2)
        }
        for (source, path) in files {
            guard let problem = FileProblem.check(path) else { continue }
            let hint =
                source.hasPrefix("--")
                ? "Run from the repository root (it holds certs/), or pass the file's path."
                : "Paths in the configuration file are relative to its directory."
            throw CLIError("\(source): cannot read '\(path)': \(problem). \(hint)")
        }
        return configuration
    }
}
