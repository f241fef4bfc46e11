/// Who may call the admin API: anyone who reaches it, or only callers presenting a bearer token.
///
/// The admin API can read every recorded push and reset the server, so it binds loopback by
/// default; an address other computers can reach needs a token (or an explicit opt-out).
public struct AdminAccess: Sendable, Equatable {
    /// The token callers present as `authorization: Bearer TOKEN`; `nil`: no token asked for.
    public let token: String?

    /// The admin calls that never need the token: health (orchestrators probe it without
    /// secrets) and the dashboard's files, which hold no data (the page asks for the token and
    /// sends it on the calls it makes; a browser cannot send a bearer header when it navigates).
    public static let openPaths: Set<String> = Set([AdminOperation.health.path]).union(DashboardRoutes.paths)

    public init(token: String?) {
        self.token = token
    }

    /// Whether a request's `authorization` header value carries the token. Without a token,
    /// every request may pass. The comparison takes the same time wherever the values differ.
    public func admits(authorization: String?) -> Bool {
        guard let token else { return true }
        guard let authorization else { return false }
        // RFC 6750 §2.1 with RFC 7235's case-insensitive scheme name.
        let scheme = "bearer "
        let bytes = Array(authorization.utf8)
        guard bytes.count > scheme.utf8.count,
            String(decoding: bytes.prefix(scheme.utf8.count), as: UTF8.self).lowercased() == scheme
        else { return false }
        return Self.constantTimeEqual(Array(bytes.dropFirst(scheme.utf8.count)), Array(token.utf8))
    }

    /// Compares every byte of the longer value, so the time taken does not say how long a
    /// matching prefix was (nor, beyond the presented length, how long the token is).
    static func constantTimeEqual(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        let length = max(presented.count, expected.count)
        for index in 0..<length {
            let a = index < presented.count ? presented[index] : 0
            let b = index < expected.count ? expected[index] : 0
            difference |= a ^ b
        }
        return difference == 0
    }

    /// Whether `host` names this machine only: `localhost`, an IPv4 address in 127.0.0.0/8, or
    /// `::1`. Any other name or address (including `0.0.0.0` and `::`, every interface) may be
    /// reachable from other computers.
    public static func isLoopback(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" || host == "[::1]" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in UInt8(part) != nil }
    }
}
