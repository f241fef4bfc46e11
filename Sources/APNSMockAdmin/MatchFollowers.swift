import APNSMockCore
import APNSMockStore

/// The records each matcher of a set of expectations matches, followed as they arrive and as
/// their answers are decided (`DeliveryFollower`), so that the verifier re-judges its
/// expectations without rescanning the store.
///
/// Used by one verification at a time, one call at a time (from the admin API's threads).
final class MatchFollowers: @unchecked Sendable {
    // Unchecked: one verification calls it, one pass at a time (see above).
    private struct Followed {
        var follower: DeliveryFollower
        /// Sequence numbers of the matching records, ascending.
        var sequences: [UInt64] = []
    }

    private var followed: [DeliveryMatcher: Followed] = [:]

    /// Follows every matcher of `expectations` (and of their steps) from the store's start.
    init(reader: DeliveryReader, expectations: [DeliveryExpectation]) {
        for expectation in expectations {
            for matcher in [expectation.match] + (expectation.steps ?? []).map(\.match)
            where followed[matcher] == nil {
                followed[matcher] = Followed(
                    follower: reader.follower(DeliveryQuery(matcher: matcher, limit: 10_000), after: 0))
            }
        }
    }

    /// Reads what arrived, or was answered, since the last call.
    func advance() {
        for matcher in Array(followed.keys) {
            guard var entry = followed[matcher] else { continue }
            while true {
                let step = entry.follower.advance(limit: 10_000)
                entry.sequences += step.new.map(\.sequence)
                if !step.completed.isEmpty {
                    let known = Set(entry.sequences)
                    let added = step.completed.map(\.sequence).filter { !known.contains($0) }
                    if !added.isEmpty { entry.sequences = (entry.sequences + added).sorted() }
                }
                if step.new.count < 10_000 { break }
            }
            followed[matcher] = entry
        }
    }

    /// The sequence numbers `matcher` matched after `cursor`, oldest first.
    func sequences(_ matcher: DeliveryMatcher, after cursor: UInt64) -> [UInt64] {
        let all = followed[matcher]?.sequences ?? []
        guard cursor > 0 else { return all }
        let start = all.firstIndex { $0 > cursor } ?? all.endIndex
        return Array(all[start...])
    }
}
