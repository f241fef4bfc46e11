import APNSMockCore
private import CAPNSMockShims
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A listener set-up failure, in words.
public struct ListenerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
