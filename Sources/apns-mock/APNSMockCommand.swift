import APNSMock
import APNSMockCore
import ArgumentParser

/// `apns-mock`: the command-line entry point. Thin: parses flags and calls the library.
@main
struct APNSMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-mock",
        abstract: "A mock Apple Push Notification service for integration tests.",
        version: VersionText.line,
        subcommands: [
            ServeCommand.self,
            // The admin API from a shell.
            DeliveriesCommand.self, WaitCommand.self, FaultCommand.self, ModeCommand.self, ResetCommand.self,
            DevicesCommand.self,
            HealthcheckCommand.self, VerifyCommand.self, ReportCommand.self, ExplainCommand.self, ExportCommand.self,
            // Credentials.
            CACommand.self, CertsCommand.self, KeysCommand.self, TokenCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)

    /// Runs the command line, but first refuses a first word that is no command: with `serve` the
    /// default, `apns-mock server` would otherwise be read as serve's stray argument.
    static func main() async {
        if let problem = unknownCommand(in: Array(CommandLine.arguments.dropFirst())) {
            fail(2, problem)
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// What to say when `arguments` start with a word that is not a command, or `nil`.
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        return
            "apns-mock: '\(first)' is not a command\(NameSuggestion.didYouMean(first, among: names)); the commands are \(names.dropLast().joined(separator: ", ")) (serve is the default: apns-mock --port 0)"
    }
}
