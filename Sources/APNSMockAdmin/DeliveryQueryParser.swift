import APNSMockCore
import APNSMockRegistry
import APNSMockStore

/// Reads `GET /v1/deliveries` query parameters into a filter, a limit and an order.
public struct DeliveryQueryParser {
    /// The default and largest page size.
    public static let defaultLimit = 1000
    public static let maximumLimit = 10_000
    static let known: Set<String> = [
        "token", "topic", "pushType", "status", "apnsId", "since", "before", "limit", "order",
    ]

    /// Parses `parameters` (name, value) pairs.
    /// - Throws: `AdminError.badParameter` naming the parameter.
    public static func parse(_ parameters: [(String, String)]) throws(AdminError) -> (
        DeliveryFilter, Int, DeliveryOrder
    ) {
        var filter = DeliveryFilter()
        var limit = defaultLimit
        var order = DeliveryOrder.asc
        for (name, value) in parameters {
            switch name {
            case "token":
                guard !value.isEmpty else { throw .badParameter("query parameter 'token' is empty") }
                filter.token = value
            case "topic": filter.topic = value
            case "pushType":
                guard let type = APNSPushType(rawValue: value) else {
                    throw .badParameter(
                        "query parameter 'pushType' must be one of \(APNSPushType.allCases.map(\.rawValue).joined(separator: ", ")); got '\(value)'"
                    )
                }
                filter.pushType = type
            case "status":
                guard let status = Int(value), (100...599).contains(status) else {
                    throw .badParameter(
                        "query parameter 'status' must be an HTTP status code such as 200 or 410; got '\(value)'")
                }
                filter.status = status
            case "apnsId":
                guard APNSMessageID.isValid(value) else {
                    throw .badParameter(
                        "query parameter 'apnsId' must be a UUID (8-4-4-4-12 hex digits); got '\(value)'")
                }
                filter.apnsID = value
            case "since":
                guard let since = UInt64(value) else {
                    throw .badParameter("query parameter 'since' must be a sequence number (0 or more); got '\(value)'")
                }
                filter.since = since
            case "before":
                guard let before = UInt64(value) else {
                    throw .badParameter(
                        "query parameter 'before' must be a sequence number (0 or more); got '\(value)'")
                }
                filter.before = before
            case "limit":
                guard let parsed = Int(value), parsed >= 1, parsed <= maximumLimit else {
                    throw .badParameter(
                        "query parameter 'limit' must be a number from 1 to \(maximumLimit); got '\(value)'")
                }
                limit = parsed
            case "order":
                guard let parsed = DeliveryOrder(rawValue: value) else {
                    throw .badParameter("query parameter 'order' must be 'asc' or 'desc'; got '\(value)'")
                }
                order = parsed
            default:
                throw .badParameter(
                    "unknown query parameter '\(name)'; known: \(known.sorted().joined(separator: ", "))")
            }
        }
        return (filter, limit, order)
    }
}
