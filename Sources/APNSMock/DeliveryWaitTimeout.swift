import APNSMockCore
import APNSMockStore

/// `MockDeliveries.wait` ran out of time: fewer records matched than it waited for.
public struct DeliveryWaitTimeout: Error, Sendable, CustomStringConvertible {
    /// How many records were awaited.
    public let wanted: Int
    /// The records that did match, oldest first.
    public let found: [DeliveryRecord]
    public let matcher: DeliveryMatcher
    public let timeout: Duration
    /// How many records the mock held at the end.
    public let held: Int

    public var description: String {
        let conditions =
            matcher.isEmpty
            ? "any push"
            : matcher.conditions.map { "\($0.fieldName)=\($0.expectedText)" }.joined(separator: ", ")
        return
            "waited \(timeout) for \(wanted) deliver\(wanted == 1 ? "y" : "ies") matching \(conditions); \(found.count) matched, of \(held) recorded"
    }
}
