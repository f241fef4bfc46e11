/// The device tokens subscribed to each broadcast channel: the mock's model of the Live
/// Activities listening to a channel (subscribed on the device, by a push-to-start, or by a
/// test through the admin API).
///
/// Kept apart from `ChannelDirectory` (which the rules read in every snapshot) because a
/// channel may have a million subscribers: a subscription changes one set in place, costs the
/// same whatever the channel's size, and is never copied with a snapshot. Tokens are lower-case
/// hex. A value; `Registry` owns one under its own lock.
public struct ChannelSubscriptions: Sendable {
    private var tokensByChannel: [String: Set<String>] = [:]

    public init() {}

    /// How many tokens are subscribed to channel `id`.
    public func count(of id: String) -> Int { tokensByChannel[id]?.count ?? 0 }

    /// Whether `token` (lower case) is subscribed to channel `id`.
    public func contains(_ token: String, in id: String) -> Bool { tokensByChannel[id]?.contains(token) ?? false }

    /// The tokens subscribed to channel `id` (a copy-on-write value: taking it copies nothing).
    public func tokens(of id: String) -> Set<String> { tokensByChannel[id] ?? [] }

    /// Up to `limit` of channel `id`'s tokens in ascending order, those after `after` only;
    /// `more` says whether tokens follow the last one returned.
    ///
    /// One pass over the channel's tokens keeping the `limit + 1` smallest in a bounded heap:
    /// a page of a million-token channel sorts a page, not the million.
    public func page(of id: String, after: String?, limit: Int) -> (tokens: [String], more: Bool) {
        guard let tokens = tokensByChannel[id] else { return ([], false) }
        let page = SmallestValues.page(of: tokens, after: after, limit: limit)
        return (page.values, page.more)
    }

    /// Subscribes `token` (lower case) to channel `id`; returns whether it was not already.
    @discardableResult
    public mutating func subscribe(_ token: String, to id: String) -> Bool {
        tokensByChannel[id, default: []].insert(token).inserted
    }

    /// Subscribes every token of `tokens` (lower case) to channel `id`; returns how many were
    /// not already.
    @discardableResult
    public mutating func subscribe(_ tokens: some Sequence<String>, to id: String) -> Int {
        var added = 0
        for token in tokens where tokensByChannel[id, default: []].insert(token).inserted { added += 1 }
        return added
    }

    /// Ends `token`'s subscription to channel `id`; returns whether it was subscribed.
    @discardableResult
    public mutating func unsubscribe(_ token: String, from id: String) -> Bool {
        guard let index = tokensByChannel.index(forKey: id) else { return false }
        let removed = tokensByChannel.values[index].remove(token) != nil
        if tokensByChannel.values[index].isEmpty { tokensByChannel.remove(at: index) }
        return removed
    }

    /// Ends every subscription to channel `id` (its channel was deleted, or a broadcast's `end`
    /// event ended the activities); returns the tokens that were subscribed.
    @discardableResult
    public mutating func removeAll(of id: String) -> Set<String> {
        tokensByChannel.removeValue(forKey: id) ?? []
    }

    /// Ends every subscription.
    public mutating func removeAll() {
        tokensByChannel = [:]
    }
}
