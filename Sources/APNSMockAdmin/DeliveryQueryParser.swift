import APNSMockCore
import APNSMockStore

/// Reads admin query strings: matcher fields (`token`, `payload.aps.badge`, …) plus the
/// parameters each endpoint allows (`since`, `before`, `limit`, `order`, `count`, …).
public struct DeliveryQueryParser {
    /// The default and largest page size.
    public static let defaultLimit = 1000
    public static let maximumLimit = 10_000

    /// What a query string said: the query (matcher and bounds), and the endpoint's own
    /// parameters by name.
    public struct Parsed: Sendable {
        public var query: DeliveryQuery
        public var extra: [String: String]
    }

    /// The query parameters `operation` declares in the admin API's document that are neither
    /// matcher fields nor the free-form `headers.`/`payload.`/`preview.` conditions: the
    /// endpoint's own (`since`, `limit`, `count`, `behind`, …).
    static func ownParameters(of operation: AdminOperation) -> Set<String> {
        Set(
            operation.parameters.filter { parameter in
                parameter.location == .query && !parameter.isFreeForm && !DeliveryMatcher.isQueryField(parameter.name)
            }.map(\.name))
    }

    /// The parameters of `GET /v1/deliveries` besides matcher fields (`since`, `before`,
    /// `limit`, `order`), as the document declares them.
    static let listParameters = ownParameters(of: .listDeliveries)

    /// Parses `GET /v1/deliveries` parameters.
    /// - Throws: `AdminError.badParameter` naming the parameter.
    public static func parse(_ parameters: [(String, String)]) throws(AdminError) -> DeliveryQuery {
        try parse(parameters, allowing: listParameters).query
    }

    /// Parses matcher fields plus the parameters in `allowed` (`since`, `before`, `limit` and
    /// `order` fill the query; others are returned in `extra`).
    /// - Throws: `AdminError.badParameter` naming the parameter (unknown ones too).
    public static func parse(_ parameters: [(String, String)], allowing allowed: Set<String>) throws(AdminError)
        -> Parsed
    {
        var query = DeliveryQuery(limit: defaultLimit)
        var extra: [String: String] = [:]
        for (name, value) in parameters {
            if DeliveryMatcher.isQueryField(name) {
                do {
                    try query.matcher.add(queryParameter: name, value: value)
                } catch {
                    throw .badParameter(error.message(naming: "query parameter"))
                }
                continue
            }
            guard allowed.contains(name) else {
                let known =
                    (DeliveryMatcher.fieldNames + ["headers.<name>", "payload.<path>", "preview.<field>"]
                        + allowed.sorted())
                let suggestion = NameSuggestion.didYouMean(name, among: DeliveryMatcher.fieldNames + allowed.sorted())
                throw .badParameter(
                    "unknown query parameter '\(name)'\(suggestion); known: \(known.joined(separator: ", "))")
            }
            switch name {
            case "since", "before":
                guard let sequence = UInt64(value) else {
                    throw .badParameter(
                        "query parameter '\(name)' must be a sequence number (0 or more); got '\(value)'")
                }
                if name == "since" { query.since = sequence } else { query.before = sequence }
            case "limit":
                guard let parsed = Int(value), parsed >= 1, parsed <= maximumLimit else {
                    throw .badParameter(
                        "query parameter 'limit' must be a number from 1 to \(maximumLimit); got '\(value)'")
                }
                query.limit = parsed
            case "order":
                guard let parsed = DeliveryOrder(rawValue: value) else {
                    throw .badParameter("query parameter 'order' must be 'asc' or 'desc'; got '\(value)'")
                }
                query.order = parsed
            default:
                extra[name] = value
            }
        }
        return Parsed(query: query, extra: extra)
    }
}
