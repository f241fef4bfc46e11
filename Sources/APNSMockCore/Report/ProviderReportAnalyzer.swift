/// Builds the provider-behaviour report from plain values: record summaries and connection
/// facts in, numbers and findings per provider identity out. Pure: no clock, no store, no I/O.
///
/// Each aspect (connections, provider tokens, answers the provider ignored, push type and
/// priority, lint) is its own function over one identity's deliveries in arrival order.
public enum ProviderReportAnalyzer {
    /// The report of `deliveries` received in `window`.
    /// - Parameters:
    ///   - deliveries: record summaries, any order (sorted by sequence here).
    ///   - connections: the connection log's facts; a connection missing from it (aged out of
    ///     the log) counts as closed, opened when its first push arrived.
    public static func report(
        deliveries: [BehaviorDelivery], connections: [BehaviorConnection], window: ReportWindow = ReportWindow(),
        thresholds: BehaviorThresholds = .standard
    ) -> ProviderReport {
        let inWindow = deliveries.filter { window.contains($0.receivedAt) }.sorted { $0.sequence < $1.sequence }
        var groups: [ProviderIdentity: [BehaviorDelivery]] = [:]
        for delivery in inWindow { groups[delivery.identity, default: []].append(delivery) }
        let connectionsByID = Dictionary(connections.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let providers = groups.keys.sorted().map { identity in
            behavior(identity, groups[identity]!, connections: connectionsByID, thresholds: thresholds)
        }
        return ProviderReport(window: window, deliveries: inWindow.count, providers: providers)
    }

    /// One identity's entry.
    static func behavior(
        _ identity: ProviderIdentity, _ deliveries: [BehaviorDelivery], connections: [UInt64: BehaviorConnection],
        thresholds: BehaviorThresholds
    ) -> ProviderBehavior {
        var behavior = ProviderBehavior(identity: identity)
        behavior.pushes = deliveries.count
        behavior.firstAt = deliveries.map(\.receivedAt).min()
        behavior.lastAt = deliveries.map(\.receivedAt).max()
        var answers: [Int?: Int] = [:]
        for delivery in deliveries { answers[delivery.status, default: 0] += 1 }
        behavior.answers = answers.sorted { ($0.key ?? Int.max) < ($1.key ?? Int.max) }.map { ($0.key, $0.value) }
        var findings: [BehaviorFinding] = []
        findings += connectionFindings(deliveries, connections, thresholds, into: &behavior.connections)
        findings += tokenFindings(deliveries, thresholds, into: &behavior.providerTokens)
        findings += unregisteredFindings(deliveries, thresholds)
        findings += retryFindings(deliveries, thresholds)
        findings += resentAfterSuccessFindings(deliveries, thresholds)
        findings += deliveryFindings(deliveries, thresholds)
        findings += hygieneFindings(deliveries, thresholds)
        findings += lintFindings(deliveries, thresholds, into: &behavior.lint)
        findings += webPushFindings(deliveries, thresholds)
        let order = Dictionary(uniqueKeysWithValues: BehaviorCode.all.enumerated().map { ($1.rawValue, $0) })
        behavior.findings = findings.sorted {
            $0.severity != $1.severity ? $0.severity > $1.severity : order[$0.code.rawValue]! < order[$1.code.rawValue]!
        }
        return behavior
    }

    /// The `apns-id`s of the first `thresholds.examples` of `deliveries`.
    static func examples(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds) -> [String] {
        deliveries.prefix(thresholds.examples).map(\.apnsID)
    }

    static func plural(_ count: Int, _ word: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? word : plural ?? word + "s")"
    }

    // MARK: Connections

