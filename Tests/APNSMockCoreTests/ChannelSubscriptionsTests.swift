import APNSMockCore
import Foundation
import Testing

/// The devices subscribed to broadcast channels, kept apart from the channels the rules read.
@Suite struct ChannelSubscriptionsTests {
    static let token = String(repeating: "ab", count: 32)
    static let other = "cd" + String(repeating: "ab", count: 31)

    @Test func subscribeCountUnsubscribe() {
        var subscriptions = ChannelSubscriptions()
        let first = subscriptions.subscribe(Self.token, to: "one")
        let again = subscriptions.subscribe(Self.token, to: "one")
        #expect(first && !again, "a second subscription is the same one")
        let added = subscriptions.subscribe([Self.other, Self.token, Self.other], to: "one")
        #expect(added == 1)
        subscriptions.subscribe(Self.token, to: "two")
        #expect(subscriptions.count(of: "one") == 2)
        #expect(subscriptions.contains(Self.other, in: "one") && !subscriptions.contains(Self.other, in: "two"))
        #expect(subscriptions.contains(Self.token, in: "one") && subscriptions.contains(Self.token, in: "two"))

        let removed = subscriptions.unsubscribe(Self.token, from: "one")
        let removedAgain = subscriptions.unsubscribe(Self.token, from: "one")
        let removedFromNone = subscriptions.unsubscribe(Self.token, from: "none")
        #expect(removed && !removedAgain && !removedFromNone)
        #expect(subscriptions.tokens(of: "one") == [Self.other])
        let ended = subscriptions.removeAll(of: "one")
        #expect(ended == [Self.other])
        #expect(subscriptions.count(of: "one") == 0)
        #expect(!subscriptions.contains(Self.token, in: "one") && subscriptions.contains(Self.token, in: "two"))
    }

    /// Pages are ascending, start after `after`, and say whether more follow.
    @Test func pagesOfTokens() {
        var subscriptions = ChannelSubscriptions()
        let tokens = (0..<10).map { String(format: "%02x", 9 - $0) + String(repeating: "00", count: 31) }
        subscriptions.subscribe(tokens, to: "channel")
        let first = subscriptions.page(of: "channel", after: nil, limit: 4)
        #expect(first.tokens == tokens.sorted().prefix(4).map { $0 } && first.more)
        let second = subscriptions.page(of: "channel", after: first.tokens.last, limit: 4)
        #expect(second.tokens == Array(tokens.sorted()[4..<8]) && second.more)
        let last = subscriptions.page(of: "channel", after: second.tokens.last, limit: 4)
        #expect(last.tokens == Array(tokens.sorted()[8...]) && !last.more)
        #expect(subscriptions.page(of: "none", after: nil, limit: 4).tokens.isEmpty)
    }

    /// Taking the tokens copies nothing, and a later change leaves the copy as it was (a
    /// broadcast's fan-out reads the set it took while subscriptions go on).
    @Test func takenTokensAreASnapshot() {
        var subscriptions = ChannelSubscriptions()
        subscriptions.subscribe(Self.token, to: "one")
        let taken = subscriptions.tokens(of: "one")
        subscriptions.subscribe(Self.other, to: "one")
        subscriptions.removeAll()
        #expect(taken == [Self.token])
        #expect(subscriptions.count(of: "one") == 0)
    }
}

extension ChannelSubscriptionsTests {
    /// Paging through a channel in pages of every size gives each token once, in order.
    @Test(arguments: [1, 2, 3, 7, 50, 64, 200])
    func everyPageSizeGivesEveryTokenOnce(limit: Int) {
        var subscriptions = ChannelSubscriptions()
        var random = FastRandom(seed: (1, 2, 3, UInt64(limit)))
        let tokens = Set((0..<150).map { _ in String(random.next() & 0xFFFF_FFFF, radix: 16) + "00" })
        subscriptions.subscribe(tokens, to: "channel")
        var seen: [String] = []
        var after: String?
        for _ in 0..<200 {
            let page = subscriptions.page(of: "channel", after: after, limit: limit)
            #expect(page.tokens.count <= limit)
            seen += page.tokens
            guard page.more else { break }
            after = page.tokens.last
        }
        #expect(seen == tokens.sorted())
    }
}
