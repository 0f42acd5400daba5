// swift-tools-version:6.1
import PackageDescription

// Benchmarks live apart from the tests: `swift run -c release --package-path Benchmarks NAME`.
let package = Package(
    name: "KinshipBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "kinship", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
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
        .executableTarget(
            name: "BareHummingbird",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ]
)
