import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock deliveries [FIELD=VALUE…]`: the records that match, from `GET /v1/deliveries`.
struct DeliveriesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "List the recorded requests that match (GET /v1/deliveries).",
        discussion: """
            Filters are the query's fields: status=410, token=…, tokenPrefix=…, topic=…, pushType=…, \
            reason=…, apnsId=…, kind=broadcast, channelId=…, outcome=…, faultId=…, delivery=stored, \
            deliveryReason=expired, \
            payload.aps.alert.title=Hi (docs/ADMIN-API.md lists them); paging: limit=N, order=desc. \
            Exit status: 0 listed (maybe none); 2 bad filter or unreachable server.
            """)

    @Argument(help: ArgumentHelp("Filters, FIELD=VALUE.", valueName: "field=value")) var filters: [String] = []
    @OptionGroup var options: AdminOptions

    func run() throws {
        let response = options.call("deliveries", .listDeliveries, query: AdminOptions.query("deliveries", filters))
        if options.json { return AdminOptions.printJSON(response) }
        let answer = JSONValue.parse(response.body)
        let lines = Self.summaries(answer)
        print(lines.isEmpty ? "no deliveries match" : lines.joined(separator: "\n"))
        if case .number(_, text: let next)? = answer?["next"] { print("more: add since=\(next)") }
    }

    /// The served one-line `summary` of each record of a list (`{"deliveries": [...]}`).
    static func summaries(_ answer: JSONValue?) -> [String] {
        guard case .array(let records)? = answer?["deliveries"] else { return [] }
        return records.map { $0["summary"]?.scalarText ?? "#\($0["sequence"]?.scalarText ?? "?")" }
    }
}
