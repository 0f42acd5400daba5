import Foundation
import KinshipCore
import Testing

@Suite struct AuthorizationMessageTests {
    let request = AuthorizationRequest(
        clientID: "123",
        redirectURI: "kinship123://authorize",
        scope: [.email, .userFriends],
        state: "s t",
        codeChallenge: String(repeating: "A", count: 43),
        authType: .rerequest
    )

    @Test func requestRoundTripsThroughItsURL() throws {
        let url = request.url(dialogEndpoint: URL(string: "https://login.example.com/dialog/oauth")!)
        #expect(url.absoluteString.hasPrefix("https://login.example.com/dialog/oauth?client_id=123&redirect_uri=kinship123%3A%2F%2Fauthorize"))
        let parsed = try AuthorizationRequest(parameters: FormParameters(formEncoded: url.query!))
        #expect(parsed == request)
        #expect(parsed.redirectableProblem == nil)
    }

    @Test func requestProblems() throws {
        #expect(throws: AuthorizationRequestError.missingClientID) { try AuthorizationRequest(parameters: ["redirect_uri": "x"]) }
        #expect(throws: AuthorizationRequestError.missingRedirectURI) { try AuthorizationRequest(parameters: ["client_id": "1"]) }
        var bad = request
        bad.codeChallenge = "short"
        #expect(bad.redirectableProblem?.code == .invalidRequest)
        bad = request
        bad.scope = ["email", "friends_everything"]
        #expect(bad.redirectableProblem?.code == .invalidScope)
        #expect(bad.redirectableProblem?.description?.contains("friends_everything") == true)
        bad = request
        bad.responseType = "token"
        #expect(bad.redirectableProblem?.code == .unsupportedResponseType)
    }

    @Test func responsesAppendToTheRedirectURI() throws {
        let code = AuthorizationResponse.code("kac_1", state: "s t")
        #expect(code.redirectURL(to: "kinship1://authorize") == "kinship1://authorize?code=kac_1&state=s+t")
        #expect(code.redirectURL(to: "https://a.example.com/cb?x=1") == "https://a.example.com/cb?x=1&code=kac_1&state=s+t")
        let denied = AuthorizationResponse.error(.userDenied, state: nil)
        let url = URL(string: denied.redirectURL(to: "http://127.0.0.1:4000/cb"))!
        #expect(try AuthorizationResponse(redirectURL: url) == denied)
        #expect(try AuthorizationResponse(redirectURL: URL(string: code.redirectURL(to: "https://a.example.com/cb?x=1"))!) == code)
    }

    @Test func legacyFragmentsAndEmptyRedirects() throws {
        let legacy = try AuthorizationResponse(redirectURL: URL(string: "fb123://authorize#code=abc&state=z")!)
        #expect(legacy == .code("abc", state: "z"))
        #expect(throws: AuthorizationResponseError.noCodeOrError) {
            try AuthorizationResponse(redirectURL: URL(string: "kinship1://authorize?state=z")!)
        }
    }

    @Test func pkceShapes() {
        #expect(PKCE.isWellFormedVerifier(String(repeating: "a", count: 43)))
        #expect(!PKCE.isWellFormedVerifier(String(repeating: "a", count: 42)))
        #expect(!PKCE.isWellFormedVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isWellFormedVerifier(String(repeating: "a", count: 42) + "/"))
        #expect(PKCE.isWellFormed("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!PKCE.isWellFormed("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM"))
    }
}
