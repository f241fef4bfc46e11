import APNSMockCore
import ArgumentParser
import Foundation

/// `apns-mock explain APNSID`: what a running apns-mock did with one request and why, read
/// from its admin API: the request, Apple's answer, and the mock's `detail` (the claim, the
/// header, the size or the fault behind a rejection), which the wire answer never carries.
///
/// Exit 0 when the request is found; 1 when the server has none with that id; 2 for a usage
/// error or an admin API that cannot be reached.
struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say what apns-mock answered to one request, and why.",
        discussion: """
            Reads the most recent record with this apns-id (apns-request-id for broadcasts and channel \
            requests) from the admin API: GET /v1/deliveries/APNSID.
            """)

    @Argument(help: ArgumentHelp("The apns-id of the request (the most recent one with it).", valueName: "apns-id"))
    var apnsID: String
    @Option(help: "The admin API's URL.") var admin = AdminOptions.defaultURL
    @Option(help: "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?

    func run() throws {
        let body = AdminClient.deliveryResource(
            command: "explain", apnsID: apnsID, path: "/v1/deliveries/\(apnsID)", admin: admin, token: adminToken)
        guard let record = JSONValue.parse(body) else {
            fail(1, "apns-mock explain: the admin API's answer is not JSON")
        }
        print(Self.explanation(of: record))
    }

    /// The lines `explain` prints for a record's JSON (`GET /v1/deliveries/{apnsId}`).
    static func explanation(of record: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String? {
            guard let value, value != .null else { return nil }
            return value.scalarText
        }
        var lines: [String] = []
        let kind = text(record["kind"]) ?? "push"
        let received = text(record["receivedAt"]).flatMap(Int64.init).map {
            ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double($0) / 1000))
        }
        lines.append(
            "\(text(record["apnsId"]) ?? "?"): \(kind) #\(text(record["sequence"]) ?? "?")"
                + (received.map { " received \($0)" } ?? "") + " on connection \(text(record["connectionId"]) ?? "?")")
        var request = "request: \(text(record["method"]) ?? "?") \(text(record["path"]) ?? "?")"
        if let topic = text(record["topic"]) { request += ", topic \(topic)" }
        if let pushType = text(record["pushType"]) { request += ", push type \(pushType)" }
        if let channel = text(record["channelId"]) { request += ", channel \(channel)" }
        lines.append(request)
        let response = record["response"]
        let answer: String
        if let status = text(response?["status"]) {
            answer = status + (text(response?["reason"]).map { " \($0)" } ?? "")
        } else if response?["goAway"] == .bool(true) {
            answer = "no status: GOAWAY" + (text(response?["reason"]).map { " \($0)" } ?? "")
        } else {
            answer = "none (\(text(record["outcome"]) ?? "pending"))"
        }
        lines.append("answer: \(answer)")
        lines.append("why: \(text(record["detail"]) ?? "nothing to explain: the request was accepted as sent")")
        if let fault = text(record["faultId"]) { lines.append("fault rule: \(fault)") }
        return lines.joined(separator: "\n")
    }
}
