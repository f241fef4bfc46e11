import APNSMockCore
import APNSMockStore

/// Checks expectations against the store (`POST /v1/verify`), waiting up to each one's
/// `within` for it to hold (woken by new records), and explains each failure with the closest
/// records: "near misses", ranked by how many matcher conditions they satisfy.
public struct ExpectationVerifier: Sendable {
    let reader: DeliveryReader
    var store: DeliveryStore { reader.store }
    let executor: AdminExecutor

    /// A verifier over `reader`'s records that evaluates on `executor`'s threads.
    public init(reader: DeliveryReader, executor: AdminExecutor) {
        self.reader = reader
        self.executor = executor
    }

    /// Checks `expectations` as `POST /v1/verify` does and returns its JSON answer.
    public func answer(_ expectations: [DeliveryExpectation]) async throws -> [UInt8] {
        Self.json(try await verify(expectations))
    }
    /// The most near misses reported per expectation.
    static let nearMissCount = 3
    /// The most recent records searched for near misses.
    static let nearMissWindow = 10_000
    /// The most matching records a result lists.
    static let listedMatches = 20

    /// One expectation's outcome.
    struct Outcome: Sendable {
        var expectation: DeliveryExpectation
        var passed: Bool
        /// Matching records (for a step: those after the previous step's).
        var matched: [UInt64]
        /// For failures that wanted records: the closest records and how they differ.
        var nearMisses: [NearMiss] = []
        /// For `inOrder`: each step's outcome.
        var steps: [Outcome] = []
        /// Why an `inOrder` sequence failed, or a step was not reached.
        var note: String?
    }

    struct NearMiss: Sendable {
        var record: DeliveryRecord
        var satisfied: Int
        var results: [DeliveryMatcher.ConditionResult]
    }

    /// Checks every expectation; returns when each is settled: held (or broken, for upper
    /// bounds), or its `within` ran out.
    ///
    /// Each matcher is followed (`DeliveryFollower`): a pass reads only the records stored since
    /// the last one and those whose answer was decided since, so waiting for a window costs
    /// nothing while nothing arrives and never rescans the store.
    func verify(_ expectations: [DeliveryExpectation]) async throws -> [Outcome] {
        let subscription = store.notifier.subscribe()
        defer { subscription.cancel() }
        let clock = ContinuousClock()
        let start = clock.now
        // Each window as a Duration, used both to sleep and to judge: a window the timer has
        // waited out is over when it is judged (a window rounded down for the sleep and
        // compared unrounded would be judged still open, with nothing left to wake it).
        let windows = expectations.map { Self.window($0.within) }
        let longest = windows.max() ?? .zero
        let timer = Task {
            // Wake at every deadline so each expectation is judged when its window closes.
            for window in Set(windows).sorted() {
                try? await Task.sleep(until: start + window, clock: clock)
                subscription.poke()
            }
        }
        defer { timer.cancel() }
        let matches = MatchFollowers(reader: reader, expectations: expectations)
        var signals = subscription.signals.makeAsyncIterator()
        while true {
            let elapsed = clock.now - start
            let outcomes = try await executor.run(.prompt) {
                matches.advance()
                return expectations.map { evaluate($0, matches) }
            }
            let settled = zip(zip(expectations, windows), outcomes).allSatisfy { pair, outcome in
                let (expectation, window) = pair
                if elapsed >= window { return true }
                if let steps = expectation.steps {
                    // A sequence with a forbidding step watches its whole window.
                    return outcome.passed && !steps.contains { $0.count.isUpperBound }
                }
                // An upper bound is settled early only once it is broken for good (more matches
                // than it allows); `exactly N` holds only if the count is still N when the window closes.
                guard let maximum = expectation.count.maximum else { return outcome.passed }
                return outcome.matched.count > maximum
            }
            if settled || elapsed >= longest || Task.isCancelled {
                // Near misses are searched (on the low-priority thread) only for failures.
                guard outcomes.contains(where: { !$0.passed }) else { return outcomes }
                return try await executor.run(.bulk) { outcomes.map { explain($0) } }
            }
            guard await signals.next() != nil else { return outcomes }
        }
    }

