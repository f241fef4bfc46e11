import APNSMock
import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock export APNSID`: writes a delivered push as an `.apns` file for the iOS
/// Simulator (`xcrun simctl push booted FILE`), read from a running apns-mock's admin API.
///
/// Exit 0 when the file is written; 1 when the server has no such push or it cannot become a
/// file; 2 for a usage error or an admin API that cannot be reached.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a delivered push as an .apns file for the iOS Simulator.",
        discussion: """
            The file is the payload with "Simulator Target Bundle" set to the push's topic (without \
            its push-type suffix): xcrun simctl push booted FILE, or drop it onto a Simulator window.
            """)

    @Argument(help: ArgumentHelp("The apns-id of the push (the most recent one with it).", valueName: "apns-id"))
    var apnsID: String
    @Option(help: "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).")
    var admin: String?
    @Option(help: "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?
    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Where to write the file (default APNSID.apns; - for standard output).", valueName: "file"))
    var output: String?

    func run() throws {
        let body = AdminOptions.deliveryResource(
            command: "export", apnsID: apnsID, operation: .getDeliverySimulatorFile, admin: admin, token: adminToken)
        let path = output ?? "\(apnsID).apns"
        if path == "-" {
            DescriptorOutput.standardOutput(body + [0x0A])
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: Data(body + [0x0A])) else {
            fail(2, "apns-mock export: cannot write '\(path)'")
        }
        print("wrote \(path): xcrun simctl push booted \(path)")
    }
}
