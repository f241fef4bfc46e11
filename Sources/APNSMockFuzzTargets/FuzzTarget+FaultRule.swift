import APNSMockCore
import APNSMockRegistry
import APNSMockStore

extension FuzzTarget {
    /// A `POST /v1/faults` body: parsed as JSON, added to a fault control as the route does,
    /// matched and settled against the stored pushes, and listed as `GET /v1/faults` lists it. The listed
    /// rule's JSON must parse back into a rule.
    static let faultRule = FuzzTarget(
        name: "fault-rule",
        summary: "a fault rule JSON body -> FaultControl.addRule, match and settle, the listed JSON read back",
        maximumLength: 2048
    ) { bytes in
        guard let json = JSONValue.parse(bytes) else { return }
        let faults = FaultControl(defaultSeed: 42)
        let rule: FaultRule
        do throws(FaultRuleError) {
            rule = try faults.addRule(json: json, now: FuzzFixtures.now)
        } catch {
            _ = error.message
            return
        }
        for record in FuzzDeliveries.reader.query(DeliveryQuery(limit: 16)).deliveries {
            let matching = faults.snapshot.rules.matchingIDs(record, connectionID: record.connectionID)
            _ = faults.settle(FaultClaim(rules: matching), now: FuzzFixtures.now)
        }
        for listed in faults.rules() {
            var writer = JSONWriter(capacity: 512)
            listed.rule.write(to: &writer, hits: listed.hits, matches: listed.matches)
            guard let written = JSONValue.parse(writer.bytes) else {
                preconditionFailure("a listed fault rule is not JSON")
            }
            do throws(FaultRuleError) {
                _ = try FaultRule.parse(written, id: rule.id, createdAt: FuzzFixtures.now, defaultSeed: 42)
            } catch {
                preconditionFailure("a listed fault rule does not read back: \(error.message)")
            }
        }
    }
}
