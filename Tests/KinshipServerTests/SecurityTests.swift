import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import Logging
import NIOCore
import Testing

@testable import KinshipServer

@Suite("Security helpers")
struct SecurityTests {
    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abc", "abd"))
        #expect(!ConstantTime.equals("abc", "abcd"))
    }

    @Test func secretsAreRandomAndPrefixed() {
        let a = Secrets.generate(prefix: "kat_")
        let b = Secrets.generate(prefix: "kat_")
        #expect(a != b)
        #expect(a.hasPrefix("kat_"))
        #expect(a.count == 4 + 43)
        #expect(Secrets.hash(a).count == 64)
        #expect(Secrets.numericID().count == 15)
    }

    @Test("PKCE S256 as in RFC 7636 appendix B")
    func pkceVector() {
        #expect(Secrets.verifierMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
        #expect(!Secrets.verifierMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXx", challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
    }

    @Test func csrfTokensAreBoundToTheirSecret() {
        let csrf = CSRFProtection(key: SymmetricKey(data: Data("key".utf8)))
        let token = csrf.token(boundTo: "session:one")
        #expect(csrf.verify(token, boundTo: "session:one"))
        #expect(!csrf.verify(token, boundTo: "session:two"))
        #expect(!csrf.verify(nil, boundTo: "session:one"))
        #expect(!csrf.verify(token, boundTo: nil))
        #expect(!CSRFProtection(key: SymmetricKey(data: Data("other".utf8))).verify(token, boundTo: "session:one"))
    }

    @Test("loopback redirects match on any port; everything else exactly")
    func redirectPolicy() {
        let app = AppRecord(
            id: "123",
            name: "A",
            isConfidential: false,
            redirectURIs: ["http://127.0.0.1/cb", "http://[::1]/cb", "https://a.example.com/cb?x=1"],
            secretHash: "",
            createdAt: 0
        )
        #expect(RedirectURIPolicy.allows("http://127.0.0.1:5000/cb", for: app))
        #expect(RedirectURIPolicy.allows("http://127.0.0.1/cb", for: app))
        #expect(RedirectURIPolicy.allows("http://[::1]:5000/cb", for: app))
        #expect(RedirectURIPolicy.allows("https://a.example.com/cb?x=1", for: app))
        #expect(RedirectURIPolicy.allows("kinship123://authorize", for: app))
        #expect(!RedirectURIPolicy.allows("http://127.0.0.1:5000/cb2", for: app))
        #expect(!RedirectURIPolicy.allows("http://127.0.0.1:5000/cb?x=1", for: app))
        #expect(!RedirectURIPolicy.allows("http://user@127.0.0.1:5000/cb", for: app))
        #expect(!RedirectURIPolicy.allows("https://127.0.0.1:5000/cb", for: app))
        #expect(!RedirectURIPolicy.allows("https://a.example.com/cb?x=2", for: app))
        #expect(!RedirectURIPolicy.allows("kinship1234://authorize", for: app))
        #expect(!RedirectURIPolicy.allows("kinship123://authorize/x", for: app))
    }

    @Test("the consent plan skips granted permissions, and declined ones unless re-requested")
    func consentPlan() {
        let existing = Authorization(
            id: "a",
            userID: "u",
            appID: "p",
            createdAt: 0,
            revokedAt: nil,
            permissions: [.publicProfile: .granted, .email: .declined, .userFriends: .granted]
        )
        let plan = ConsentPlan(requested: [.userBirthday, .email, .userFriends, .publicProfile], existing: existing, rerequest: false)
        #expect(plan.asked == [.userBirthday])
        #expect(plan.alreadyGranted == [.userFriends])
        let again = ConsentPlan(requested: [.email], existing: existing, rerequest: true)
        #expect(again.asked == [.email])
        let first = ConsentPlan(requested: [.userFriends, .email], existing: nil, rerequest: false)
        #expect(first.asked == [.email, .userFriends])
    }

    @Test("database locations parse, and descriptions never show a password")
    func databaseLocation() throws {
        let postgres = try DatabaseLocation(parsing: "postgres://kin:s3cret@127.0.0.1:5433/kinship?sslmode=disable")
        #expect(!postgres.description.contains("s3cret"))
        #expect(postgres.description.contains("127.0.0.1:5433/kinship"))
        guard case .sqlite(let path) = try DatabaseLocation(parsing: "sqlite://data/k.sqlite") else {
            Issue.record("not sqlite")
            return
        }
        #expect(path == "data/k.sqlite")
        #expect(throws: DatabaseLocationError.self) { try DatabaseLocation(parsing: "postgres://nohost") }
        #expect(throws: DatabaseLocationError.emptyPath) { try DatabaseLocation(parsing: "") }
    }
}
