import APNSMockAdmin
import APNSMockCore
import ArgumentParser
import Foundation

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
        let record = get("/v1/deliveries/\(apnsID)")
        guard record["kind"]?.scalarText == "broadcast" || record["viaChannel"] == .bool(true) else {
            print(RecordExplanation.text(of: record))
            return
        }
        // The broadcast behind the id: the record itself, or the latest broadcast with the id
        // before this device's delivery; then the deliveries it made, up to the next broadcast
        // with the same id (a client may send one apns-request-id twice).
        let sequence = record["sequence"]?.scalarText.flatMap { Int($0) } ?? 0
        let broadcast: JSONValue
        if record["kind"]?.scalarText == "broadcast" {
            broadcast = record
        } else if let found = page("kind=broadcast&before=\(sequence)&order=desc&limit=1").first {
            broadcast = found
        } else {
            print(RecordExplanation.text(of: record))
            print(
                "broadcast: no longer stored (this device got it via channel \(record["channelId"]?.scalarText ?? "?"))"
            )
            return
        }
        let start = broadcast["sequence"]?.scalarText.flatMap { Int($0) } ?? 0
        let next = page("kind=broadcast&since=\(start)&limit=1").first?["sequence"]?.scalarText
        var devices: [JSONValue] = []
        var cursor = start
        while true {
            let query = "kind=push&since=\(cursor)\(next.map { "&before=\($0)" } ?? "")&limit=\(Self.pageSize)"
            let records = page(query)
            devices += records.filter { $0["viaChannel"] == .bool(true) }
            guard records.count == Self.pageSize,
                let last = records.last?["sequence"]?.scalarText.flatMap({ Int($0) })
            else { break }
            cursor = last
        }
        print(RecordExplanation.text(of: broadcast))
        print(Self.reach(of: broadcast, devices: devices))
    }

    /// Records a page of `explain` reads at most.
    static let pageSize = 1000

    /// `GET path` as JSON, or the command fails saying why.
    private func get(_ path: String) -> JSONValue {
        let body = AdminClient.deliveryResource(
            command: "explain", apnsID: apnsID, path: path, admin: admin, token: adminToken)
        guard let json = JSONValue.parse(body) else {
            fail(1, "apns-mock explain: the admin API's answer is not JSON")
        }
        return json
    }

    /// The records with this apns-id that `query` (more matcher fields and bounds) selects.
    private func page(_ query: String) -> [JSONValue] {
        guard case .array(let records) = get("/v1/deliveries?apnsId=\(apnsID)&\(query)")["deliveries"] ?? .null else {
            return []
        }
        return records
    }

    /// The lines after a broadcast's explanation: the devices it reached, one line each
    /// (sequence number and token), or why it reached none.
    static func reach(of broadcast: JSONValue, devices: [JSONValue]) -> String {
        let channel = broadcast["channelId"].flatMap { $0 == .null ? nil : $0.scalarText } ?? "?"
        guard !devices.isEmpty else {
            let status = broadcast["response"]?["status"]?.scalarText
            return status == "200"
                ? "reached no device: channel \(channel) had no subscriber"
                : "reached no device: a broadcast reaches devices only when it is answered 200"
        }
        var lines = ["reached \(devices.count) device\(devices.count == 1 ? "" : "s") via channel \(channel):"]
        for device in devices {
            let sequence = device["sequence"]?.scalarText ?? "?"
            lines.append("  #\(sequence) \(device["token"]?.scalarText ?? "?")")
        }
        return lines.joined(separator: "\n")
    }

}
