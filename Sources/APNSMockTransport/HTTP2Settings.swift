import APNSMockCore
import APNSMockRegistry
import APNSMockStore
private import CNGHTTP2

/// The HTTP/2 settings the server announces, APNs's values by default.
public struct HTTP2Settings: Sendable, Hashable {
    public var maxConcurrentStreams: UInt32 = 1000
    public var headerTableSize: UInt32 = 4096
    public var maxHeaderListSize: UInt32 = 8000
    public var initialWindowSize: UInt32 = 65_535
    public var maxFrameSize: UInt32 = 16_384

    public init(maxConcurrentStreams: UInt32 = 1000, maxHeaderListSize: UInt32 = 8000) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxHeaderListSize = maxHeaderListSize
    }
}
