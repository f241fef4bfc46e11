import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The admin HTTP API (Hummingbird): health, deliveries (read, wait, stream, delete), the
/// registry, reset and verification. Queries and rendering run on the `AdminExecutor`'s threads.
public enum AdminRouter {
    /// The longest `wait` (seconds).
    public static let maximumWaitSeconds = 300.0

    /// Builds the router.
    /// - Parameters:
    ///   - reset: puts keys and devices back to the start-up setup (`POST /v1/reset`).
    ///   - connections: reaches live APNs connections (`closeConnections=true`).
    ///   - access: the bearer token every call but `/health` must present, if any.
    ///   - faults: fault rules, modes and behaviors (`/v1/faults`, `/v1/modes`, `/v1/behaviors`).
    ///   - connectionLog: live and recent connections (`/v1/connections`).
    ///   - now: the clock (epoch ms) that dates rules and modes.
    ///   - metrics: the mock's metrics (`GET /metrics`); `nil`: a new set over `store`.
    ///   - info: the server's addresses, version and CA (`GET /v1/info`, `GET /v1/ca.pem`); `nil`:
    ///     no such routes (a router tested without a server).
    ///   - clock: the server's clock, moved by `/v1/clock` (pass its `now` as `now`); `nil`: no
    ///     such routes.
    public static func build(
        store: DeliveryStore, analyses: PayloadAnalyses = PayloadAnalyses(), registry: Registry,
        executor: AdminExecutor,
        reset: @escaping @Sendable () async -> Void = {}, connections: (any ConnectionControl)? = nil,
        access: AdminAccess = AdminAccess(token: nil), faults: FaultControl = FaultControl(),
        connectionLog: ConnectionLog = ConnectionLog(), now: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        metrics: MockMetrics? = nil, info: ServerInfo? = nil, clock: MockClock? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router()
        let metrics = metrics ?? MockMetrics(store: store)
        router.add(middleware: AdminMetricsMiddleware(metrics: metrics))
        if access.token != nil {
            router.add(middleware: AdminTokenMiddleware(access: access))
        }
        let routes = UnmatchedRouteMiddleware.Routes()
        router.add(middleware: UnmatchedRouteMiddleware(routes: routes))
        let services = AdminServices(
            store: store, reader: DeliveryReader(store: store, analyses: analyses), registry: registry,
            executor: executor, reset: reset, connections: connections, faults: faults, connectionLog: connectionLog,
            now: now, metrics: metrics, info: info, clock: clock, renderedEvents: RenderedEventCache(),
            selfCalls: MCPEndpoint.SelfCalls())
        // Every route is an operation of the document, registered at its method and path.
        for operation in AdminOperation.allCases {
            guard let handler = handler(for: operation, services) else { continue }
            router.on(operation, use: handler)
        }
        routes.set(router.routes)
        services.selfCalls.set(router.buildResponder())
        executor.releaseAtShutdown { services.selfCalls.clear() }
        return router
    }

    // MARK: server

    /// `GET /health`: `{"status":"ok"}`, with the journal's progress when there is one.
    static func health(_ services: AdminServices) -> Handler {
        let store = services.store
        return { _, _ in
            var json = JSONWriter(capacity: 160)
            json.beginObject()
            json.key("status")
            json.string("ok")
            if let progress = store.sink?.progress {
                json.key("journal")
                json.beginObject()
                json.key("written")
                json.number(progress.written)
                json.key("queued")
                json.number(progress.queued)
                json.key("dropped")
                json.number(progress.dropped)
                json.key("failedWrites")
                json.number(progress.failedWrites)
                json.key("behind")
                json.bool(progress.behind)
                json.endObject()
            }
            json.endObject()
            return Self.json(status: .ok, json.bytes)
        }
    }

    /// `GET /v1/info`.
    static func info(_ info: ServerInfo) -> Handler {
        { _, _ in json(status: .ok, info.json) }
    }

