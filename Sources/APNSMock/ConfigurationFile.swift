import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A YAML configuration file (`apns-mock serve --config FILE`) and its mapping onto
/// `APNSMockConfiguration`.
///
/// Its keys and how each value is read are the ``ServeSetting`` declarations'; its `setup:` is
/// `SetupSection`'s. `apply(to:)` lays the file over a configuration (the defaults, usually);
/// `apns-mock serve` lays the environment and the flags over the result (``ServeSettings``).
/// `apns-mock.example.yaml` at the repository root shows every setting with its default.
public struct ConfigurationFile: Sendable {
    /// The file as the user named it.
    public let path: String
    /// The file as written, with its `setup` read.
    public let document: ConfigurationDocument
    /// The settings the file gives, read.
    public let settings: ServeSettingLayer

    /// Reads and checks the file at `path`; relative paths in it are relative to its directory.
    /// `now` (epoch ms) dates devices whose `state` is given without a time.
    /// - Throws: `ConfigurationFileError`: one line naming the file, the key path and the problem.
    public init(contentsOf path: String, now: Int64 = APNSListenerContext.systemNow()) throws(ConfigurationFileError) {
        let document = try ConfigurationDocument.load(contentsOf: path, settingKeys: ServeSetting.keys, now: now)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try self.init(path: path, document: document, baseDirectory: directory)
    }

    /// Reads YAML `text`; `file` names it in errors, `baseDirectory` anchors relative paths.
    /// - Throws: `ConfigurationFileError` naming `file`, the key path and the problem.
    public init(yaml text: String, file: String, baseDirectory: String, now: Int64) throws(ConfigurationFileError) {
        let document = try ConfigurationDocument.parse(
            yaml: text, file: file, baseDirectory: baseDirectory, settingKeys: ServeSetting.keys, now: now)
        try self.init(path: file, document: document, baseDirectory: baseDirectory)
    }

    private init(path: String, document: ConfigurationDocument, baseDirectory: String) throws(ConfigurationFileError) {
        self.path = path
        self.document = document
        do throws(SpecError) {
            settings = try ServeSettingLayer.file(path, fields: document.settings, baseDirectory: baseDirectory)
        } catch {
            throw ConfigurationFileError(file: path, problem: error)
        }
    }

    /// Sets every setting the file holds; leaves the others as they are. `setup` keys, devices,
    /// fault rules and channels are added to those already in `configuration`.
    public func apply(to configuration: inout APNSMockConfiguration) {
        settings.apply(to: &configuration)
        addSetup(to: &configuration)
    }

    /// Adds the file's `setup` keys, devices, fault rules and channels to `configuration`.
    public func addSetup(to configuration: inout APNSMockConfiguration) {
        configuration.keys += document.setup.keys
        configuration.devices += document.setup.devices
        configuration.faults += document.setup.faults
        configuration.channels += document.setup.channels
        configuration.broadcastDisabled += document.setup.broadcastDisabled
    }

    /// The built-in defaults with this file laid over them.
    public var configuration: APNSMockConfiguration {
        var configuration = APNSMockConfiguration()
        apply(to: &configuration)
        return configuration
    }
}
