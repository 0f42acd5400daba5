// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Test targets import what they use without listing every module a member comes from.
let testSwiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

/// `KINSHIP_FUZZ=1` (set by `scripts/fuzz`) builds `kinship-fuzz` for libFuzzer: the modules whose
/// parsers it feeds get coverage instrumentation and the executable links libFuzzer. The packages
/// Kinship depends on are built as usual, so a fuzz build recompiles only Kinship's own code.
let fuzzing = Context.environment["KINSHIP_FUZZ"] == "1"
let instrumented: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []

let package = Package(
    name: "kinship",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "kinship", targets: ["kinship"]),
        .executable(name: "kinship-fuzz", targets: ["KinshipFuzz"]),
        .library(name: "KinshipCore", targets: ["KinshipCore"]),
        .library(name: "KinshipContacts", targets: ["KinshipContacts"]),
        .library(name: "KinshipKit", targets: ["KinshipKit"]),
        .library(name: "KinshipLoopback", targets: ["KinshipLoopback"]),
        .library(name: "KinshipXMPP", targets: ["KinshipXMPP"]),
        .library(name: "KinshipServer", targets: ["KinshipServer"]),
        .library(name: "KinshipSample", targets: ["KinshipSample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/async-kit.git", from: "1.22.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-atomics.git", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "KinshipSQLite", dependencies: ["CSQLite3"], swiftSettings: swiftSettings),
        .systemLibrary(name: "CKinshipMalloc"),
        .target(
            name: "KinshipCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ],
            swiftSettings: swiftSettings + instrumented
        ),
        .target(
            name: "KinshipContacts",
            swiftSettings: swiftSettings + instrumented
        ),
        .target(
            name: "KinshipKit",
            dependencies: [
                "KinshipCore", "KinshipContacts", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // Linux's HTTP stack for the SDK (see `SystemTransport`): URLSession there would load
                // libcurl and its TLS, Kerberos and LDAP libraries into every process using KinshipKit.
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(platforms: [.linux])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(platforms: [.linux])),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KinshipXMPP",
            dependencies: [
                "KinshipContacts",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings + instrumented
        ),
        .target(
            name: "KinshipLoopback",
            dependencies: [
                "KinshipKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KinshipSample",
            dependencies: [
                "KinshipCore",
                "KinshipContacts",
                "KinshipKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "KinshipServer",
            dependencies: [
                "KinshipCore",
                "KinshipSQLite",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "AsyncKit", package: "async-kit"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings + instrumented
        ),
        .target(name: "KinshipFuzzDriver", path: "Fuzz/Sources/KinshipFuzzDriver"),
        .executableTarget(
            name: "KinshipFuzz",
            dependencies: (fuzzing ? ["KinshipFuzzDriver"] : []) + [
                "KinshipCore",
                "KinshipServer",
                "KinshipXMPP",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Fuzz/Sources/KinshipFuzz",
            swiftSettings: swiftSettings + (fuzzing ? [.define("KINSHIP_FUZZING"), .unsafeFlags(["-sanitize=fuzzer", "-parse-as-library"])] : []),
            linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []
        ),
        .executableTarget(
            name: "kinship",
            dependencies: [
                "KinshipCore",
                "KinshipContacts",
                "KinshipKit",
                "KinshipLoopback",
                "KinshipSample",
                "KinshipServer",
                "KinshipXMPP",
                "CKinshipMalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "KinshipSQLiteTests", dependencies: ["KinshipSQLite"], swiftSettings: testSwiftSettings),
        .testTarget(
            name: "KinshipCoreTests",
            dependencies: ["KinshipCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "KinshipContactsTests",
            dependencies: [
                "KinshipContacts",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "KinshipXMPPTests",
            dependencies: [
                "KinshipXMPP",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "KinshipKitTests",
            dependencies: ["KinshipKit", "KinshipCore", "KinshipLoopback"],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "KinshipServerTests",
            dependencies: [
                "KinshipCore",
                "KinshipKit",
                "KinshipLoopback",
                "KinshipServer",
                "KinshipSQLite",
                "KinshipXMPP",
                "kinship",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
            ],
            swiftSettings: testSwiftSettings
        ),
    ]
)
