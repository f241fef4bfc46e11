/// Where a channel lives: one app in one environment. Channels are per environment, so a
/// sandbox channel is unknown in production and the reverse (APNS-REFERENCE §6).
public struct ChannelScope: Sendable, Hashable {
    /// The app's bundle ID, as the path names it (`/1/apps/<bundleId>/…`).
    public var bundleID: String
    public var environment: APNSEnvironment

    public init(bundleID: String, environment: APNSEnvironment) {
        self.bundleID = bundleID
        self.environment = environment
    }

    /// Whether `bundleID` can be a bundle ID in a path: ASCII letters, digits, `.` and `-`, at
    /// most 255 bytes (Apple's bundle ID alphabet).
    public static func isValidBundleID(_ bundleID: some StringProtocol) -> Bool {
        let utf8 = bundleID.utf8
        guard !utf8.isEmpty, utf8.count <= 255 else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default: false
            }
        }
    }

    /// The push-type suffix `bundleID` ends with (`.push-type.liveactivity`, `.voip`…), if any:
    /// a topic, not a bundle ID, so the broadcast and channel APIs refuse it (TopicDisallowed).
    public static func pushTypeSuffix(of bundleID: String) -> String? {
        APNSPushType.allCases.lazy.compactMap(\.requiredTopicSuffix).first {
            bundleID.count > $0.count && bundleID.hasSuffix($0)
        }
    }
}
