import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipServer
import Logging
import NIOCore
import Testing

@Suite("Discovery", .timeLimit(.minutes(3)))
struct DiscoveryTests {
    @Test("RFC 8414 metadata names the endpoints and what they support", arguments: TestEngine.enabled)
    func metadata(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let (status, json) = try await server.getJSON("/.well-known/oauth-authorization-server")
            #expect(status == .ok)
            let issuer = try #require(json["issuer"] as? String)
            #expect(issuer.hasPrefix("http://127.0.0.1:"))
            #expect(!issuer.hasSuffix(":0"), "the issuer names the port actually bound")
            #expect(json["authorization_endpoint"] as? String == issuer + "/dialog/oauth")
            #expect(json["token_endpoint"] as? String == issuer + "/oauth/access_token")
            #expect(json["revocation_endpoint"] as? String == issuer + "/oauth/revoke")
            #expect(json["response_types_supported"] as? [String] == ["code"])
            #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            let scopes = try #require(json["scopes_supported"] as? [String])
            #expect(scopes.contains("public_profile") && scopes.contains("email") && scopes.contains("user_friends"))
        }
    }
}
