import APNSMockCore
import APNSMockRegistry

/// The settings one source gives, each read and checked by its ``ServeSetting`` declaration:
/// the command line, the environment, or a configuration file.
public struct ServeSettingLayer: Sendable {
    /// Where values come from; it decides how a setting is named in messages.
    public enum Source: Sendable, Equatable {
        /// `serve`'s flags: `--port`.
        case commandLine
        /// Environment variables: `APNS_MOCK_ADMIN_TOKEN`.
        case environment
        /// A configuration file, as the user named it: `port`, after `FILE: `.
        case file(String)
    }

    public let source: Source
    /// The values given, in the declarations' order.
    private let values: [(setting: ServeSetting, value: any Sendable)]

    /// Reads `given` (each setting with its value as written), then checks the settings that
    /// cannot go together in one source (`chain` with `tlsCert`).
    /// - Throws: `SpecError` naming the setting as `source` does.
    public init(_ source: Source, given: [(setting: ServeSetting, value: SpecValue)], baseDirectory: String? = nil)
        throws(SpecError)
    {
        self.source = source
        var values: [(setting: ServeSetting, value: any Sendable)] = []
        for setting in ServeSetting.all {
            guard let written = given.last(where: { $0.setting == setting })?.value else { continue }
            let input = SettingInput(
                written, name: Self.name(of: setting, in: source), baseDirectory: baseDirectory,
                indexesElements: source != .commandLine)
            do {
                values.append((setting, try setting.read(input)))
            } catch let error as SpecError {
                throw error
            } catch {
                throw input.problem("\(error)")
            }
        }
        self.values = values
        for (setting, _) in values {
            if let problem = setting.conflict(self) {
                throw SpecError(path: name(of: setting), problem: problem)
            }
        }
    }

    /// The settings given by the environment (`environment` is the process's).
    /// - Throws: `SpecError` naming the variable.
    public static func environment(_ environment: [String: String]) throws(SpecError) -> ServeSettingLayer {
        var given: [(setting: ServeSetting, value: SpecValue)] = []
        for setting in ServeSetting.all {
            // An empty variable is an unset one.
            guard let variable = setting.environmentVariable, let text = environment[variable], !text.isEmpty
            else { continue }
            given.append((setting, .plain(text)))
        }
        return try ServeSettingLayer(
            .environment, given: given, baseDirectory: try ServeSetting.baseDirectory(environment))
    }

    /// The settings of a configuration file's top-level fields (`setup` aside); `null` is
    /// an absent field.
    /// - Throws: `SpecError` naming the key.
    public static func file(
        _ path: String, fields: [(key: String, value: SpecValue)], baseDirectory: String
    ) throws(SpecError) -> ServeSettingLayer {
        var given: [(setting: ServeSetting, value: SpecValue)] = []
        for (key, value) in fields {
            if case .null = value { continue }
            guard let setting = ServeSetting.all.first(where: { $0.key == key }) else { continue }
            given.append((setting, value))
        }
        return try ServeSettingLayer(.file(path), given: given, baseDirectory: baseDirectory)
    }

    /// Whether this source gives `setting`.
    public func gives(_ setting: ServeSetting) -> Bool { values.contains { $0.setting == setting } }

    /// The value this source gives `setting`, as its declaration reads it.
    public func value<Value>(of setting: ServeSetting, as type: Value.Type = Value.self) -> Value? {
        values.first { $0.setting == setting }?.value as? Value
    }

    /// `setting` as this source names it: `--tls-cert`, `tlsCert`, `APNS_MOCK_ADMIN_TOKEN`.
    public func name(of setting: ServeSetting) -> String { Self.name(of: setting, in: source) }

    /// Where this source's value of `setting` is, for a person: `--tls-cert`, `FILE: tlsCert`.
    public func origin(of setting: ServeSetting) -> String {
        guard case .file(let path) = source else { return name(of: setting) }
        return "\(path): \(name(of: setting))"
    }

    static func name(of setting: ServeSetting, in source: Source) -> String {
        switch source {
        case .commandLine: return "--" + setting.flag
        case .environment: return setting.environmentVariable ?? "--" + setting.flag
        case .file: return setting.key ?? setting.flag
        }
    }

    /// Lays this source's values over `configuration`.
    public func apply(to configuration: inout APNSMockConfiguration) {
        for (setting, value) in values { setting.apply(value, &configuration) }
    }
}
