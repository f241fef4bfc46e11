import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock explain APNSID`: what a running apns-mock did with one request and why, read
/// from its admin API: the request, Apple's answer, and the mock's `detail` (the claim, the
/// header, the size or the fault behind a rejection), which the wire answer never carries.
///
/// A broadcast's deliveries to its channel's devices carry the broadcast's id too, and the most
/// recent record with it is the last device's: for such an id `explain` shows the broadcast and
/// every device it reached instead.
///
/// Exit 0 when the request is found; 1 when the server has none with that id; 2 for a usage
/// error or an admin API that cannot be reached.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what apns-mock answered to one request, and why.",
        discussion: """
            Reads the most recent record with this apns-id (apns-request-id for broadcasts and channel \
            requests) from the admin API: GET /v1/deliveries/APNSID. For a broadcast's id, shows the \
            broadcast and the devices it reached (its records of kind push with viaChannel).
            """)

    @Argument(help: ArgumentHelp("The apns-id of the request (the most recent one with it).", valueName: "apns-id"))
    var apnsID: String
    @Option(help: "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).")
    var admin: String?
    @Option(help: "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?

    func run() throws {
        // The server's words: the record's `explanation` (for a broadcast's id, the broadcast and
        // the devices it reached).
        let record = get(.getDelivery)
        guard let explanation = record["explanation"]?.scalarText else {
            fail(1, "apns-mock explain: the admin API's answer has no explanation (an apns-mock older than this CLI?)")
        }
        print(explanation)
    }

    /// The answer of `operation` for this apns-id as JSON, or the command fails saying why.
    private func get(_ operation: AdminOperation) -> JSONValue {
        let body = AdminOptions.deliveryResource(
            command: "explain", apnsID: apnsID, operation: operation, query: [], admin: admin, token: adminToken)
        guard let json = JSONValue.parse(body) else {
            fail(1, "apns-mock explain: the admin API's answer is not JSON")
        }
        return json
    }
}
