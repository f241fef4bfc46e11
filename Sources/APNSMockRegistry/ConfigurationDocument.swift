import APNSMockCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An apns-mock YAML configuration file (`apns-mock serve --config FILE`) as written: a mapping
/// of settings under camelCase keys (the `serve` flags' names; `apns-mock.example.yaml` shows
/// every one) and a `setup:` section (`SetupSection`).
///
/// Unknown keys are errors, so a typo is never a silently ignored setting. This reader checks
/// the document's shape, its keys and its `setup`; each setting's value is read by its
/// declaration (`ServeSetting`, in the APNSMock module, which also lists the keys).
public struct ConfigurationDocument: Sendable {
    /// The top-level fields but `setup`, as written and in the order written (`null` included).
    public var settings: [(key: String, value: SpecValue)] = []
    /// Keys and devices registered at start; empty when the file has no `setup`.
    public var setup = SetupSection()

    /// A document that sets nothing.
    public init() {}

    /// Reads the file at `path` (relative paths inside it are relative to its directory);
    /// `settingKeys` are the settings' keys (`setup` aside; `nil` takes any key).
    /// - Throws: `ConfigurationFileError`: one line naming `path`, the key path and the problem.
    public static func load(contentsOf path: String, settingKeys: [String]? = nil, now: Int64)
        throws(ConfigurationFileError) -> ConfigurationDocument
    {
        let text: String
        do {
            text = try FileProblem.readText(path)
        } catch {
            throw ConfigurationFileError(file: path, problem: SpecError(path: "", problem: error.description))
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(yaml: text, file: path, baseDirectory: directory, settingKeys: settingKeys, now: now)
    }

    /// Reads YAML `text`; `file` names it in errors, `baseDirectory` anchors relative paths,
    /// `settingKeys` are the settings' keys (`setup` aside; `nil` takes any key).
    /// - Throws: `ConfigurationFileError` naming `file`, the key path and the problem.
    public static func parse(
        yaml text: String, file: String, baseDirectory: String, settingKeys: [String]? = nil, now: Int64
    ) throws(ConfigurationFileError) -> ConfigurationDocument {
        do throws(SpecError) {
            let root = try SpecValue.parse(yaml: text)
            guard case .object = root else {
                throw SpecError(
                    path: "",
                    problem: "must be a YAML mapping of settings (host: …, port: …); got \(root.kindDescription)")
            }
            return try decode(
                SpecObject(root, path: ""), baseDirectory: baseDirectory, settingKeys: settingKeys, now: now)
        } catch {
            throw ConfigurationFileError(file: file, problem: error)
        }
    }

    private static func decode(
        _ object: SpecObject, baseDirectory: String, settingKeys: [String]?, now: Int64
    ) throws(SpecError) -> ConfigurationDocument {
        if let settingKeys { try object.rejectUnknownFields(known: settingKeys + ["setup"]) }
        var document = ConfigurationDocument()
        for key in object.keys where key != "setup" {
            document.settings.append((key, object.value(key) ?? .null))
        }
        if let setup = try object.object("setup") {
            document.setup = try SetupSection.decode(setup, baseDirectory: baseDirectory, now: now)
        }
        return document
    }
}