    /// Churn, refused streams and streams at the limit.
    static func connectionFindings(
        _ deliveries: [BehaviorDelivery], _ log: [UInt64: BehaviorConnection], _ thresholds: BehaviorThresholds,
        into numbers: inout ProviderBehavior.Connections
    ) -> [BehaviorFinding] {
        var order: [UInt64] = []
        var byConnection: [UInt64: [BehaviorDelivery]] = [:]
        for delivery in deliveries {
            if byConnection[delivery.connectionID] == nil { order.append(delivery.connectionID) }
            byConnection[delivery.connectionID, default: []].append(delivery)
        }
        numbers.opened = order.count
        numbers.pushesPerConnection = order.isEmpty ? 0 : Double(deliveries.count) / Double(order.count)
        func openedAt(_ id: UInt64) -> Int64 { log[id]?.openedAt ?? byConnection[id]![0].receivedAt }
        numbers.peakOpenedPerMinute = densest(order.map(openedAt), span: 60_000).count

        var findings: [BehaviorFinding] = []
        // Churn: closed connections that carried at most a push or so, many opened close together.
        let short = order.filter { id in
            byConnection[id]!.count <= thresholds.churnPushesPerConnection
                && (log[id].map { $0.closedAt != nil } ?? true)
        }
        let burst = densest(short.map(openedAt), span: thresholds.churnWindowMilliseconds)
        if burst.count >= thresholds.churnConnections {
            let shown = burst.indices.map { short[$0] }
            findings.append(
                BehaviorFinding(
                    code: .connectionChurn, count: short.count,
                    message:
                        "\(plural(short.count, "connection")) carried at most \(plural(thresholds.churnPushesPerConnection, "push", "pushes")) each; \(burst.count) of them were opened within \(DurationText.format(seconds: Double(thresholds.churnWindowMilliseconds) / 1000)) (\(plural(order.count, "connection")) for \(plural(deliveries.count, "push", "pushes")) in all)",
                    examples: examples(shown.compactMap { byConnection[$0]?.first }, thresholds)))
        }

        // Streams: refused ones, and the most in flight against the announced limit.
        var refusedOn: [UInt64] = []
        var atLimit: [BehaviorDelivery] = []
        var atLimitConnections = 0
        for id in order {
            let connection = log[id]
            if let refused = connection?.refusedStreams, refused > 0 {
                numbers.refusedStreams += refused
                refusedOn.append(id)
            }
            if let limit = connection?.maxConcurrentStreams {
                numbers.maxConcurrentStreams = max(numbers.maxConcurrentStreams ?? 0, limit)
            }
            let peak = peakInFlight(byConnection[id]!)
            numbers.peakConcurrentStreams = max(numbers.peakConcurrentStreams, peak.count)
            if let limit = connection?.maxConcurrentStreams, limit > 1, peak.count >= limit, let at = peak.at {
                atLimitConnections += 1
                atLimit.append(at)
            }
        }
        if numbers.refusedStreams > 0 {
            let ids = refusedOn.prefix(5).map { "#\($0)" }.joined(separator: ", ")
            findings.append(
                BehaviorFinding(
                    code: .streamsRefused, count: numbers.refusedStreams,
                    message:
                        "the server refused \(plural(numbers.refusedStreams, "stream")) (RST_STREAM REFUSED_STREAM) on \(plural(refusedOn.count, "connection")) (\(ids)); the largest MAX_CONCURRENT_STREAMS announced was \(numbers.maxConcurrentStreams.map(String.init) ?? "unknown")"
                ))
        }
        if atLimitConnections > 0 {
            findings.append(
                BehaviorFinding(
                    code: .concurrencyAtLimit, count: atLimitConnections,
                    message:
                        "\(plural(atLimitConnections, "connection")) had as many streams in flight as their MAX_CONCURRENT_STREAMS (\(numbers.maxConcurrentStreams ?? 0)); more connections would carry more at once",
                    examples: examples(atLimit, thresholds)))
        }
        return findings
    }

