/// "Did you mean" for a matcher condition whose path no record has (`payload.aps.alert.titel`):
/// the key paths the records do have, and the one closest to the misspelled path.
public enum PathSuggestion {
    /// How deep `paths(of:under:into:)` descends.
    static let maximumDepth = 12
    /// The array elements `paths(of:under:into:)` reads at most per array.
    static let maximumElements = 8

    /// Adds every key path of `document` to `paths`, each written as a matcher field (`prefix`,
    /// then each key or array index after a dot: `payload.aps.alert.title`,
    /// `payload.items.0.id`), objects and arrays included.
    public static func paths(of document: JSONValue, under prefix: String, into paths: inout Set<String>) {
        collect(document, prefix, depth: 0, into: &paths)
    }

    private static func collect(_ value: JSONValue, _ path: String, depth: Int, into paths: inout Set<String>) {
        guard depth < maximumDepth else { return }
        switch value {
        case .object(let members):
            for member in members {
                let child = path + "." + member.key
                paths.insert(child)
                collect(member.value, child, depth: depth + 1, into: &paths)
            }
        case .array(let elements):
            for (index, element) in elements.prefix(maximumElements).enumerated() {
                let child = path + "." + String(index)
                paths.insert(child)
                collect(element, child, depth: depth + 1, into: &paths)
            }
        default:
            break
        }
    }

    /// The path in `paths` closest to `field` (`NameSuggestion`, ignoring case), when one is
    /// close enough to be a typo of it; the first in sorted order on a tie.
    public static func suggestion(for field: String, among paths: Set<String>) -> String? {
        NameSuggestion.closest(to: field, among: paths.sorted())
    }
}
