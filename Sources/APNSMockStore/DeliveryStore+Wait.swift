import APNSMockCore

extension DeliveryStore {
    /// Waits until `query` matches at least `count` records stored after `query.since` (and
    /// before `query.before`), woken by new records for the token it names and by answers
    /// decided later (never by polling), or until `timeout` passes or the task is cancelled.
    /// A record that was waiting for its answer is judged again once it has one: a filter on
    /// `status` finds a delayed push when it is answered, and the records returned are in their
    /// latest form.
    /// - Parameter examine: runs each scan of the new records; the admin API hands it to its own
    ///   threads, in-process callers run it where they are.
    /// - Returns: the matching records found (all of them once satisfied, else those found when
    ///   the time ran out) and whether there were `count`.
    public func waitForMatches(
        _ query: DeliveryQuery, count: Int, timeout: Duration, analyses: PayloadAnalyses? = nil,
        examine: (@escaping @Sendable () -> [DeliveryRecord]) async throws -> [DeliveryRecord] = { $0() }
    ) async throws -> (records: [DeliveryRecord], satisfied: Bool) {
        let subscription = notifier.subscribe(token: query.matcher.indexableToken)
        defer { subscription.cancel() }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: clock)
            subscription.poke()
        }
        defer { timer.cancel() }
        let follower = DeliveryFollower(store: self, query: query, after: query.since ?? 0, analyses: analyses)
        var matched: [DeliveryRecord] = []
        var position: [UInt64: Int] = [:]
        var signals = subscription.signals.makeAsyncIterator()
        while true {
            let step = try await examine {
                let step = follower.advance()
                return step.completed + step.new
            }
            for record in step {
                if let index = position[record.sequence] {
                    matched[index] = record
                } else {
                    position[record.sequence] = matched.count
                    matched.append(record)
                }
            }
            if matched.count >= count { return (matched, true) }
            if clock.now >= deadline || Task.isCancelled { return (matched, false) }
            guard await signals.next() != nil else { return (matched, false) }
        }
    }
}
