/// Matchers written in Swift: `[.token(deviceToken), .status(200), .payload("aps.alert.title", "Hi")]`.
extension DeliveryMatcher: ExpressibleByArrayLiteral {
    /// A matcher holding every condition listed (all must hold).
    public init(arrayLiteral conditions: Condition...) {
        self.init(conditions)
    }
}

extension DeliveryMatcher.Condition {
    /// The payload's value at the dot-separated object keys of `path` (`aps.alert.title`)
    /// matches `expected`: equal for scalars, a subset for objects (every key given, any others
    /// allowed), element by element for arrays (same length).
    public static func payload(_ path: String, _ expected: JSONValue) -> Self {
        .payload(path: path.split(separator: ".").map { .key(String($0)) }, expected: expected)
    }

}
