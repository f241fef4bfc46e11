import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock mode set|clear NAME`: the server-wide modes (`/v1/modes/{name}`).
struct ModeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mode",
        abstract: "Switch a server-wide mode on or off: shutdown, unavailable, refuse-tls (docs/FAULTS.md).",
        subcommands: [Set.self, Clear.self, List.self])

    /// The modes `/v1/modes/{name}` takes.
    static let names = ["shutdown", "unavailable", "refuse-tls"]

    static func checked(_ name: String, _ command: String) -> String {
        guard names.contains(name) else {
            fail(
                2,
                "apns-mock mode \(command): no mode '\(name)'\(NameSuggestion.didYouMean(name, among: names)); the modes are \(names.joined(separator: ", "))"
            )
        }
        return name
    }

    /// `apns-mock mode set NAME [--for 30s] [--count N]`.
    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Switch a mode on.")
        @Argument(help: "shutdown, unavailable or refuse-tls.") var name: String
        @Option(
            name: .customLong("for"),
            help: ArgumentHelp("unavailable: only this long (30s, 2m).", valueName: "duration"))
        var duration: String?
        @Option(help: "refuse-tls: only the next N handshakes.") var count: Int?
        @OptionGroup var options: AdminOptions

        func run() throws {
            let mode = ModeCommand.checked(name, "set")
            var query: [(String, String)] = []
            if let duration {
                guard mode == "unavailable" else { fail(2, "apns-mock mode set: --for applies to unavailable only") }
                query.append(("for", duration))
            }
            if let count {
                guard mode == "refuse-tls" else { fail(2, "apns-mock mode set: --count applies to refuse-tls only") }
                query.append(("count", String(count)))
            }
            let operation: AdminOperation =
                switch mode {
                case "shutdown": .startShutdown
                case "unavailable": .startUnavailable
                default: .refuseTLS
                }
            let response = options.call("mode set", operation, query: query, expecting: [200, 201, 204])
            if options.json { AdminOptions.printJSON(response) }
        }
    }

    /// `apns-mock mode clear NAME`.
    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Switch a mode off.")
        @Argument(help: "shutdown, unavailable or refuse-tls.") var name: String
        @OptionGroup var options: AdminOptions

        func run() throws {
            let mode = ModeCommand.checked(name, "clear")
            let operation: AdminOperation =
                switch mode {
                case "shutdown": .stopShutdown
                case "unavailable": .stopUnavailable
                default: .stopRefusingTLS
                }
            let response = options.call("mode clear", operation, expecting: [200, 204])
            if options.json { AdminOptions.printJSON(response) }
        }
    }

    /// `apns-mock mode list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the modes that are on.")
        @OptionGroup var options: AdminOptions

        func run() throws {
            let response = options.call("mode list", .getModes)
            AdminOptions.printJSON(response)
        }
    }
}
