import APNSMockCore
import APNSMockRegistry

extension FaultInputs {
    /// The fault controls that are on (`active`), as the machine's fault policy reads them for
    /// one request: the modes, the behaviors, the throttle, and the rules, whose facts
    /// (`LiveRequestFacts`) are made only for a push some rule could match.
    static func live(
        _ active: FaultControl.Active, faults: FaultControl, request: APNSRequest, environment: APNSEnvironment,
        now: Int64, connectionID: UInt64, analysisOptions: PayloadAnalysisOptions, registry: Registry,
        analysis: LiveRequestFacts.AnalysisCache
    ) -> FaultInputs {
        var inputs = FaultInputs()
        inputs.shutdownMode = active.contains(.shutdown) && faults.isShuttingDown
        inputs.unavailable = active.contains(.unavailable) && faults.unavailableUntil(now: now) != nil
        if active.contains(.behaviors) { inputs.behaviors = faults.behaviors }
        if active.contains(.throttle) { inputs.throttle = { faults.throttled(token: $0, now: now) } }
        if active.contains(.rules) {
            inputs.rule = { verdict, answer in
                // Most pushes meet no rule that could match them: no facts made, nothing matched.
                guard let candidates = faults.ruleSet.candidates(token: verdict.namedToken) else { return nil }
                return faults.evaluate(
                    candidates,
                    facts: LiveRequestFacts(
                        verdict: verdict, request: request, environment: environment, answer: answer,
                        connectionID: connectionID, analysisOptions: analysisOptions, registry: registry,
                        analysis: analysis),
                    connectionID: connectionID, now: now)
            }
        }
        return inputs
    }
}
