import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock fault add|list|delete`: fault rules through `/v1/faults`.
struct FaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fault",
        abstract: "Add, list and delete fault rules (/v1/faults; docs/FAULTS.md).",
        subcommands: [Add.self, List.self, Delete.self])

    /// `apns-mock fault add [RULE-JSON] [--id ID] [--token T] [--respond 410/Unregistered] …`.
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a fault rule: as JSON, or with flags for the common cases.",
            discussion: """
                With --id the rule is created or replaced (PUT /v1/faults/ID), so a script can run \
                twice; without, it is added after the others (POST /v1/faults) and named f1, f2, …. \
                Flags fill in what the JSON leaves out: apns-mock fault add --id gone \
                --token 740f… --respond 410/Unregistered --first 1. Prints the rule's id.
                """)

        @Argument(
            help: ArgumentHelp("The rule as JSON: {\"match\": …, \"select\": …, \"action\": …}.", valueName: "rule"))
        var rule: String?
        @Option(help: "The rule's id (create or replace).") var id: String?
        @Option(help: "Match pushes to this device token.") var token: String?
        @Option(help: "Match pushes to tokens starting with these hex digits.") var tokenPrefix: String?
        @Option(help: "Match pushes with this apns-topic.") var topic: String?
        @Option(
            help: ArgumentHelp(
                "Answer with this status and reason, e.g. 410/Unregistered, 503/ServiceUnavailable, 429.",
                valueName: "status/reason"))
        var respond: String?
        @Option(help: ArgumentHelp("Wait this long before answering (500ms, 2s).", valueName: "duration"))
        var delay: String?
        @Flag(help: "Send GOAWAY on the connection (the default last stream).") var goaway = false
        @Flag(help: "Reset the stream (RST_STREAM REFUSED_STREAM).") var reset = false
        @Flag(help: "Never answer.") var hang = false
        @Option(help: "Act on the first N matching requests only.") var first: Int?
        @OptionGroup var options: AdminOptions

        func run() throws {
            let body = Self.ruleJSON(
                rule: rule, token: token, tokenPrefix: tokenPrefix, topic: topic, respond: respond, delay: delay,
                goaway: goaway, reset: reset, hang: hang, first: first)
            let response: AdminAPIResponse
            if let id {
                response = options.call("fault add", .putFault, path: ["id": id], body: body, expecting: [200, 201])
            } else {
                response = options.call("fault add", .addFault, body: body, expecting: [201])
            }
            if options.json { return AdminOptions.printJSON(response) }
            print(JSONValue.parse(response.body)?["id"]?.scalarText ?? "")
        }

        /// The rule's JSON: `rule` (when given) with the flags' fields laid over it.
        static func ruleJSON(
            rule: String?, token: String?, tokenPrefix: String?, topic: String?, respond: String?, delay: String?,
            goaway: Bool, reset: Bool, hang: Bool, first: Int?
        ) -> [UInt8] {
            var members: [(key: String, value: JSONValue)] = []
            if let rule {
                do throws(JSONSyntaxError) {
                    guard case .object(let given) = try JSONValue.parsing(Array(rule.utf8)) else {
                        fail(2, "apns-mock fault add: the rule must be a JSON object: {\"match\": …, \"action\": …}")
                    }
                    members = given
                } catch {
                    fail(2, "apns-mock fault add: the rule is not valid JSON (\(error.description))")
                }
            }
            func set(_ key: String, _ field: String, _ value: JSONValue) {
                var object: [(key: String, value: JSONValue)] = []
                if let index = members.firstIndex(where: { $0.key == key }) {
                    guard case .object(let existing) = members[index].value else {
                        fail(2, "apns-mock fault add: the rule's '\(key)' must be an object")
                    }
                    object = existing.filter { $0.key != field }
                    members.remove(at: index)
                }
                object.append((field, value))
                members.append((key, .object(object)))
            }
            if let token { set("match", "token", .string(token)) }
            if let tokenPrefix { set("match", "tokenPrefix", .string(tokenPrefix)) }
            if let topic { set("match", "topic", .string(topic)) }
            if let first {
                guard first >= 1 else { fail(2, "apns-mock fault add: --first must be at least 1; got \(first)") }
                set("select", "first", .integer(Int64(first)))
            }
            if let delay {
                guard DurationText.seconds(delay) != nil else {
                    fail(2, "apns-mock fault add: --delay must be a duration such as 500ms or 2s; got '\(delay)'")
                }
                set("action", "delay", .object([("duration", .string(delay))]))
            }
            if let respond {
                let parts = respond.split(separator: "/", maxSplits: 1)
                guard let status = parts.first.flatMap({ Int($0) }) else {
                    fail(
                        2,
                        "apns-mock fault add: --respond is STATUS[/REASON] such as 410/Unregistered; got '\(respond)'")
                }
                var answer: [(key: String, value: JSONValue)] = [("status", .integer(Int64(status)))]
                if parts.count == 2 { answer.append(("reason", .string(String(parts[1])))) }
                set("action", "respond", .object(answer))
            }
            if goaway { set("action", "goaway", .object([])) }
            if reset { set("action", "resetStream", .object([("errorCode", .string("REFUSED_STREAM"))])) }
            if hang { set("action", "hang", .object([])) }
            guard members.contains(where: { $0.key == "action" }) else {
                fail(
                    2,
                    "apns-mock fault add: say what the rule does: --respond, --delay, --goaway, --reset, --hang, or an \"action\" in the JSON"
                )
            }
            var writer = JSONWriter(capacity: 256)
            JSONValue.object(members).write(to: &writer)
            return writer.bytes
        }
    }

    /// `apns-mock fault list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the fault rules with their counts.")
        @OptionGroup var options: AdminOptions

        func run() throws {
            let response = options.call("fault list", .listFaults)
            if options.json { return AdminOptions.printJSON(response) }
            guard case .array(let rules)? = JSONValue.parse(response.body)?["faults"], !rules.isEmpty else {
                return print("no fault rules")
            }
            for rule in rules {
                var line = rule["id"]?.scalarText ?? "?"
                for key in ["match", "select", "action"] {
                    guard let value = rule[key], value != .object([]) else { continue }
                    line += "  \(key) \(value.jsonText)"
                }
                line += "  hits \(rule["hits"]?.scalarText ?? "0")"
                print(line)
            }
        }
    }

    /// `apns-mock fault delete ID…` or `--all`.
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete fault rules by id, or all of them.")
        @Argument(help: ArgumentHelp("The rules' ids.", valueName: "id")) var ids: [String] = []
        @Flag(help: "Delete every rule.") var all = false
        @OptionGroup var options: AdminOptions

        func validate() throws {
            guard all != !ids.isEmpty else { throw ValidationError("name the rules to delete, or pass --all") }
        }

        func run() throws {
            if all {
                let response = options.call("fault delete", .deleteFaults)
                if options.json { return AdminOptions.printJSON(response) }
                return print("deleted \(JSONValue.parse(response.body)?["removed"]?.scalarText ?? "0") rule(s)")
            }
            for id in ids {
                _ = options.call("fault delete", .deleteFault, path: ["id": id], expecting: [204])
            }
        }
    }
}
