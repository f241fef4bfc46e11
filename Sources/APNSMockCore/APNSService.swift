/// Which of Apple's APIs a listener serves.
public enum APNSService: String, Sendable, Hashable, CaseIterable {
    /// The APNs port (`api(.sandbox).push.apple.com:443`): device pushes
    /// (`/3/device/<token>`) and broadcasts (`/4/broadcasts/apps/<bundleId>`).
    case push
    /// Channel management (`api-manage-broadcast(.sandbox).push.apple.com:2195/2196`):
    /// `/1/apps/<bundleId>/channels` and `/1/apps/<bundleId>/all-channels`.
    case channelManagement
    /// Web Push (`web.push.apple.com`, Apple's "Sending web push notifications in web apps and
    /// browsers"): pushes to subscription endpoints (RFC 8030), over HTTP/1.1 or, by ALPN, HTTP/2.
    case webPush
}
