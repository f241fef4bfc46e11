import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock reset`: `POST /v1/reset`.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Delete every record and put keys, devices, channels and fault rules back to the start-up setup.")

    @Flag(help: "Also close every live APNs connection.") var closeConnections = false
    @OptionGroup var options: AdminOptions

    func run() throws {
        let response = options.call("reset", .reset, query: closeConnections ? [("closeConnections", "true")] : [])
        if options.json { AdminOptions.printJSON(response) }
    }
}
