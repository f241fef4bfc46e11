// swift-tools-version:6.2
import PackageDescription

/// Set by the Makefile for its instrumented tree (.build-asan) to libFuzzer's archive without a
/// `main` (libclang_rt.fuzzer_no_main): `apns-mock-fuzz` is then linked with it (every module is
/// compiled with libFuzzer's coverage there; see the Makefile's asan-build). Unset, as for every
/// package that depends on apns-mock, the manifest has no unsafe flags.
let libFuzzerArchive = Context.environment["APNS_MOCK_LIBFUZZER"].flatMap { $0.isEmpty ? nil : $0 }

/// The commit `apns-mock --version` names: `APNS_MOCK_COMMIT` (the Makefile sets it from git, so
/// that a new commit makes SwiftPM read this manifest again: it caches the manifest per environment,
/// not per commit), else the checkout's own, abbreviated, with `-dirty` when it had uncommitted
/// changes; `unknown` outside git (a source archive).
let buildCommit: String = {
    if let commit = Context.environment["APNS_MOCK_COMMIT"], !commit.isEmpty { return commit }
    guard let git = Context.gitInformation else { return "unknown" }
    return String(git.currentCommit.prefix(12)) + (git.hasUncommittedChanges ? "-dirty" : "")
}()

let package = Package(
    name: "apns-mock",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "apns-mock", targets: ["apns-mock"]),
        .library(name: "APNSMock", targets: ["APNSMock"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Without its default traits: FullFoundation would link swift-corelibs-foundation, and with it ICU's data
        // (34 MB), into the binary; ConfigurationSupport would build swift-configuration, which apns-mock does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // Only for tests, as a second reader of the admin API's document; the server reads YAML with libyaml (CYAML).
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // swift-metrics comes with swift-prometheus (its handler protocols) and Hummingbird.
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["nghttp2"])]
        ),
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "CAPNSMockShims",
            dependencies: ["COpenSSL"]
        ),
        .target(
            name: "CAPNSMockBuildInfo",
            cSettings: [.define("APNS_MOCK_COMMIT", to: "\"\(buildCommit)\"")]
        ),
        .target(
            name: "InMemoryHTTP2Client",
            dependencies: ["CNGHTTP2"]
        ),
        .executableTarget(
            name: "apns-mock-bench",
            dependencies: [
                "APNSMock", "APNSMockTransport", "APNSMockStore", "APNSMockRegistry", "APNSMockCore",
                "InMemoryHTTP2Client",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "APNSMockCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        .target(
            name: "APNSMockStore",
            dependencies: [
                "APNSMockCore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "APNSMockMetrics",
            dependencies: [
                "APNSMockCore",
                "APNSMockStore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "APNSMockRegistry",
            dependencies: [
                "APNSMockCore",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                "CYAML",
            ]
        ),
        .target(
            name: "APNSMockTransport",
            dependencies: [
                "APNSMockCore",
                "APNSMockStore",
                "APNSMockRegistry",
                "APNSMockMetrics",
                "CNGHTTP2",
                "COpenSSL",
                "CAPNSMockShims",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .target(
            name: "APNSMockAdmin",
            dependencies: [
                "APNSMockCore",
                "APNSMockStore",
                "APNSMockRegistry",
                "APNSMockMetrics",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The OpenAPI document and the dashboard's files, compiled in as bytes
            // (PackageResources.openapi_yaml, .index_html, …): the binary needs no resource bundle beside it.
            resources: [
                .embedInCode("openapi.yaml"),
                .embedInCode("Dashboard/index.html"),
                .embedInCode("Dashboard/dashboard.js"),
                .embedInCode("Dashboard/dashboard.css"),
            ]
        ),
        .target(
            name: "APNSMock",
            dependencies: [
                "APNSMockCore",
                "APNSMockStore",
                "APNSMockRegistry",
                "APNSMockMetrics",
                "APNSMockTransport",
                "APNSMockAdmin",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The libFuzzer targets (make fuzz): one function per parser or rule set, over the real API.
        .target(
            name: "APNSMockFuzzTargets",
            dependencies: [
                "APNSMockCore",
                "APNSMockStore",
                "APNSMockRegistry",
                "APNSMockTransport",
                "APNSMockAdmin",
                "InMemoryHTTP2Client",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A libFuzzer binary when built in the Makefile's instrumented tree (APNS_MOCK_FUZZING, libFuzzer linked), else a
        // tool that replays inputs through a target.
        .executableTarget(
            name: "apns-mock-fuzz",
            dependencies: ["APNSMockFuzzTargets"],
            // @_extern(c) declares libFuzzer's driver without a C module.
            swiftSettings: [.enableExperimentalFeature("Extern")],
            linkerSettings: libFuzzerArchive.map { [.unsafeFlags(["-Xlinker", $0, "-lstdc++"])] } ?? []
        ),
        .executableTarget(
            name: "apns-mock",
            dependencies: [
                "APNSMock",
                "CAPNSMockBuildInfo",
                "APNSMockAdmin",
                "APNSMockCore",
                "APNSMockRegistry",
                "APNSMockTransport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "APNSMockCoreTests",
            dependencies: [
                "APNSMockCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HashTreeCollections", package: "swift-collections"),
            ]
        ),
        .testTarget(
            name: "APNSMockMetricsTests",
            dependencies: ["APNSMockMetrics", "APNSMockStore", "APNSMockCore"]
        ),
        .testTarget(
            name: "APNSMockStoreTests",
            dependencies: ["APNSMockStore", "APNSMockCore"]
        ),
        .testTarget(
            name: "APNSMockRegistryTests",
            dependencies: [
                "APNSMockRegistry", "APNSMockCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "APNSMockAdminTests",
            dependencies: [
                "APNSMockAdmin", "APNSMockStore", "APNSMockRegistry", "APNSMockCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "APNSMockTransportTests",
            dependencies: [
                "APNSMockTransport", "APNSMockStore", "APNSMockRegistry", "APNSMockCore", "APNSMockMetrics", "CNGHTTP2",
                "InMemoryHTTP2Client",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        .testTarget(
            name: "APNSMockFuzzTargetsTests",
            dependencies: ["APNSMockFuzzTargets", "APNSMockStore"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "APNSMock",
                "APNSMockCore",
                "APNSMockRegistry",
                "APNSMockStore",
                "APNSMockTransport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Clients"]
        ),
        // examples/swift's package, compiled and tested here as part of the suite (its code as a team would
        // write it: apns-mock's public API only). That it also builds as another package's dependency by
        // version tag is checked by examples/swift/run-as-dependency.sh: the manifest in make test
        // (--resolve-only), the whole build in make test-long.
        .target(
            name: "WelcomeNotifier",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "examples/swift/Sources/WelcomeNotifier"
        ),
        .testTarget(
            name: "WelcomeNotifierTests",
            dependencies: [
                "WelcomeNotifier",
                "APNSMock",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "examples/swift/Tests/WelcomeNotifierTests",
            resources: [.copy("welcome-push.yaml")]
        ),
    ]
)

// A member (String.contains, Error.localizedDescription) is found only through the modules a file imports
// (SE-0444), not through whatever a dependency imports: swift-crypto and others import swift-corelibs-foundation,
// and its String and Error extensions, picked up that way, would link ICU's data into the binary.
for target in package.targets
where target.type != .system && !target.name.hasPrefix("CAPNSMock") && !target.name.hasPrefix("WelcomeNotifier") {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
