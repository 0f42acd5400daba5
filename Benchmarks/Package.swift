// swift-tools-version:6.1
import PackageDescription

// Benchmarks live apart from the tests: `swift run -c release --package-path Benchmarks NAME`.
let package = Package(
    name: "KinshipBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "kinship", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "ContactsBenchmark",
            dependencies: [.product(name: "KinshipContacts", package: "kinship")]
        ),
        .executableTarget(
            name: "XMLStreamBenchmark",
            dependencies: [.product(name: "KinshipXMPP", package: "kinship")]
        ),
        .executableTarget(
            name: "RosterBenchmark",
            dependencies: [.product(name: "KinshipXMPP", package: "kinship")]
        ),
        .target(
            name: "BenchmarkBrowser",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "WriteStorm",
            dependencies: [
                "BenchmarkBrowser",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        .executableTarget(
            name: "LoginThroughput",
            dependencies: [
                "BenchmarkBrowser",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "OpenIDThroughput",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .executableTarget(
            name: "OpenLoop",
            dependencies: [
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .systemLibrary(name: "CSystemSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .executableTarget(
            name: "WriterFloor",
            dependencies: ["CSystemSQLite"]
        ),
        .executableTarget(
            name: "BareHummingbird",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ]
)
