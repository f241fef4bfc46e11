import APNSMockCore

/// Ascending (oldest first) or descending.
public enum DeliveryOrder: String, Sendable {
    case asc, desc
}
