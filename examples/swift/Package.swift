// swift-tools-version:6.0
import Foundation
import PackageDescription

// Your package names apns-mock's repository and a release tag, like any dependency. The tests of
// the apns-mock repository run this example against a tagged clone of their own checkout
// (APNS_MOCK_PACKAGE_URL, set by run-as-dependency.sh); the URL below is a placeholder for yours.
let apnsMockURL = Context.environment["APNS_MOCK_PACKAGE_URL"] ?? "https://github.com/your-org/apns-mock.git"

let package = Package(
    name: "welcome-push-example",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: apnsMockURL, from: "0.9.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // The code under test: a server that sends a welcome push (your app, with APNSwift or
        // your own client).
        .target(
            name: "WelcomeNotifier",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Its tests start apns-mock inside the test process.
        .testTarget(
            name: "WelcomeNotifierTests",
            dependencies: [
                "WelcomeNotifier",
                .product(name: "APNSMock", package: "apns-mock"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            resources: [.copy("welcome-push.yaml")]
        ),
    ]
)
