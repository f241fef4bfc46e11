/// What a record is of: a device push, a broadcast, or a channel-management request. Records of
/// every kind have the same shape and are matched by `kind`.
public enum RecordKind: String, Sendable, Hashable, CaseIterable {
    /// A push to a device token (`POST /3/device/<token>`), or any other request on the APNs
    /// port that is not a broadcast.
    case push
    /// A broadcast push to a channel (`POST /4/broadcasts/apps/<bundleId>`).
    case broadcast
    /// A channel-management request (`/1/apps/<bundleId>/channels`, `…/all-channels`).
    case channel
    /// A web push to a subscription's endpoint (`POST <endpoint path>` on the Web Push listener).
    case webPush

    /// The code in a stored record.
    public var code: UInt8 {
        switch self {
        case .push: 0
        case .broadcast: 1
        case .channel: 2
        case .webPush: 3
        }
    }

    /// The kind of a stored `code` (`push` for an unknown one).
    public init(code: UInt8) {
        switch code {
        case 1: self = .broadcast
        case 2: self = .channel
        case 3: self = .webPush
        default: self = .push
        }
    }
}
