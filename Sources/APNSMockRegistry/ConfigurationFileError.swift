import APNSMockCore
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A configuration file that cannot be used: one line naming the file, the key path and the
/// problem (`apns-mock.yaml: setup.keys[0].environment must be sandbox, production or both; got 'prod'`).
public struct ConfigurationFileError: Error, Sendable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// What is wrong where.
    public var problem: SpecError

    public init(file: String, problem: SpecError) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem.description)" }
}
