import APNSMockCore
import APNSMockRegistry

/// Every source of `apns-mock serve`'s settings, in precedence: a flag wins over the
/// environment, which wins over the configuration file, which wins over the built-in default.
public struct ServeSettings: Sendable {
    /// A setting that cannot be used: the problem, and the source that names it.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let source: ServeSettingLayer.Source
        public let problem: SpecError

        /// `--chain-out needs --chain`, or `FILE: chainOut needs chain`.
        public var description: String {
            guard case .file(let path) = source else { return problem.description }
            return ConfigurationFileError(file: path, problem: problem).description
        }
    }

    /// The sources, the lowest precedence first: the file, the environment, the command line.
    public let layers: [ServeSettingLayer]

    /// The sources given, checked together (a setting's `needs`).
    /// - Throws: `Problem` naming the first setting, on the command line first, whose needs no
    ///   source meets.
    public init(commandLine: ServeSettingLayer, environment: ServeSettingLayer?, file: ServeSettingLayer?)
        throws(Problem)
    {
        layers = [file, environment, commandLine].compactMap { $0 }
        for layer in layers.reversed() {
            for setting in ServeSetting.all where layer.gives(setting) {
                for needed in setting.needs where !gives(needed) {
                    throw Problem(
                        source: layer.source,
                        problem: SpecError(path: layer.name(of: setting), problem: "needs \(layer.name(of: needed))"))
                }
            }
        }
    }

    /// Whether any source gives `setting`.
    public func gives(_ setting: ServeSetting) -> Bool { layers.contains { $0.gives(setting) } }

    /// The value of `setting` that wins, as its declaration reads it.
    public func value<Value>(of setting: ServeSetting, as type: Value.Type = Value.self) -> Value? {
        for layer in layers.reversed() where layer.gives(setting) { return layer.value(of: setting) }
        return nil
    }

    /// Where the value of `setting` that wins comes from, for a person: `--port`,
    /// `FILE: port`, `APNS_MOCK_ADMIN_TOKEN`; the flag when no source gives it.
    public func origin(of setting: ServeSetting) -> String {
        layers.last { $0.gives(setting) }?.origin(of: setting) ?? "--" + setting.flag
    }

    /// Lays every source over `configuration`, the lowest precedence first.
    public func apply(to configuration: inout APNSMockConfiguration) {
        for layer in layers { layer.apply(to: &configuration) }
    }
}
