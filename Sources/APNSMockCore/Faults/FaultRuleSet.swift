/// The fault rules as the answer path matches them: an immutable snapshot, made whenever the
/// rules change and shared by every connection behind one reference.
///
/// A rule whose matcher names a device token is filed under that token's fingerprint, so a
/// push is matched only against the rules filed under its own token's fingerprint and the
/// rules that name no token: ten rules on tokens the load does not use cost a push one
/// fingerprint and one look-up, not ten matches (nor the facts the matches read).
public final class FaultRuleSet: Sendable {
    /// The rules in the order they are tried (creation order).
    public let rules: [FaultRule]
    /// The positions in `rules` of the rules that name a token, under its fingerprint.
    private let positionsByFingerprint: [UInt64: [Int]]
    /// The positions of the rules that name no token.
    private let unfiledPositions: [Int]

    /// The set with no rule.
    public static let empty = FaultRuleSet([])

    public init(_ rules: [FaultRule]) {
        self.rules = rules
        var byFingerprint: [UInt64: [Int]] = [:]
        var unfiled: [Int] = []
        for (position, rule) in rules.enumerated() {
            if let token = rule.matcher.token {
                byFingerprint[Self.fingerprint(token), default: []].append(position)
            } else {
                unfiled.append(position)
            }
        }
        positionsByFingerprint = byFingerprint
        unfiledPositions = unfiled
    }

    /// The rules that could match a push to `token` (the path's token, well-formed or not), in
    /// the order they are tried; `nil` when none could.
    public func candidates(token: String?) -> Candidates? {
        var filed: [Int] = []
        if !positionsByFingerprint.isEmpty, let token {
            filed = positionsByFingerprint[Self.fingerprint(token)] ?? []
        }
        guard !filed.isEmpty || !unfiledPositions.isEmpty else { return nil }
        return Candidates(ruleSet: self, filed: filed)
    }

    /// The ids of the rules that match `facts` on connection `connectionID`, in the order they
    /// are tried.
    public func matchingIDs(_ facts: some DeliveryFacts, connectionID: UInt64) -> [String] {
        candidates(token: facts.matchToken)?.matchingIDs(facts, connectionID: connectionID) ?? []
    }

    /// Some of the rules, in creation order: those filed under one token's fingerprint and
    /// those filed under none.
    public struct Candidates {
        let ruleSet: FaultRuleSet
        let filed: [Int]

        /// The ids of the candidates that match `facts` on connection `connectionID`, in the
        /// order they are tried.
        public func matchingIDs(_ facts: some DeliveryFacts, connectionID: UInt64) -> [String] {
            var ids: [String] = []
            let rules = ruleSet.rules
            let unfiled = ruleSet.unfiledPositions
            // The two position lists, each ascending, merged so that creation order holds.
            var nextFiled = 0
            var nextUnfiled = 0
            while nextFiled < filed.count || nextUnfiled < unfiled.count {
                let position: Int
                if nextUnfiled == unfiled.count || (nextFiled < filed.count && filed[nextFiled] < unfiled[nextUnfiled])
                {
                    position = filed[nextFiled]
                    nextFiled += 1
                } else {
                    position = unfiled[nextUnfiled]
                    nextUnfiled += 1
                }
                if rules[position].matches(facts, connectionID: connectionID) { ids.append(rules[position].id) }
            }
            return ids
        }
    }

    /// A token's fingerprint: its length and its first and last 8 bytes, ASCII capitals read as
    /// small letters, so that tokens `ASCIIBytes.equalIgnoringCase` calls equal share one (a
    /// `token` condition compares that way). Different tokens may share one too: the rules
    /// filed under it are still matched in full.
    static func fingerprint(_ token: String) -> UInt64 {
        func fold(_ bytes: some Collection<UInt8>) -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes { value = value << 8 | UInt64(ASCIIBytes.lowercased(byte)) }
            return value
        }
        let utf8 = token.utf8
        let count = UInt64(utf8.count)
        let ends =
            utf8.withContiguousStorageIfAvailable { fold($0.prefix(8)) ^ (fold($0.suffix(8)) &* 0x9E37_79B9_7F4A_7C15) }
            ?? fold(utf8.prefix(8)) ^ (fold(utf8.suffix(8)) &* 0x9E37_79B9_7F4A_7C15)
        return ends ^ (count &* 0xC2B2_AE3D_27D4_EB4F)
    }
}
