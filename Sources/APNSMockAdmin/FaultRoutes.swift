import APNSMockCore
import APNSMockRegistry
import Hummingbird
import NIOCore

/// Admin routes for fault injection: rules (`/v1/faults`), APNs behaviors (`/v1/behaviors`),
/// server-wide modes (`/v1/modes/…`) and the connection log (`/v1/connections`). Live
/// connections are reached through `ConnectionControl`, never the transport.
enum FaultRoutes {
    /// What the routes work on.
    struct Targets: Sendable {
        var faults: FaultControl
        var connectionLog: ConnectionLog
        var connections: (any ConnectionControl)?
        var now: @Sendable () -> Int64
    }

    /// `GET /v1/connections[?state=open|all]`.
    static func listConnections(_ targets: Targets) -> AdminRouter.Handler {
        { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                var liveOnly = false
                for (name, value) in AdminRouter.parameters(request) {
                    guard name == "state", value == "open" || value == "all" else {
                        throw .badParameter(
                            "query parameter '\(name)=\(value)' is not known here; GET /v1/connections takes state=open|all"
                        )
                    }
                    liveOnly = value == "open"
                }
                return AdminRouter.json(status: .ok, targets.connectionLog.json(liveOnly: liveOnly))
            }
        }
    }

    // MARK: rules

    /// `POST /v1/faults`: 201 with the rule, 409 when its id is taken.
    static func addFault(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let json = try await RegistryRoutes.readJSON(request, shape: ruleShape)
                let rule: FaultRule
                do throws(FaultRuleError) {
                    rule = try faults.addRule(json: json, now: targets.now())
                } catch  where error.code == .duplicateID {
                    throw .faultRuleExists("\(error.message); PUT /v1/faults/{id} replaces a rule, DELETE removes it")
                } catch {
                    throw .badRequest(error.message)
                }
                return ruleResponse(FaultControl.ListedRule(rule: rule, hits: 0, matches: 0), status: .created)
            }
        }
    }

    /// `PUT /v1/faults/{id}`: create or replace; the same request twice leaves the same rule
    /// (its counts start again).
    static func putFault(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("id") ?? ""
                let json = try await RegistryRoutes.readJSON(request, shape: ruleShape)
                let put: (rule: FaultRule, created: Bool)
                do throws(FaultRuleError) {
                    put = try faults.putRule(json: json, id: id, now: targets.now())
                } catch {
                    throw .badRequest(error.message)
                }
                return ruleResponse(
                    FaultControl.ListedRule(rule: put.rule, hits: 0, matches: 0), status: put.created ? .created : .ok)
            }
        }
    }

    /// `GET /v1/faults`.
    static func listFaults(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in
            var json = JSONWriter(capacity: 1024)
            json.beginObject()
            json.key("faults")
            json.beginArray()
            for listed in faults.rules() { listed.rule.write(to: &json, hits: listed.hits, matches: listed.matches) }
            json.endArray()
            json.endObject()
            return AdminRouter.json(status: .ok, json.bytes)
        }
    }

    /// `GET /v1/faults/{id}`.
    static func getFault(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("id") ?? ""
                guard let listed = faults.rule(id: id) else { throw unknownRule(id) }
                return ruleResponse(listed, status: .ok)
            }
        }
    }

    /// `DELETE /v1/faults/{id}`.
    static func deleteFault(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let id = context.parameters.get("id") ?? ""
                guard faults.removeRule(id: id) else { throw unknownRule(id) }
                return Response(status: .noContent)
            }
        }
    }

    /// `DELETE /v1/faults`: every rule.
    static func deleteFaults(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in
            let removed = faults.removeAllRules()
            return AdminRouter.json(status: .ok, Array(#"{"removed":\#(removed)}"#.utf8))
        }
    }

    /// What a rule's body looks like, for errors about it.
    private static let ruleShape = #"a JSON object: {"match": …, "select": …, "action": …}"#

    private static func unknownRule(_ id: String) -> AdminError {
        .notFound("no fault rule with id '\(id)'; GET /v1/faults lists them")
    }

    private static func ruleResponse(_ listed: FaultControl.ListedRule, status: HTTPResponse.Status) -> Response {
        var json = JSONWriter(capacity: 512)
        listed.rule.write(to: &json, hits: listed.hits, matches: listed.matches)
        return AdminRouter.json(status: status, json.bytes)
    }

    // MARK: behaviors

    /// `GET /v1/behaviors`.
    static func listBehaviors(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in AdminRouter.json(status: .ok, behaviorsJSON(faults)) }
    }

    /// `POST /v1/behaviors`: `{"name": …, "lockout": …}`.
    static func enableBehavior(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let shape = #"a JSON object: {"name": "streams-after-rejection"}"#
                guard case .object(let members) = try await RegistryRoutes.readJSON(request, shape: shape) else {
                    throw .badRequest("the body must be \(shape)")
                }
                var behavior: ConnectionBehavior?
                var lockout: Int64?
                for (key, value) in members {
                    switch key {
                    case "name":
                        guard case .string(let name) = value, let known = ConnectionBehavior(rawValue: name) else {
                            throw .badRequest(
                                "'name' must be one of \(ConnectionBehavior.names); got \(value.jsonText)")
                        }
                        behavior = known
                    case "lockout":
                        guard case .string(let text) = value, let seconds = DurationText.seconds(text), seconds > 0,
                            seconds <= 86_400
                        else {
                            throw .badRequest(
                                "'lockout' must be a duration such as \"30s\" (up to 24h); got \(value.jsonText)")
                        }
                        lockout = Int64((seconds * 1000).rounded())
                    default:
                        throw .badRequest(
                            "the body's field '\(key)' is not known; the body is {\"name\": …, \"lockout\": …}")
                    }
                }
                guard let behavior else {
                    throw .badRequest("the body needs 'name': one of \(ConnectionBehavior.names)")
                }
                if lockout != nil, behavior != .tokenUpdateLockout {
                    throw .badRequest("'lockout' applies to token-update-lockout only")
                }
                faults.enable(behavior, lockoutMilliseconds: lockout)
                return AdminRouter.json(status: .created, behaviorsJSON(faults))
            }
        }
    }

    /// `DELETE /v1/behaviors/{name}`.
    static func disableBehavior(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, context in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                let name = context.parameters.get("name") ?? ""
                guard let behavior = ConnectionBehavior(rawValue: name) else {
                    throw .badParameter(
                        "path parameter 'name' must be one of \(ConnectionBehavior.names); got '\(name)'")
                }
                guard faults.disable(behavior) else { throw .notFound("behavior '\(name)' is not on") }
                return Response(status: .noContent)
            }
        }
    }

    private static func behaviorsJSON(_ faults: FaultControl) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("behaviors")
        json.beginArray()
        let enabled = faults.behaviors
        for behavior in ConnectionBehavior.allCases {
            guard let lockout = enabled[behavior] else { continue }
            json.beginObject()
            json.key("name")
            json.string(behavior.rawValue)
            if behavior == .tokenUpdateLockout {
                json.key("lockout")
                json.string(DurationText.format(seconds: Double(lockout) / 1000))
            }
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.bytes
    }

    // MARK: modes

    /// `GET /v1/modes`.
    static func getModes(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in AdminRouter.json(status: .ok, modesJSON(faults, now: targets.now())) }
    }

    /// `POST /v1/modes/shutdown`: a GOAWAY to every open connection.
    static func startShutdown(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                try AdminRouter.noParameters(request)
                faults.setShutdown(true)
                let count = await targets.connections?.goAwayAllConnections(debugData: shutdownDebugData) ?? 0
                return AdminRouter.json(
                    status: .ok, Array(#"{"mode":"shutdown","active":true,"goawaySent":\#(count)}"#.utf8))
            }
        }
    }

    /// `DELETE /v1/modes/shutdown`.
    static func stopShutdown(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in
            faults.setShutdown(false)
            return AdminRouter.json(status: .ok, Array(#"{"mode":"shutdown","active":false}"#.utf8))
        }
    }

    /// `POST /v1/modes/unavailable[?for=DURATION]`.
    static func startUnavailable(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                var until: Int64?
                for (name, value) in AdminRouter.parameters(request) {
                    guard name == "for" else {
                        throw .badParameter("query parameter '\(name)' is not known here; it takes for=DURATION")
                    }
                    guard let seconds = DurationText.seconds(value), seconds > 0, seconds <= 86_400 else {
                        throw .badParameter(
                            "query parameter 'for' must be a duration such as 30s (up to 24h); got '\(value)'")
                    }
                    until = targets.now() + Int64((seconds * 1000).rounded())
                }
                faults.setUnavailable(until: until)
                return AdminRouter.json(status: .ok, modesJSON(faults, now: targets.now()))
            }
        }
    }

    /// `DELETE /v1/modes/unavailable`.
    static func stopUnavailable(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in
            faults.clearUnavailable()
            return AdminRouter.json(status: .ok, modesJSON(faults, now: targets.now()))
        }
    }

    /// `POST /v1/modes/refuse-tls[?count=N]`.
    static func refuseTLS(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { request, _ in
            await RegistryRoutes.answer { () async throws(AdminError) -> Response in
                var count = 1
                for (name, value) in AdminRouter.parameters(request) {
                    guard name == "count", let parsed = Int(value), (1...1_000_000).contains(parsed) else {
                        throw .badParameter(
                            "query parameter '\(name)=\(value)' is not known here; it takes count=N (1 to 1000000)")
                    }
                    count = parsed
                }
                faults.refuseTLS(count: count)
                return AdminRouter.json(status: .ok, modesJSON(faults, now: targets.now()))
            }
        }
    }

    /// `DELETE /v1/modes/refuse-tls`.
    static func stopRefusingTLS(_ targets: Targets) -> AdminRouter.Handler {
        let faults = targets.faults
        return { _, _ in
            faults.refuseTLS(count: 0)
            return AdminRouter.json(status: .ok, modesJSON(faults, now: targets.now()))
        }
    }

    /// The debug data of the shutdown mode's GOAWAY.
    static let shutdownDebugData = APNSErrorBody.encode(reason: .shutdown)

    private static func modesJSON(_ faults: FaultControl, now: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.beginObject()
        json.key("shutdown")
        json.bool(faults.isShuttingDown)
        json.key("unavailable")
        let until = faults.unavailableUntil(now: now)
        json.bool(until != nil)
        json.key("unavailableUntil")
        json.number(until == Int64.max ? nil : until)
        json.key("refuseTls")
        json.number(faults.tlsRefusals)
        json.key("throttle")
        json.string(faults.throttle?.description)
        json.endObject()
        return json.bytes
    }
}
