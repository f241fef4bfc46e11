import APNSMockAdmin
import APNSMockCore
import APNSMockStore
import HummingbirdCore

extension FuzzTarget {
    /// An admin query string (`GET /v1/deliveries?…`), split into parameters by Hummingbird as
    /// the router does, parsed by `DeliveryQueryParser` with every endpoint parameter allowed,
    /// and run against a store holding a few pushes (`FuzzDeliveries`).
    static let adminQuery = FuzzTarget(
        name: "admin-query",
        summary: "a query string -> Hummingbird's URI, DeliveryQueryParser, a query of a store",
        maximumLength: 2048
    ) { bytes in
        let uri = URI("/v1/deliveries?" + FuzzInput.text(bytes))
        let parameters = uri.queryParameters.map { (String($0.key), String($0.value)) }
        let parsed: DeliveryQueryParser.Parsed
        do throws(AdminError) {
            parsed = try DeliveryQueryParser.parse(
                parameters, allowing: ["since", "before", "limit", "order", "count", "timeout", "wait"])
        } catch {
            _ = error
            return
        }
        var query = parsed.query
        query.limit = min(query.limit, 16)
        _ = FuzzDeliveries.reader.query(query)
    }

    /// A matcher as JSON (the `match` of a fault rule or an expectation), run against the
    /// stored pushes, condition by condition as `verify` explains a miss.
    static let matcher = FuzzTarget(
        name: "matcher",
        summary: "a JSON matcher -> DeliveryMatcher(json:), evaluated against stored records",
        maximumLength: 2048
    ) { bytes in
        guard let json = JSONValue.parse(bytes) else { return }
        let matcher: DeliveryMatcher
        do throws(MatcherError) {
            matcher = try DeliveryMatcher(json: json)
        } catch {
            _ = error.message(naming: "field")
            return
        }
        let page = FuzzDeliveries.reader.query(DeliveryQuery(matcher: matcher, limit: 16))
        for delivery in page.deliveries {
            _ = matcher.evaluate(delivery)
        }
    }
}