    /// A `within` (seconds) as a Duration, to the nanosecond; none: zero.
    static func window(_ seconds: Double?) -> Duration {
        guard let seconds, seconds > 0 else { return .zero }
        return .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The expectation's outcome on the matches followed so far.
    private func evaluate(_ expectation: DeliveryExpectation, _ matches: MatchFollowers) -> Outcome {
        guard let steps = expectation.steps else {
            let matched = matches.sequences(expectation, after: 0)
            return Outcome(expectation: expectation, passed: expectation.count.holds(matched.count), matched: matched)
        }
        var cursor: UInt64 = 0
        var outcomes: [Outcome] = []
        var passed = true
        var note: String?
        for step in steps {
            guard passed else {
                outcomes.append(Outcome(expectation: step, passed: false, matched: [], note: "not reached"))
                continue
            }
            let matched = matches.sequences(step, after: cursor)
            let holds = step.count.holds(matched.count)
            outcomes.append(Outcome(expectation: step, passed: holds, matched: matched))
            if !holds {
                passed = false
                note = "step '\(step.name)' failed" + (cursor > 0 ? " (counting records after #\(cursor))" : "")
                continue
            }
            let minimum = step.count.minimum
            if minimum > 0 { cursor = matched[minimum - 1] }
        }
        return Outcome(expectation: expectation, passed: passed, matched: [], steps: outcomes, note: note)
    }

    /// Adds near misses to a failure that wanted records it did not get.
    func explain(_ outcome: Outcome) -> Outcome {
        var outcome = outcome
        outcome.steps = outcome.steps.map { explain($0) }
        guard !outcome.passed, outcome.expectation.steps == nil,
            outcome.matched.count < outcome.expectation.count.minimum
        else { return outcome }
        outcome.nearMisses = Self.nearMisses(
            of: outcome.expectation.match, excluding: Set(outcome.matched), reader: reader)
        return outcome
    }

    /// The recent records closest to matching `matcher` (at least one condition holds), most
    /// conditions first, the newest first among equals; records in `excluding` left out.
    ///
    /// A `payload.`, `preview.` or `headers.` condition whose path none of the recent records has
    /// (a misspelled key) gets a suggestion: the closest path they do have (`PathSuggestion`).
    /// A record is then ranked as if the condition named that path, so that the record differing
    /// only in the misspelling is listed (and a record that has the path, with another value, is
    /// listed after those that have it with the expected value); its results still say what holds.
    static func nearMisses(of matcher: DeliveryMatcher, excluding: Set<UInt64>, reader: DeliveryReader) -> [NearMiss] {
        let recent = reader.query(DeliveryQuery(limit: Self.nearMissWindow, order: .desc)).deliveries
        let evaluated = recent.map { matcher.evaluate($0) }
        let suggestions = Self.suggestions(matcher, recent: recent, evaluated: evaluated)
        var corrected: [Int: DeliveryMatcher] = [:]
        for (index, suggestion) in suggestions {
            guard let condition = Self.condition(matcher.conditions[index], renamedTo: suggestion) else { continue }
            corrected[index] = DeliveryMatcher([condition])
        }
        var ranked: [(miss: NearMiss, corrected: Int, present: Int)] = []
        for (record, results) in zip(recent, evaluated) where !excluding.contains(record.sequence) {
            var results = results
            let satisfied = results.filter(\.matched).count
            var correctedHolds = 0
            var present = 0
            for (index, suggestion) in suggestions {
                results[index].suggestion = suggestion
                guard let check = corrected[index]?.evaluate(record).first else { continue }
                if check.matched { correctedHolds += 1 }
                if check.actual != nil { present += 1 }
            }
            guard satisfied + correctedHolds > 0 || present > 0 else { continue }
            ranked.append(
                (NearMiss(record: record, satisfied: satisfied, results: results), satisfied + correctedHolds, present))
        }
        // Most conditions satisfied (a suggested path's counted) first; then those that have the
        // suggested paths; the newest first among equals (the scan is newest first).
        ranked = ranked.enumerated().sorted { a, b in
            if a.element.corrected != b.element.corrected { return a.element.corrected > b.element.corrected }
            if a.element.present != b.element.present { return a.element.present > b.element.present }
            return a.offset < b.offset
        }.map(\.element)
        return ranked.prefix(Self.nearMissCount).map(\.miss)
    }

    /// For each `payload.`, `preview.` or `headers.` condition (by index) whose path none of the
    /// `recent` records has: the closest path they have, when one is close.
    static func suggestions(
        _ matcher: DeliveryMatcher, recent: [DeliveryRecord], evaluated: [[DeliveryMatcher.ConditionResult]]
    ) -> [(Int, String)] {
        var missing: [Int] = []
        for (index, condition) in matcher.conditions.enumerated() {
            switch condition {
            case .payload, .preview, .header: break
            default: continue
            }
            if !evaluated.contains(where: { $0[index].actual != nil }) { missing.append(index) }
        }
        guard !missing.isEmpty else { return [] }
        var paths: [String: Set<String>] = [:]
        func have(_ prefix: String) -> Set<String> {
            if let known = paths[prefix] { return known }
            var found = Set<String>()
            for record in recent {
                switch prefix {
                case "payload":
                    if let document = JSONValue.parse(record.payload) {
                        PathSuggestion.paths(of: document, under: prefix, into: &found)
                    }
                case "preview":
                    if let preview = record.matchAnalysis?.preview?.jsonValue {
                        PathSuggestion.paths(of: preview, under: prefix, into: &found)
                    }
                default:
                    for field in record.headers { found.insert("headers." + field.name.lowercased()) }
                }
            }
            paths[prefix] = found
            return found
        }
        var suggestions: [(Int, String)] = []
        for index in missing {
            let condition = matcher.conditions[index]
            let prefix: String
            switch condition {
            case .payload: prefix = "payload"
            case .preview: prefix = "preview"
            default: prefix = "headers"
            }
            if let suggestion = PathSuggestion.suggestion(for: condition.fieldName, among: have(prefix)) {
                suggestions.append((index, suggestion))
            }
        }
        return suggestions
    }

    /// `condition` with its path replaced by `field`'s (`payload.aps.alert.title`).
    static func condition(_ condition: DeliveryMatcher.Condition, renamedTo field: String)
        -> DeliveryMatcher.Condition?
    {
        let steps = field.split(separator: ".", omittingEmptySubsequences: false).dropFirst().map {
            DeliveryMatcher.PayloadPathComponent.key(String($0))
        }
        switch condition {
        case .payload(_, let expected): return .payload(path: Array(steps), expected: expected)
        case .preview(_, let expected): return .preview(path: Array(steps), expected: expected)
        case .header(_, let value): return .header(name: steps.map(\.description).joined(separator: "."), value: value)
        default: return nil
        }
    }

    // MARK: JSON

    /// `{"passed": …, "results": [...]}`.
    static func json(_ outcomes: [Outcome]) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.key("passed")
        writer.bool(outcomes.allSatisfy(\.passed))
        writer.key("results")
        writer.beginArray()
        for outcome in outcomes { write(outcome, to: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    private static func write(_ outcome: Outcome, to writer: inout JSONWriter) {
        let expectation = outcome.expectation
        writer.beginObject()
        writer.key("name")
        writer.string(expectation.name)
        writer.key("passed")
        writer.bool(outcome.passed)
        if let within = expectation.within {
            writer.key("within")
            writer.string(DurationText.format(seconds: within))
        }
        if let note = outcome.note {
            writer.key("note")
            writer.string(note)
        }
        if expectation.steps != nil {
            writer.key("inOrder")
            writer.bool(true)
            writer.key("steps")
            writer.beginArray()
            for step in outcome.steps { write(step, to: &writer) }
            writer.endArray()
            writer.endObject()
            return
        }
        writer.key("match")
        expectation.match.json.write(to: &writer)
        writer.key("expected")
        writer.string(expectation.count.description)
        writer.key("count")
        expectation.count.json.write(to: &writer)
        writer.key("matched")
        writer.number(outcome.matched.count)
        writer.key("matchedSequences")
        writer.beginArray()
        for sequence in outcome.matched.prefix(listedMatches) { writer.number(sequence) }
        writer.endArray()
        writer.key("nearMisses")
        writeNearMisses(outcome.nearMisses, to: &writer)
        writer.endObject()
    }

    /// `[{"sequence", "satisfied", "of", "differences": [{"field", "expected", "actual"}], "record"}]`.
    static func writeNearMisses(_ nearMisses: [NearMiss], to writer: inout JSONWriter) {
        writer.beginArray()
        var tokens = DeliveryRecordJSON.TokenCache()
        for miss in nearMisses {
            writer.beginObject()
            writer.key("sequence")
            writer.number(miss.record.sequence)
            writer.key("satisfied")
            writer.number(miss.satisfied)
            writer.key("of")
            writer.number(miss.results.count)
            writer.key("differences")
            writer.beginArray()
            for result in miss.results where !result.matched {
                writer.beginObject()
                writer.key("field")
                writer.string(result.condition.fieldName)
                writer.key("expected")
                writer.string(result.condition.expectedText)
                writer.key("actual")
                writer.string(result.actual)
                if let suggestion = result.suggestion {
                    writer.key("suggestion")
                    writer.string(suggestion)
                }
                writer.endObject()
            }
            writer.endArray()
            writer.key("record")
            DeliveryRecordJSON.write(miss.record, to: &writer, tokens: &tokens)
            writer.endObject()
        }
        writer.endArray()
    }
}
