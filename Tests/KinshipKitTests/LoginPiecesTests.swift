import Foundation
import KinshipCore
import KinshipLoopback
import Testing

@testable import KinshipKit

@Suite("Login building blocks")
struct LoginPiecesTests {
    @Test("the S256 challenge matches RFC 7636's example, and fresh secrets are well-formed and different")
    func pkce() {
        #expect(LoginSecrets.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let first = LoginSecrets.make()
        let second = LoginSecrets.make()
        #expect(PKCE.isWellFormedVerifier(first.verifier))
        #expect(PKCE.isWellFormed(first.challenge))
        #expect(first.verifier != second.verifier)
        #expect(first.state != second.state)
    }

    @Test("only a URL to the login's redirect URI answers it")
    func redirectMatching() {
        let pending = PendingLogin(redirectURI: "http://127.0.0.1:5000/callback", state: "s", outcomes: AsyncStream.makeStream().continuation)
        #expect(pending.isAnswer(URL(string: "http://127.0.0.1:5000/callback?code=c&state=s")!))
        #expect(!pending.isAnswer(URL(string: "http://127.0.0.1:5001/callback?code=c")!))
        #expect(!pending.isAnswer(URL(string: "http://127.0.0.1:5000/callbackx?code=c")!))
        #expect(!pending.isAnswer(URL(string: "https://127.0.0.1:5000/callback?code=c")!))
        #expect(!pending.isAnswer(URL(string: "http://evil.example:5000/callback?code=c")!))
        let custom = PendingLogin(redirectURI: "kinship42://authorize", state: "s", outcomes: AsyncStream.makeStream().continuation)
        #expect(custom.isAnswer(URL(string: "kinship42://authorize?code=c")!))
        #expect(!custom.isAnswer(URL(string: "kinship43://authorize?code=c")!))
    }

    @Test("endpoints keep the server's own path and put the version before Graph paths")
    func endpoints() {
        let configuration = KinshipConfiguration(serverURL: URL(string: "https://example.com/kinship/")!, appID: "42")
        #expect(configuration.dialogURL.absoluteString == "https://example.com/kinship/dialog/oauth")
        #expect(configuration.graphURL("/me/friends").absoluteString == "https://example.com/kinship/v1.0/me/friends")
        #expect(configuration.customSchemeRedirectURI == "kinship42://authorize")
        var unversioned = configuration
        unversioned.graphVersion = nil
        #expect(unversioned.graphURL("me").absoluteString == "https://example.com/kinship/me")
        #expect(
            GraphRequest.friends(limit: 5, after: "abc").relativeURL
                == "me/friends?fields=id%2Cname%2Cfirst_name%2Clast_name%2Cpicture&limit=5&after=abc"
        )
        #expect(GraphRequest.post(message: "hi").relativeURL == "me/feed")
    }

    @Test("a remote cache secret has at least 128 bits of base64url and never prints")
    func remoteSecret() {
        #expect(RemoteTokenCache.Secret("short") == nil)
        #expect(RemoteTokenCache.Secret(String(repeating: "a", count: 21)) == nil)
        #expect(RemoteTokenCache.Secret(String(repeating: "a", count: 22)) != nil)
        #expect(RemoteTokenCache.Secret(String(repeating: "a", count: 21) + "/") == nil)
        let secret = RemoteTokenCache.Secret.random()
        #expect(secret.text.count == 43)
        #expect(!"\(secret)".contains(secret.text))
    }

    @Test("$BROWSER's commands come first, then xdg-open and open")
    func browserCommands() {
        let browser = SystemBrowser.fromEnvironment(["BROWSER": "firefox --new-tab %s:/usr/bin/lynx"])
        #expect(browser.commands == [["firefox", "--new-tab", "%s"], ["/usr/bin/lynx"], ["xdg-open"], ["open"]])
        #expect(SystemBrowser.fromEnvironment([:]).commands == [["xdg-open"], ["open"]])
        #expect(!SystemBrowser(commands: [["no-such-browser-anywhere"]]).open(URL(string: "http://127.0.0.1/")!))
    }

    @Test("the loopback listener serves only GET /callback, passes the redirect on, and closes")
    func loopbackListener() async throws {
        let presenter = LoopbackPresenter(browser: .none)
        let (delivered, deliver) = AsyncStream<URL>.makeStream()
        let redirectURI = try await presenter.prepare(for: KinshipConfiguration(serverURL: URL(string: "http://127.0.0.1:1")!, appID: "1")) {
            deliver.yield($0)
        }
        #expect(redirectURI.hasPrefix("http://127.0.0.1:"))
        #expect(redirectURI.hasSuffix("/callback"))
        let transport = SystemTransport()
        let base = String(redirectURI.dropLast("/callback".count))
        #expect(try await transport.send(TransportRequest(url: URL(string: base + "/favicon.ico")!)).status == 404)
        #expect(try await transport.send(TransportRequest(method: "POST", url: URL(string: redirectURI)!)).status == 404)
        let page = try await transport.send(TransportRequest(url: URL(string: redirectURI + "?code=c&state=s")!))
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self).contains("You can close this tab"))
        var iterator = delivered.makeAsyncIterator()
        #expect(await iterator.next()?.absoluteString == redirectURI + "?code=c&state=s")
        await presenter.finish()
        await #expect(throws: TransportError.self) { try await transport.send(TransportRequest(url: URL(string: redirectURI)!, timeout: 2)) }
    }
}
