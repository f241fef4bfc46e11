import InMemoryHTTP2Client

/// The tests' name for the in-memory nghttp2 client.
typealias HTTP2TestClient = InMemoryHTTP2Client
