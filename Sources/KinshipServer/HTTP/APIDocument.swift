import Foundation

/// The OpenAPI 3.1 description of the platform's HTTP API, kept in the repository at
/// `Sources/KinshipServer/Resources/api/openapi.json` and served at `/openapi.json`.
enum APIDocument {
    static func load() async throws -> Data {
        guard let url = Bundle.module.url(forResource: "Resources", withExtension: nil)?.appendingPathComponent("api/openapi.json") else {
            throw PageError.missingResources
        }
        return try Data(contentsOf: url)
    }
}
