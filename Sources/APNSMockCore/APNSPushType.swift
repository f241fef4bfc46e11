/// The values of the `apns-push-type` header that APNs accepts.
public enum APNSPushType: String, Sendable, Hashable, CaseIterable, Codable {
    case alert, background, location, voip, complication, fileprovider, mdm, liveactivity,
        pushtotalk, widgets, controls

    /// The suffix APNs requires on `apns-topic` for this push type, or `nil` when the topic is
    /// the bare bundle ID (alert, background) or not a bundle ID at all (mdm).
    public var requiredTopicSuffix: String? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .liveactivity: return ".push-type.liveactivity"
        case .location: return ".location-query"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest payload APNs accepts for this push type, in bytes.
    public var payloadLimit: Int { self == .voip ? 5120 : 4096 }

    /// The largest payload limit of any push type.
    public static let largestPayloadLimit = 5120

    /// A stable small number for compact storage.
    public var code: UInt8 { UInt8(Self.allCases.firstIndex(of: self)!) }

    /// The push type with the given storage code.
    public init?(code: UInt8) {
        guard Int(code) < Self.allCases.count else { return nil }
        self = Self.allCases[Int(code)]
    }
}
