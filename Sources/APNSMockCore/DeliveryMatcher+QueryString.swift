extension DeliveryMatcher {
    /// The matcher as a query string of `GET /v1/deliveries` and the dashboard's filter
    /// (`token=ab12…&payload.aps.alert.title=Welcome`), each name and value percent-encoded
    /// (`PercentEncoding.encoded(_:)`), in the conditions' order; empty for an empty
    /// matcher.
    ///
    /// A query string writes each condition as `field=text`, so a condition it cannot say is left
    /// out, and the query then matches more records, never fewer: a payload or preview subset
    /// whose value is an object, an array or `null` (compared whole, not as text), or whose path
    /// has a key that is empty or holds a `.` (read as a step of the path).
    public var queryString: String {
        var parameters: [String] = []
        for condition in conditions {
            switch condition {
            case .payload(let path, let expected), .preview(let path, let expected), .webPush(let path, let expected):
                guard expected.scalarText != nil, expected != .null,
                    path.allSatisfy({
                        guard case .key(let key) = $0 else { return false }
                        return !key.isEmpty && !key.contains(".")
                    })
                else { continue }
            default:
                break
            }
            parameters.append(
                PercentEncoding.encoded(condition.fieldName) + "=" + PercentEncoding.encoded(condition.expectedText))
        }
        return parameters.joined(separator: "&")
    }
}
