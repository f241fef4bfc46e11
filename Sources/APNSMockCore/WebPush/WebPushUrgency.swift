/// The `Urgency` of a push (RFC 8030 §5.3): how soon the user agent wants it, which a push
/// service may use to save battery. Absent, a push is `normal`.
public enum WebPushUrgency: String, Sendable, Hashable, CaseIterable {
    /// Only when the device is on power and Wi-Fi.
    case veryLow = "very-low"
    /// On power or Wi-Fi.
    case low
    /// On neither power nor Wi-Fi (the default).
    case normal
    /// Even on low battery.
    case high
}
