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

    /// What is followed for one expectation: its matcher, and its `deliveredWithin`.
    struct Key: Hashable {
        var matcher: DeliveryMatcher
        var deliveredWithin: Int64?

        init(_ expectation: DeliveryExpectation) {
            matcher = expectation.followedMatcher
            deliveredWithin = expectation.deliveredWithin
        }
    }

    private var followed: [Key: Followed] = [:]
    /// The expectation each key stands for (what `counts` judges a record by).
    private var judges: [Key: DeliveryExpectation] = [:]

    /// Follows every matcher of `expectations` (and of their steps) from the store's start.
    init(reader: DeliveryReader, expectations: [DeliveryExpectation]) {
        for expectation in expectations {
            for each in [expectation] + (expectation.steps ?? []) where each.steps == nil {
                let key = Key(each)
                guard followed[key] == nil else { continue }
                judges[key] = each
                followed[key] = Followed(
                    follower: reader.follower(DeliveryQuery(matcher: key.matcher, limit: 10_000), after: 0))
            }
        }
    }

    /// Reads what arrived, or was answered, since the last call.
    func advance() {
        for key in Array(followed.keys) {
            guard var entry = followed[key], let judge = judges[key] else { continue }
            func counted(_ records: [DeliveryRecord]) -> [UInt64] {
                records.filter { judge.counts($0, receivedAt: $0.receivedAt) }.map(\.sequence)
            }
            while true {
                let step = entry.follower.advance(limit: 10_000)
                entry.sequences += counted(step.new)
                if !step.completed.isEmpty {
                    let known = Set(entry.sequences)
                    let added = counted(step.completed).filter { !known.contains($0) }
                    if !added.isEmpty { entry.sequences = (entry.sequences + added).sorted() }
                }
                if step.new.count < 10_000 { break }
            }
            followed[key] = entry
        }
    }

    /// The sequence numbers `expectation` counts after `cursor`, oldest first.
    func sequences(_ expectation: DeliveryExpectation, after cursor: UInt64) -> [UInt64] {
        let all = followed[Key(expectation)]?.sequences ?? []
        guard cursor > 0 else { return all }
        let start = all.firstIndex { $0 > cursor } ?? all.endIndex
        return Array(all[start...])
    }
}