    /// The indices (into `times`, ascending by time) of the most of `times` that fall within
    /// any `span` milliseconds.
    static func densest(_ times: [Int64], span: Int64) -> (count: Int, indices: [Int]) {
        let sorted = times.enumerated().sorted {
            $0.element != $1.element ? $0.element < $1.element : $0.offset < $1.offset
        }
        var best: (count: Int, start: Int) = (0, 0)
        var start = 0
        for end in sorted.indices {
            while sorted[end].element - sorted[start].element >= span { start += 1 }
            if end - start + 1 > best.count { best = (end - start + 1, start) }
        }
        return (best.count, sorted[best.start..<(best.start + best.count)].map(\.offset))
    }

    /// The most of `deliveries` in flight at once (from arrival to answer; unanswered ones
    /// to the end), and the delivery whose arrival reached that number.
    static func peakInFlight(_ deliveries: [BehaviorDelivery]) -> (count: Int, at: BehaviorDelivery?) {
        // An answer at the same millisecond as an arrival frees its stream first.
        var events: [(time: Int64, change: Int, index: Int)] = []
        for (index, delivery) in deliveries.enumerated() {
            events.append((delivery.receivedAt, 1, index))
            // An answer in the same millisecond as its request still held a stream for a while.
            let end = delivery.respondedAt.map { max($0, delivery.receivedAt + 1) } ?? Int64.max
            events.append((end, -1, index))
        }
        events.sort { $0.time != $1.time ? $0.time < $1.time : $0.change < $1.change }
        var current = 0
        var peak: (count: Int, at: BehaviorDelivery?) = (0, nil)
        for event in events {
            current += event.change
            if current > peak.count { peak = (current, deliveries[event.index]) }
        }
        return peak
    }

    // MARK: Provider tokens

