/// What a record is of: today a device push (`push`). Later kinds (a broadcast, a channel
/// operation) are records of the same shape with another kind, matched by `kind`.
public enum RecordKind: String, Sendable, Hashable, CaseIterable {
    /// A push to a device token (`POST /3/device/<token>`), or any request on the APNs port.
    case push

    /// The code in a stored record.
    public var code: UInt8 {
        switch self {
        case .push: 0
        }
    }

    /// The kind of a stored `code` (`push` for an unknown one).
    public init(code: UInt8) {
        switch code {
        default: self = .push
        }
    }
}
