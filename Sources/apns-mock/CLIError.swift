import APNSMock
import APNSMockCore
import APNSMockRegistry
import APNSMockTransport
import ArgumentParser
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A failure reported as one line on stderr with exit code 1, never a stack trace.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
