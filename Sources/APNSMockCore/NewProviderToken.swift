/// A provider token parsed for the first time, for the server's token cache.
public struct NewProviderToken: Sendable, Hashable {
    public var token: String
    public var details: CachedProviderToken
}
