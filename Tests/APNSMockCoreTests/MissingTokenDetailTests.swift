import APNSMockCore
import Testing

/// A push with neither a token nor a certificate: the detail tells whether the server even asked
/// for a certificate (a server without a client CA never receives one, whatever the client holds).
@Suite struct MissingTokenDetailTests {
    func detail(clientCertificatesRequested: Bool) -> String {
        var builder = RequestBuilder()
        builder.authorization = nil
        var policy = ValidationPolicy()
        policy.clientCertificatesRequested = clientCertificatesRequested
        let verdict = RequestRules(policy: policy).evaluate(builder.request, context: builder.context)
        #expect(verdict.reason == .missingProviderToken)
        return verdict.detail ?? ""
    }

    @Test func aServerThatAsksForCertificatesNamesTheMissingToken() {
        #expect(detail(clientCertificatesRequested: true).contains("a connection without a client certificate needs"))
    }

    @Test func aServerThatDoesNotAskSaysSo() {
        let text = detail(clientCertificatesRequested: false)
        #expect(text.contains("this server does not ask for one"), "\(text)")
        #expect(!text.contains("a connection without a client certificate needs"))
    }
}
