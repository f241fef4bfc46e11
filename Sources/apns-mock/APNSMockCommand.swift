import APNSMock
import ArgumentParser

/// `apns-mock`: the command-line entry point. Thin: parses flags and calls the library.
@main
struct APNSMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-mock",
        abstract: "A mock Apple Push Notification service for integration tests.",
        version: APNSMockVersion.current,
        subcommands: [
            ServeCommand.self, VerifyCommand.self, ReportCommand.self, ExplainCommand.self, ExportCommand.self,
            CertsCommand.self,
            KeysCommand.self,
            TokenCommand.self,
        ],
        defaultSubcommand: ServeCommand.self)
}
