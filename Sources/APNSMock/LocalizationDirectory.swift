import APNSMockCore
import APNSMockRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads an app's localizations from a directory (`--localizations DIR`): every
/// `*.lproj/Localizable.strings` (the locale is the `.lproj` name) and every `.xcstrings`
/// catalog, at any depth, into a `LocalizationCatalog`.
public enum LocalizationDirectory {
    /// A directory that could not be read, or a file in it that could not be parsed.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The catalog of the files under `path`.
    /// - Throws: `LoadError` naming the directory, or the file and line that is wrong.
    public static func load(path: String) throws(LoadError) -> LocalizationCatalog {
        let root = URL(fileURLWithPath: path)
        if let problem = FileProblem.check(root.path, expecting: .directory) {
            throw LoadError(description: "localizations directory '\(path)': \(problem)")
        }
        guard let relatives = try? FileManager.default.subpathsOfDirectory(atPath: root.path) else {
            throw LoadError(description: "localizations directory '\(path)' cannot be read")
        }
        var catalog = LocalizationCatalog()
        var found = 0
        for relative in relatives.sorted() {
            let url = root.appendingPathComponent(relative)
            let parts = relative.split(separator: "/")
            let isStrings =
                relative.hasSuffix("Localizable.strings") && parts.count >= 2
                && parts[parts.count - 2].hasSuffix(".lproj") && parts.last == "Localizable.strings"
            let isCatalog = relative.hasSuffix(".xcstrings")
            guard isStrings || isCatalog else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LoadError(description: "localizations: cannot read '\(relative)'")
            }
            do {
                if isCatalog {
                    try catalog.addStringCatalog(Array(data), fileName: relative)
                } else {
                    let locale = String(parts[parts.count - 2].dropLast(".lproj".count))
                    try catalog.addStringsFile(Array(data), locale: locale, fileName: relative)
                }
            } catch {
                throw LoadError(description: "localizations: \(error)")
            }
            found += 1
        }
        guard found > 0 else {
            throw LoadError(
                description:
                    "localizations directory '\(path)' holds no *.lproj/Localizable.strings and no .xcstrings file")
        }
        return catalog
    }
}