    /// Tokens minted too often, kept too long, and TooManyProviderTokenUpdates answers.
    static func tokenFindings(
        _ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds,
        into numbers: inout ProviderBehavior.ProviderTokens
    ) -> [BehaviorFinding] {
        guard case .token = deliveries.first?.identity else { return [] }
        var findings: [BehaviorFinding] = []
        var firstUse: [Int64: BehaviorDelivery] = [:]
        var tooOld: [BehaviorDelivery] = []
        for delivery in deliveries {
            guard let issuedAt = delivery.tokenIssuedAt else { continue }
            if firstUse[issuedAt] == nil { firstUse[issuedAt] = delivery }
            let age = delivery.receivedAt / 1000 - issuedAt
            numbers.longestUseSeconds = max(numbers.longestUseSeconds ?? 0, max(0, age))
            if age > thresholds.tokenLifetimeMaximumSeconds { tooOld.append(delivery) }
        }
        let issued = firstUse.keys.sorted()
        numbers.distinct = issued.count
        var tooSoon: [BehaviorDelivery] = []
        for (previous, next) in zip(issued, issued.dropFirst()) {
            let interval = next - previous
            numbers.shortestRefreshSeconds = min(numbers.shortestRefreshSeconds ?? interval, interval)
            if interval < thresholds.tokenRefreshMinimumSeconds { tooSoon.append(firstUse[next]!) }
        }
        tooSoon.sort { $0.sequence < $1.sequence }
        if !tooSoon.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .providerTokenRefreshedTooOften, count: tooSoon.count,
                    message:
                        "\(plural(issued.count, "provider token")) (distinct iat) over \(plural(deliveries.count, "push", "pushes")); \(plural(tooSoon.count, "token was", "tokens were")) minted less than \(DurationText.format(seconds: Double(thresholds.tokenRefreshMinimumSeconds))) after the previous one (shortest interval \(DurationText.format(seconds: Double(numbers.shortestRefreshSeconds ?? 0))))",
                    examples: examples(tooSoon, thresholds)))
        }
        if !tooOld.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .providerTokenTooOld, count: tooOld.count,
                    message:
                        "\(plural(tooOld.count, "push", "pushes")) carried a provider token older than \(DurationText.format(seconds: Double(thresholds.tokenLifetimeMaximumSeconds))) (the oldest was \(DurationText.format(seconds: Double(numbers.longestUseSeconds ?? 0))) old)",
                    examples: examples(tooOld, thresholds)))
        }
        let updates = deliveries.filter { $0.status == 429 && $0.reason == "TooManyProviderTokenUpdates" }
        numbers.tooManyProviderTokenUpdates = updates.count
        if !updates.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .tooManyProviderTokenUpdates, count: updates.count,
                    message:
                        "\(plural(updates.count, "push was", "pushes were")) answered 429 TooManyProviderTokenUpdates: a connection's provider token changed less than 20 minutes after the previous one",
                    examples: examples(updates, thresholds)))
        }
        return findings
    }

    // MARK: Answers the provider ignored

    /// Pushes to a token after its 410.
    static func unregisteredFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds)
        -> [BehaviorFinding]
    {
        var goneSince: [String: Int64] = [:]
        var after: [BehaviorDelivery] = []
        var tokens: Set<String> = []
        for delivery in deliveries {
            guard let token = delivery.deviceToken, !delivery.isBroadcast else { continue }
            // An accepted push shows the token valid again (the device registered again).
            if let since = goneSince[token], delivery.receivedAt >= since, delivery.status != 200 {
                after.append(delivery)
                tokens.insert(token)
            }
            if delivery.status == 410 {
                if goneSince[token] == nil { goneSince[token] = delivery.respondedAt ?? delivery.receivedAt }
            } else if delivery.status == 200 {
                goneSince[token] = nil
            }
        }
        guard !after.isEmpty else { return [] }
        return [
            BehaviorFinding(
                code: .pushAfterUnregistered, count: after.count,
                message:
                    "\(plural(after.count, "push was", "pushes were")) sent to \(plural(tokens.count, "device token")) after APNs answered 410 for it",
                examples: examples(after, thresholds))
        ]
    }

    /// Unchanged re-sends of rejected requests, and re-sends too soon after 429 and 503.
    static func retryFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds) -> [BehaviorFinding] {
        var rejected: [String: BehaviorDelivery] = [:]
        var busySince: [String: Int64] = [:]
        var retried: [BehaviorDelivery] = []
        var retriedStatuses: [Int: Int] = [:]
        var hurried: [BehaviorDelivery] = []
        for delivery in deliveries {
            var keys: [String] = []
            if !delivery.apnsIDGenerated { keys.append("id " + delivery.apnsID.lowercased()) }
            if let token = delivery.deviceToken, !delivery.isBroadcast {
                keys.append("payload \(token) \(delivery.payloadFingerprint)")
            }
            // Unchanged after 400, 403, 413.
            let earlier = keys.compactMap { rejected[$0] }.max { $0.sequence < $1.sequence }
            if let earlier, let status = earlier.status, let answeredAt = earlier.respondedAt,
                delivery.receivedAt >= answeredAt, delivery.answerHeaders == earlier.answerHeaders,
                status != 403 || delivery.tokenIssuedAt == earlier.tokenIssuedAt
            {
                retried.append(delivery)
                retriedStatuses[status, default: 0] += 1
            }
            // Backoff after 429 TooManyRequests and 503 ServiceUnavailable.
            var busyKeys = keys.filter { $0.hasPrefix("id ") }
            if let token = delivery.deviceToken, !delivery.isBroadcast { busyKeys.append("token " + token) }
            if let since = busyKeys.compactMap({ busySince[$0] }).max(), delivery.receivedAt >= since,
                delivery.receivedAt - since < thresholds.backoffMinimumMilliseconds
            {
                hurried.append(delivery)
            }
            guard let status = delivery.status else { continue }
            for key in keys { rejected[key] = [400, 403, 413].contains(status) ? delivery : nil }
            if Self.asksForBackoff(delivery) {
                for key in busyKeys { busySince[key] = delivery.respondedAt ?? delivery.receivedAt }
            } else if status == 200 {
                for key in busyKeys { busySince[key] = nil }
            }
        }
        var findings: [BehaviorFinding] = []
        if !retried.isEmpty {
            let statuses = retriedStatuses.sorted { $0.key < $1.key }.map { "\($0.value) after \($0.key)" }
            findings.append(
                BehaviorFinding(
                    code: .nonRetryableRetried, count: retried.count,
                    message:
                        "\(plural(retried.count, "request was", "requests were")) re-sent unchanged after an answer that is not retryable (\(statuses.joined(separator: ", ")))",
                    examples: examples(retried, thresholds)))
        }
        if !hurried.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .retryWithoutBackoff, count: hurried.count,
                    message:
                        "\(plural(hurried.count, "push was", "pushes were")) sent to the same device token (or with the same apns-id) less than \(DurationText.format(seconds: Double(thresholds.backoffMinimumMilliseconds) / 1000)) after a 429 TooManyRequests or 503 ServiceUnavailable answer",
                    examples: examples(hurried, thresholds)))
        }
        return findings
    }

    /// Pushes answered 200 under an apns-id an earlier push was answered 200 under: one
    /// notification delivered twice (or more). A generated apns-id says nothing (the client sent
    /// none); a re-send of a push that got no status (a GOAWAY refused it) is a proper retry.
    static func resentAfterSuccessFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds)
        -> [BehaviorFinding]
    {
        var accepted: Set<String> = []
        var resent: [BehaviorDelivery] = []
        var resentIDs: Set<String> = []
        var firstResendOfEachID: [BehaviorDelivery] = []
        for delivery in deliveries where delivery.status == 200 && !delivery.apnsIDGenerated {
            let id = delivery.apnsID.lowercased()
            guard !accepted.insert(id).inserted else { continue }
            resent.append(delivery)
            if resentIDs.insert(id).inserted { firstResendOfEachID.append(delivery) }
        }
        guard !resent.isEmpty else { return [] }
        return [
            BehaviorFinding(
                code: .answeredPushResent, count: resent.count,
                message:
                    "\(plural(resent.count, "push was", "pushes were")) answered 200 under an apns-id already answered 200 (\(plural(resentIDs.count, "apns-id"))): the provider re-sent pushes it was answered for, and each reached its device again",
                examples: examples(firstResendOfEachID, thresholds))
        ]
    }

    // MARK: After the 200

    /// What became of accepted pushes: `apns-expiration: 0` pushes lost to an offline device,
    /// collapse ids that group nothing, pushes to an app that is no longer installed.
    static func deliveryFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds)
        -> [BehaviorFinding]
    {
        let devicePushes = deliveries.filter { !$0.isBroadcast && $0.deviceToken != nil }
        var findings: [BehaviorFinding] = []

        let lost = devicePushes.filter {
            $0.expirationHeader.flatMap { Int64($0) } == 0 && $0.delivery?.state == .discarded
                && $0.delivery?.reason == .expired
        }
        if !lost.isEmpty {
            let tokens = distinct(lost.compactMap(\.deviceToken))
            let topics = distinct(lost.compactMap(\.topic))
            findings.append(
                BehaviorFinding(
                    code: .expirationZeroDiscarded, count: lost.count,
                    message:
                        "\(plural(lost.count, "push", "pushes")) with apns-expiration 0 \(lost.count == 1 ? "was" : "were") discarded (expired) because the device could not take \(lost.count == 1 ? "it" : "them") at once: \(plural(tokens.count, "device token")) (\(list(tokens.map(abbreviated)))), \(plural(topics.count, "topic")) (\(list(topics)))",
                    examples: examples(lost, thresholds)))
        }

        let collapsing = devicePushes.filter { $0.status == 200 && $0.collapseIDHeader != nil }
        if collapsing.count >= thresholds.collapseMinimumPushes {
            var uses: [String: [String: Int]] = [:]
            for push in collapsing { uses[push.collapseIDHeader!, default: [:]][push.deviceToken!, default: 0] += 1 }
            let never = Set(uses.filter { $0.value.values.allSatisfy { $0 == 1 } }.keys)
            if !never.isEmpty {
                let shown = collapsing.filter { never.contains($0.collapseIDHeader!) }
                findings.append(
                    BehaviorFinding(
                        code: .collapseIDNeverCollapses, count: never.count,
                        message:
                            "\(plural(never.count, "collapse id")) of \(uses.count) never collapsed: each went to a device in one push only (\(plural(collapsing.count, "accepted push", "accepted pushes")) carried a collapse id)",
                        examples: examples(shown, thresholds)))
            }
        }

        var inactiveSince: [String: UInt64] = [:]
        var after: [BehaviorDelivery] = []
        var tokens: Set<String> = []
        for push in devicePushes {
            let token = push.deviceToken!
            let reached = push.delivery?.state == .delivered || push.delivery?.state == .stored
            if inactiveSince[token] != nil, !reached {
                after.append(push)
                tokens.insert(token)
            }
            if reached {
                inactiveSince[token] = nil
            } else if push.delivery?.reason == .tokenInactive, inactiveSince[token] == nil {
                inactiveSince[token] = push.sequence
            }
        }
        if !after.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .pushAfterTokenInactive, count: after.count,
                    message:
                        "\(plural(after.count, "push was", "pushes were")) sent to \(plural(tokens.count, "device token")) after APNs discarded a push to it because the app is not installed (tokenInactive); APNs answers 410 Unregistered once it has confirmed it",
                    examples: examples(after, thresholds)))
        }
        return findings
    }

    /// `values` without repeats, in first-seen order.
    static func distinct(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// The first three of `values`, then how many more.
    static func list(_ values: [String]) -> String {
        let shown = values.prefix(3).joined(separator: ", ")
        return values.count > 3 ? "\(shown) and \(values.count - 3) more" : shown
    }

    /// A device token's first 8 hex digits.
    static func abbreviated(_ token: String) -> String { token.count > 8 ? token.prefix(8) + "…" : token }

    /// A 429 TooManyRequests, or a 503 other than `Shutdown` (a server going away: retrying
    /// at once on a new connection is what a provider should do).
    static func asksForBackoff(_ delivery: BehaviorDelivery) -> Bool {
        switch delivery.status {
        case 429: delivery.reason == "TooManyRequests"
        case 503: delivery.reason != "Shutdown"
        default: false
        }
    }

    // MARK: Web Push

    /// Web pushes whose body did not decrypt, TTL 0 to a browser that was offline, VAPID tokens
    /// used past their `exp`.
    static func webPushFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds)
        -> [BehaviorFinding]
    {
        let webPushes = deliveries.filter { $0.webPush != nil }
        guard !webPushes.isEmpty else { return [] }
        var findings: [BehaviorFinding] = []
        let undecryptable = webPushes.filter { $0.webPush?.decryptionProblem != nil }
        if !undecryptable.isEmpty {
            let problems = distinct(undecryptable.compactMap { $0.webPush?.decryptionProblem })
            let subscriptions = distinct(undecryptable.compactMap(\.deviceToken))
            findings.append(
                BehaviorFinding(
                    code: .webPushUndecryptable, count: undecryptable.count,
                    message:
                        "\(plural(undecryptable.count, "accepted web push", "accepted web pushes")) to \(plural(subscriptions.count, "subscription")) did not decrypt with the subscription's keys (\(list(problems)))",
                    examples: examples(undecryptable, thresholds)))
        }
        let lost = webPushes.filter {
            $0.webPush?.ttl == 0 && $0.delivery?.state == .discarded && $0.delivery?.reason == .expired
        }
        if !lost.isEmpty {
            let subscriptions = distinct(lost.compactMap(\.deviceToken))
            findings.append(
                BehaviorFinding(
                    code: .webPushTTLZeroDiscarded, count: lost.count,
                    message:
                        "\(plural(lost.count, "web push", "web pushes")) with TTL 0 \(lost.count == 1 ? "was" : "were") discarded (expired) because the browser could not take \(lost.count == 1 ? "it" : "them") at once: \(plural(subscriptions.count, "subscription")) (\(list(subscriptions.map(abbreviated))))",
                    examples: examples(lost, thresholds)))
        }
        let expired = webPushes.filter { push in
            guard let exp = push.webPush?.vapidExpiresAt else { return false }
            return exp * 1000 <= push.receivedAt
        }
        if !expired.isEmpty {
            let late = expired.compactMap { push in push.webPush?.vapidExpiresAt.map { push.receivedAt / 1000 - $0 } }
            findings.append(
                BehaviorFinding(
                    code: .vapidTokenExpired, count: expired.count,
                    message:
                        "\(plural(expired.count, "web push was", "web pushes were")) sent with a VAPID token past its exp (by up to \(DurationText.format(seconds: Double(late.max() ?? 0)))); Apple answers 403 BadJwtToken",
                    examples: examples(expired, thresholds)))
        }
        return findings
    }

    // MARK: Push type, priority, lint

    /// Background pushes at priority 10, device pushes without apns-push-type.
    static func hygieneFindings(_ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds)
        -> [BehaviorFinding]
    {
        var findings: [BehaviorFinding] = []
        let background10 = deliveries.filter {
            $0.pushTypeHeader?.lowercased() == "background" && $0.priorityHeader == "10"
        }
        if !background10.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .backgroundPriority10, count: background10.count,
                    message:
                        "\(plural(background10.count, "background push was", "background pushes were")) sent with apns-priority 10 (APNs answers 400 BadPriority)",
                    examples: examples(background10, thresholds)))
        }
        // A web push has no apns-push-type: it is not an APNs request.
        let untyped = deliveries.filter { !$0.isBroadcast && $0.webPush == nil && $0.pushTypeHeader == nil }
        if !untyped.isEmpty {
            findings.append(
                BehaviorFinding(
                    code: .pushTypeMissing, count: untyped.count,
                    message:
                        "\(plural(untyped.count, "push", "pushes")) of \(deliveries.count) had no apns-push-type header",
                    examples: examples(untyped, thresholds)))
        }
        return findings
    }

    /// Lint totals by code, and a finding per severity.
    static func lintFindings(
        _ deliveries: [BehaviorDelivery], _ thresholds: BehaviorThresholds,
        into totals: inout [(code: LintCode, count: Int)]
    ) -> [BehaviorFinding] {
        var counts: [LintCode: Int] = [:]
        var first: [LintCode: UInt64] = [:]
        for delivery in deliveries {
            for code in delivery.lint {
                counts[code, default: 0] += 1
                if first[code] == nil { first[code] = delivery.sequence }
            }
        }
        totals = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.rawValue < $1.key.rawValue }
            .map { ($0.key, $0.value) }
        var findings: [BehaviorFinding] = []
        for (severity, code) in [
            (LintSeverity.error, BehaviorCode.payloadLintErrors), (.warning, .payloadLintWarnings),
        ] {
            let entries = totals.filter { $0.code.severity == severity && $0.code != .pushTypeHeaderMissing }
            guard !entries.isEmpty else { continue }
            let codes = Set(entries.map(\.code))
            let shown = deliveries.filter { !codes.isDisjoint(with: $0.lint) }
            let total = entries.map(\.count).reduce(0, +)
            let list = entries.map { "\($0.code.rawValue) ×\($0.count)" }.joined(separator: ", ")
            findings.append(
                BehaviorFinding(
                    code: code, count: total,
                    message:
                        "\(plural(total, "lint finding")) of severity \(severity.rawValue) in \(plural(shown.count, "payload")): \(list)",
                    examples: examples(shown, thresholds)))
        }
        return findings
    }
}
