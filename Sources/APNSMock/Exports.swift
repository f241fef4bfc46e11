// `import APNSMock` is all a test needs: the record, matcher, registration and error types the
// in-process API takes and returns come with it.
@_exported import APNSMockCore
@_exported import APNSMockMetrics
@_exported import APNSMockRegistry
@_exported import APNSMockStore
