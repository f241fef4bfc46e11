/// The admin API's reference: an OpenAPI 3.1 document, served at `GET /v1/openapi.yaml`.
///
/// The document is `openapi.yaml` beside this file, compiled into the binary by the package's
/// `.embedInCode` resource rule (a release binary is copied alone into container images, so no
/// resource bundle). `AdminAPIDocumentTests` checks that its paths and methods are exactly the
/// router's and that the limits and lint codes it names are the code's; the end-to-end
/// `OpenAPIConformanceTests` run schemathesis against a live server from it.
public enum AdminAPIDocument {
    /// The path it is served at.
    public static let path = "/v1/openapi.yaml"

    /// Its media type: `application/yaml`, registered by RFC 9512, which every YAML-aware tool
    /// and browser knows. (`application/openapi+yaml` says more but is still a draft
    /// registration that few clients recognise.)
    public static let contentType = "application/yaml"

    /// The document: the text of `openapi.yaml`, byte for byte.
    public static let yaml = String(decoding: PackageResources.openapi_yaml, as: UTF8.self)
}
