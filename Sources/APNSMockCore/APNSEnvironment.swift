/// The APNs environment a push is delivered in.
public enum APNSEnvironment: String, Sendable, Hashable, CaseIterable, Codable {
    /// `api.sandbox.push.apple.com` (and the older `api.development.push.apple.com`).
    case sandbox
    /// `api.push.apple.com`.
    case production

    /// The environment Apple serves at `host`, or `nil` when `host` is not one of Apple's
    /// APNs hosts. A trailing `:port` and letter case are ignored.
    public static func forAppleHost(_ host: some StringProtocol) -> APNSEnvironment? {
        var name = Substring(host)
        if let colon = name.lastIndex(of: ":"), !name.contains("]"), name.firstIndex(of: ":") == colon {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        switch name.lowercased() {
        case "api.push.apple.com", "api-broadcast.push.apple.com", "api-manage-broadcast.push.apple.com":
            return .production
        case "api.sandbox.push.apple.com", "api.development.push.apple.com", "api-broadcast.sandbox.push.apple.com",
            "api-manage-broadcast.sandbox.push.apple.com":
            return .sandbox
        default: return nil
        }
    }
}