    /// `GET /v1/ca.pem`: the CA that issued the server's certificate, when the mock knows it.
    static func caCertificate(_ info: ServerInfo) -> Handler {
        { _, _ in
            guard let pem = info.caCertificate else { return errorResponse(.notFound(info.noCAReason)) }
            return Response(
                status: .ok, headers: [.contentType: "application/x-pem-file"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: pem)))
        }
    }

    /// `GET /v1/openapi.yaml`: the document, as embedded.
    static func openAPIDocument() -> Handler {
        { _, _ in
            Response(
                status: .ok, headers: [.contentType: AdminAPIDocument.contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(string: AdminAPIDocument.yaml)))
        }
    }

    /// `GET /metrics`. Behind the token like every route but /health: a scraper sends it
    /// (Prometheus's `authorization` or `bearer_token_file`), and the metrics say what the mock
    /// received.
    static func metrics(_ services: AdminServices) -> Handler {
        let metrics = services.metrics
        return { _, _ in
            Response(
                status: .ok, headers: [.contentType: MockMetrics.contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
    }

    /// `POST /v1/verify`.
    static func verify(_ services: AdminServices) -> Handler {
        let verifier = ExpectationVerifier(reader: services.reader, executor: services.executor)
        return { request, _ in
            let expectations: [DeliveryExpectation]
            do throws(AdminError) {
                expectations = try verifyBody(try await RegistryRoutes.readBody(request))
            } catch {
                return errorResponse(error)
            }
            let (outcomes, cutShort) = try await ShutdownCutoff.run { try await verifier.verify(expectations) }
            guard !cutShort else {
                return errorResponse(
                    .shuttingDown(
                        "apns-mock is shutting down (SIGTERM or stop()): the verification ended before its expectations were decided"
                    ))
            }
            return json(status: .ok, ExpectationVerifier.json(outcomes))
        }
    }

    /// `POST /v1/reset[?closeConnections=true|false]`.
    static func reset(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let reset = services.reset
        let connections = services.connections
        return { request, _ in
            var close = false
            for (name, value) in parameters(request) {
                guard name == "closeConnections", value == "true" || value == "false" else {
                    return errorResponse(
                        .badParameter(
                            "query parameter '\(name)' is not known here; POST /v1/reset takes closeConnections=true|false"
                        ))
                }
                close = value == "true"
            }
            // A body says the caller meant something this route does not do: refuse it rather than ignore it.
            let body = (try? await RegistryRoutes.readBody(request)) ?? []
            let text = body.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
            guard text.isEmpty || text == Array("{}".utf8) else {
                return errorResponse(
                    .badRequest(
                        "POST /v1/reset takes no body: it deletes every record and puts keys, devices, channels and fault rules back to the start-up setup (closeConnections=true in the query closes the connections too)"
                    ))
            }
            reader.removeAll()
            await reset()
            let closed = close ? await connections?.closeAllConnections() ?? 0 : 0
            return json(status: .ok, Array(#"{"reset":true,"closedConnections":\#(closed)}"#.utf8))
        }
    }

    // MARK: deliveries

    /// `GET /v1/deliveries`.
    static func listDeliveries(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        let allowed = DeliveryQueryParser.listParameters
        return onDeliveryQuery(allowing: allowed) { query in
            try await executor.run { deliveriesPage(reader.query(query)) }
        }
    }

    /// `DELETE /v1/deliveries`.
    static func deleteDeliveries(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        let allowed = DeliveryQueryParser.ownParameters(of: .deleteDeliveries)
        return onDeliveryQuery(allowing: allowed) { query in
            let deleted = try await executor.run { reader.remove(matching: query.matcher) }
            return json(status: .ok, Array(#"{"deleted":\#(deleted)}"#.utf8))
        }
    }

    /// A handler that reads the request's delivery query (only the parameters `allowed`) and
    /// answers with `body`, or with the 400 that names what is wrong with the query.
    private static func onDeliveryQuery(
        allowing allowed: Set<String>, _ body: @escaping @Sendable (DeliveryQuery) async throws -> Response
    ) -> Handler {
        { request, _ in
            let query: DeliveryQuery
            do throws(AdminError) {
                query = try DeliveryQueryParser.parse(parameters(request), allowing: allowed).query
            } catch {
                return errorResponse(error)
            }
            return try await body(query)
        }
    }

    /// `GET /v1/deliveries/wait`.
    static func waitForDeliveries(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        let allowed = DeliveryQueryParser.ownParameters(of: .waitForDeliveries)
        return { request, _ in try await waitRoute(request, allowing: allowed, reader: reader, executor: executor) }
    }

    /// `GET /v1/deliveries/{apnsId}`.
    static func getDelivery(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        return { _, context in
            try await recordRoute(context, reader: reader, executor: executor) { record in
                // The record, and what it says in words (`RecordExplanation`).
                let explanation = RecordExplanation.text(of: record, reader: reader)
                var writer = JSONWriter(capacity: 2048)
                var tokens = DeliveryRecordJSON.TokenCache()
                DeliveryRecordJSON.write(record, to: &writer, tokens: &tokens) { writer in
                    writer.key("explanation")
                    writer.string(explanation)
                }
                return json(status: .ok, writer.bytes)
            }
        }
    }

    /// `GET /v1/deliveries/{apnsId}/preview`.
    static func getDeliveryPreview(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        return { _, context in
            try await recordRoute(context, reader: reader, executor: executor) { record in
                guard let preview = record.analysis?.preview else {
                    return errorResponse(.notFound(noPreviewReason(record)))
                }
                var writer = JSONWriter(capacity: 256)
                preview.write(to: &writer)
                return json(status: .ok, writer.bytes)
            }
        }
    }

    /// `GET /v1/deliveries/{apnsId}/simulator.apns`.
    static func getDeliverySimulatorFile(_ services: AdminServices) -> Handler {
        let reader = services.reader
        let executor = services.executor
        return { _, context in
            try await recordRoute(context, reader: reader, executor: executor) { record in
                let file: [UInt8]
                do {
                    file = try SimulatorPushFile.encode(
                        payload: record.payload, topic: record.topic, pushType: record.pushType)
                } catch {
                    return errorResponse(
                        .notFound(
                            "delivery '\(record.apnsID.text)' has a payload that is not a JSON object (\(record.payloadKind.rawValue)); an .apns file needs one"
                        ))
                }
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "application/json",
                        .contentDisposition: "attachment; filename=\"\(record.apnsID.text).apns\"",
                    ],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: file)))
            }
        }
    }

    /// `GET /v1/events`.
    static func deliveryEvents(_ services: AdminServices) -> Handler {
        let allowed = DeliveryQueryParser.ownParameters(of: .deliveryEvents)
        return { request, _ in
            eventStream(
                request, allowing: allowed, reader: services.reader, executor: services.executor,
                metrics: services.metrics, rendered: services.renderedEvents)
        }
    }

    /// The expectations of a `POST /v1/verify` body: `{"expect": [...]}` or the bare list, each
    /// `within` (a step's too) at most `maximumWaitSeconds`.
    static func verifyBody(_ body: [UInt8]) throws(AdminError) -> [DeliveryExpectation] {
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue.parsing(body)
        } catch {
            throw .badRequest(
                "the body is not valid JSON (\(error.description)); it should be {\"expect\": [expectations]}")
        }
        if case .object(let members) = document {
            for member in members where member.key != "expect" {
                throw .badRequest(
                    "the body's field '\(member.key)' is not known; the body is {\"expect\": [expectations]}")
            }
        }
        let expectations: [DeliveryExpectation]
        do throws(MatcherError) {
            expectations = try DeliveryExpectation.list(document["expect"] ?? document)
        } catch {
            throw .badRequest(error.message)
        }
        for expectation in expectations {
            for window in [expectation] + (expectation.steps ?? []) where (window.within ?? 0) > maximumWaitSeconds {
                throw .badRequest("'\(window.name)': within must be at most \(Int(maximumWaitSeconds)) seconds")
            }
        }
        return expectations
    }

    /// The query string as (name, value) pairs, in order.
    static func parameters(_ request: Request) -> [(String, String)] {
        request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    }

    /// Refuses any query parameter (400 `badParameter` naming the first).
    static func noParameters(_ request: Request) throws(AdminError) {
        if let (name, _) = parameters(request).first {
            throw .badParameter("query parameter '\(name)' is not known here; this call takes none")
        }
    }

    /// `GET /v1/deliveries/{apnsId}/…`: the most recent record with that id, handed to `answer`
    /// (400 for an id that is no UUID, 404 when none is stored).
    static func recordRoute(
        _ context: BasicRequestContext, reader: DeliveryReader, executor: AdminExecutor,
        _ answer: @escaping @Sendable (DeliveryRecord) -> Response
    ) async throws -> Response {
        let id = context.parameters.get("apnsId") ?? ""
        guard APNSMessageID.isValid(id) else {
            return errorResponse(
                .badParameter("path parameter 'apnsId' must be a UUID (8-4-4-4-12 hex digits); got '\(id)'"))
        }
        return try await executor.run(.prompt) {
            guard let record = reader.latest(apnsID: id) else {
                return errorResponse(.notFound("no delivery with apnsId '\(id)' is stored"))
            }
            return answer(record)
        }
    }

    /// Why a record has no preview, in words.
    static func noPreviewReason(_ record: DeliveryRecord) -> String {
        let id = record.apnsID.text
        if let status = record.status, status != 200 {
            let reason = record.reason.map { " \($0.rawValue)" } ?? ""
            return "delivery '\(id)' was rejected (\(status)\(reason)); only accepted pushes have a preview"
        }
        return
            "delivery '\(id)' has a payload that is not a JSON object (\(record.payloadKind.rawValue)); it has no preview"
    }

    /// One page of `GET /v1/deliveries` as JSON.
    static func deliveriesPage(_ page: DeliveryPage) -> Response {
        json(
            status: .ok,
            deliveriesJSON(
                page.deliveries,
                extra: { writer in
                    writer.key("next")
                    writer.number(page.next)
                    writer.key("total")
                    writer.number(page.total)
                    writer.key("dropped")
                    writer.number(page.dropped)
                }))
    }

    /// `{"deliveries":[…], …extra}`.
    static func deliveriesJSON(_ records: [DeliveryRecord], extra: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: 512 + records.count * 900)
        writer.beginObject()
        writer.key("deliveries")
        writer.beginArray()
        var tokens = DeliveryRecordJSON.TokenCache()
        for record in records { DeliveryRecordJSON.write(record, to: &writer, tokens: &tokens) }
        writer.endArray()
        extra(&writer)
        writer.endObject()
        return writer.bytes
    }

    // MARK: wait

    /// `GET /v1/deliveries/wait?count=N&timeout=S&<matcher>`: 200 with the matching records as
    /// soon as at least `count` exist, else 408 with those seen when `timeout` runs out, or 503
    /// (`shuttingDown`) when the mock's graceful shutdown ends the wait first.
    static func waitRoute(
        _ request: Request, allowing allowed: Set<String>, reader: DeliveryReader, executor: AdminExecutor
    ) async throws -> Response {
        let parsed: DeliveryQueryParser.Parsed
        do throws(AdminError) {
            parsed = try DeliveryQueryParser.parse(parameters(request), allowing: allowed)
        } catch {
            return errorResponse(error)
        }
        let countText = parsed.extra["count"] ?? "1"
        guard let count = Int(countText), count >= 1, count <= DeliveryQueryParser.maximumLimit else {
            return errorResponse(
                .badParameter(
                    "query parameter 'count' must be a number from 1 to \(DeliveryQueryParser.maximumLimit); got '\(countText)'"
                ))
        }
        let timeoutText = parsed.extra["timeout"] ?? "30"
        guard let timeout = DurationText.seconds(timeoutText), timeout >= 0, timeout <= maximumWaitSeconds else {
            return errorResponse(
                .badParameter(
                    "query parameter 'timeout' must be a duration of at most \(Int(maximumWaitSeconds)) seconds (a number of seconds, or '500ms', '5s', '2m'); got '\(timeoutText)'"
                ))
        }
        let query = parsed.query
        let (outcome, cutShort) = try await ShutdownCutoff.run {
            try await waitForMatches(reader: reader, executor: executor, query: query, count: count, timeout: timeout)
        }
        if cutShort && !outcome.satisfied {
            return errorResponse(
                .shuttingDown(
                    "apns-mock is shutting down (SIGTERM or stop()): the wait ended with \(outcome.records.count) of \(count) matching records"
                ))
        }
        // A wait that timed out says what came closest, as a failed verification does.
        let nearMisses =
            outcome.satisfied || query.matcher.isEmpty
            ? []
            : try await executor.run(.bulk) {
                ExpectationVerifier.nearMisses(
                    of: query.matcher, excluding: Set(outcome.records.map(\.sequence)), reader: reader)
            }
        return json(
            status: outcome.satisfied ? .ok : .requestTimeout,
            deliveriesJSON(outcome.records) { writer in
                writer.key("count")
                writer.number(outcome.records.count)
                writer.key("satisfied")
                writer.bool(outcome.satisfied)
                if !outcome.satisfied {
                    writer.key("nearMisses")
                    ExpectationVerifier.writeNearMisses(nearMisses, to: &writer)
                    writer.key("explanation")
                    writer.string(
                        waitExplanation(
                            query: query, timeout: timeout, count: count, records: outcome.records,
                            nearMisses: nearMisses, host: request.headers[.init("Host")!] ?? request.head.authority
                        ).text)
                }
            })
    }

    /// What a wait that timed out says in words (the 408's `explanation`): how many records
    /// matched, the closest others and how they differ, and the dashboard filtered to the query
    /// (its address from the request's `Host`).
    static func waitExplanation(
        query: DeliveryQuery, timeout: Double, count: Int, records: [DeliveryRecord],
        nearMisses: [ExpectationVerifier.NearMiss], host: String?
    ) -> WaitExplanation {
        let matcher = query.matcher
        return WaitExplanation(
            timeout: DurationText.format(seconds: timeout), wanted: count,
            conditions: matcher.conditions.map { "\($0.fieldName)=\($0.expectedText)" }.joined(separator: " "),
            matched: records.map(\.summary.text),
            nearMisses: nearMisses.map { miss in
                WaitExplanation.NearMiss(
                    summary: miss.record.summary.text, satisfied: miss.satisfied, of: miss.results.count,
                    differences: miss.results.filter { !$0.matched }.map {
                        WaitExplanation.Difference(
                            field: $0.condition.fieldName, expected: $0.condition.expectedText, actual: $0.actual,
                            suggestion: $0.suggestion)
                    })
            },
            dashboard: WaitExplanation.dashboardLink(
                host: host ?? "127.0.0.1:2198", queryString: matcher.queryString))
    }

    /// Waits until `query` matches at least `count` records, scanning on the admin threads.
    static func waitForMatches(
        reader: DeliveryReader, executor: AdminExecutor, query: DeliveryQuery, count: Int, timeout: Double
    ) async throws -> (records: [DeliveryRecord], satisfied: Bool) {
        try await reader.store.waitForMatches(
            query, count: count, timeout: .milliseconds(Int64(timeout * 1000)), analyses: reader.analyses
        ) {
            try await executor.run(.prompt, $0)
        }
    }

    // MARK: events

    /// `GET /v1/events?<matcher>[&behind=batch|end]`: Server-Sent Events, one `delivery` event
    /// per new matching record (id: its sequence number), and one more (without id) when a record
    /// sent while its answer was pending gets its answer, or a record the filter did not match
    /// while pending matches once answered. `Last-Event-ID` (or `since`) resumes after that
    /// record. A reader that falls behind gets runs of records summarised in `batch` events
    /// (`DeliveryEventStream`) and the stream goes on; with `behind=end`, one so far behind that
    /// records age out of the store before it reads them gets a final `dropped` event saying how
    /// many it missed, and the stream ends.
    static func eventStream(
        _ request: Request, allowing allowed: Set<String>, reader: DeliveryReader, executor: AdminExecutor,
        metrics: MockMetrics, rendered: RenderedEventCache
    ) -> Response {
        let store = reader.store
        let parsed: DeliveryQueryParser.Parsed
        let behind: DeliveryEventStream.Behind
        do throws(AdminError) {
            parsed = try DeliveryQueryParser.parse(parameters(request), allowing: allowed)
            behind = try behindParameter(parsed.extra["behind"])
        } catch {
            return errorResponse(error)
        }
        var start = parsed.query.since ?? (store.nextSequence - 1)
        if let lastEventID = request.headers[.init("Last-Event-ID")!].flatMap({ UInt64($0) }) {
            start = lastEventID
        }
        let query = parsed.query
        let startSequence = start
        let body = ResponseBody { writer in
            let subscription = store.notifier.subscribe(token: query.matcher.indexableToken)
            metrics.eventStream(opened: true)
            defer {
                subscription.cancel()
                metrics.eventStream(opened: false)
            }
            let keepAlive = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    subscription.poke()
                }
            }
            defer { keepAlive.cancel() }
            // A graceful shutdown (SIGTERM, `stop()`) ends the stream at once: the server does not
            // wait for readers that never hang up.
            try await withGracefulShutdownHandler {
                var stream = DeliveryEventStream(
                    follower: reader.follower(query, after: startSequence), behind: behind, executor: executor,
                    rendered: rendered)
                try await writer.write(ByteBuffer(string: ": apns-mock delivery events\n\n"))
                var signals = subscription.signals.makeAsyncIterator()
                reading: while true {
                    let output = try await stream.next()
                    try await writer.write(ByteBuffer(bytes: output.bytes))
                    switch output.then {
                    case .more: continue
                    case .waitForRecords: guard await signals.next() != nil else { break reading }
                    case .end: break reading
                    }
                }
            } onGracefulShutdown: {
                subscription.cancel()
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }

    /// The `behind` parameter of `GET /v1/events` (`batch` when absent).
    static func behindParameter(_ value: String?) throws(AdminError) -> DeliveryEventStream.Behind {
        guard let value else { return .batch }
        guard let behind = DeliveryEventStream.Behind(rawValue: value) else {
            throw .badParameter(
                "query parameter 'behind' must be 'batch' (a reader that falls behind gets runs of records summarised) or 'end' (it gets a final 'dropped' event); got '\(value)'"
            )
        }
        return behind
    }

    /// `delivery` events for `records`. A new record's event carries its sequence number as
    /// `id` (what `Last-Event-ID` resumes after); a record sent again because its answer was
    /// decided since (`identified: false`) carries none, so a reconnecting reader does not
    /// resume before newer records it already has.
    public static func events(_ records: [DeliveryRecord], identified: Bool) -> [UInt8] {
        events(records, identified: identified, cache: RenderedEventCache(capacity: 1))
    }

    /// The events of `records`, each rendered once for every reader sharing `cache`.
    static func events(_ records: [DeliveryRecord], identified: Bool, cache: RenderedEventCache) -> [UInt8] {
        var bytes: [UInt8] = []
        var tokens = DeliveryRecordJSON.TokenCache()
        for record in records {
            if identified { bytes += Array("id: \(record.sequence)\n".utf8) }
            bytes += cache.event(for: record, tokens: &tokens)
        }
        return bytes
    }

    static func json(status: HTTPResponse.Status, _ bytes: [UInt8]) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func errorResponse(_ error: AdminError) -> Response {
        json(status: HTTPResponse.Status(code: error.status), error.body)
    }
}
