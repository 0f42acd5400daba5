import Foundation
import KinshipCore
import Testing

@Suite struct OpenIDRequestTests {
    let request = AuthorizationRequest(
        clientID: "123",
        redirectURI: "kinship123://authorize",
        scope: [.openID, .publicProfile, .email],
        state: "s",
        codeChallenge: String(repeating: "A", count: 43),
        nonce: "n-1",
        prompt: [.login, .consent],
        maxAge: 600,
        loginHint: "ada@example.com"
    )

    @Test func openIDParametersRoundTripThroughTheURL() throws {
        let url = request.url(dialogEndpoint: URL(string: "https://login.example.com/dialog/oauth")!)
        let parsed = try AuthorizationRequest(parameters: FormParameters(formEncoded: url.query!))
        #expect(parsed == request)
        #expect(parsed.isOpenID)
        #expect(parsed.prompts == [.login, .consent])
        #expect(parsed.maxAgeSeconds == 600)
        #expect(parsed.redirectableProblem == nil)
    }

    @Test func profileIsPublicProfileAndProtocolScopesAreAccepted() {
        #expect(Permission.list(fromScope: "openid profile email offline_access") == [.openID, .publicProfile, .email, .offlineAccess])
        #expect(Permission.openID.isProtocolScope && Permission.offlineAccess.isProtocolScope && !Permission.email.isProtocolScope)
        var scoped = request
        scoped.scope = [.openID, .offlineAccess, .userFriends]
        #expect(scoped.redirectableProblem == nil)
    }

    @Test func withoutPromptsKeepsTheRest() {
        #expect(request.withoutPrompts([.login]).prompt == "consent")
        #expect(request.withoutPrompts([.login, .consent]).prompt == nil)
    }

    @Test func openIDProblemsAreReportedToTheApp() {
        var bad = request
        bad.nonce = String(repeating: "x", count: AuthorizationRequest.maxNonceLength + 1)
        #expect(bad.redirectableProblem?.code == .invalidRequest)
        bad = request
        bad.prompt = "none login"
        #expect(bad.redirectableProblem?.description?.contains("prompt=none") == true)
        bad.prompt = "whenever"
        #expect(bad.prompts == nil)
        #expect(bad.redirectableProblem?.code == .invalidRequest)
        bad = request
        bad.maxAge = "-5"
        #expect(bad.redirectableProblem?.description?.contains("max_age") == true)
        bad = request
        bad.codeChallenge = nil
        bad.codeChallengeMethod = nil
        bad.nonce = nil
        #expect(bad.redirectableProblem?.description?.contains("nonce is required") == true)
        bad.nonce = "n"
        #expect(bad.redirectableProblem == nil, "a nonce stands in for PKCE's protection of the id_token")
    }

    @Test func tokenResponseCarriesScopeAndIDTokenOnlyWhenPresent() throws {
        let plain = TokenResponse(accessToken: "kat_1", expiresIn: 60, grantedScopes: [.publicProfile], declinedScopes: [])
        let json = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(!json.contains("id_token") && !json.contains("\"scope\""))
        let openID = TokenResponse(
            accessToken: "kat_1",
            expiresIn: 60,
            grantedScopes: [.publicProfile],
            declinedScopes: [],
            scope: "openid public_profile",
            idToken: "a.b.c"
        )
        #expect(try JSONDecoder().decode(TokenResponse.self, from: JSONEncoder().encode(openID)) == openID)
    }
}
