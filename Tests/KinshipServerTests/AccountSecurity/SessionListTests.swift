import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Where you are logged in", .timeLimit(.minutes(3)))
struct SessionListTests {
    static let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"

    @Test(
        "each browser is listed with its address and name; ending one logs it out, and nobody else's can be ended",
        arguments: TestEngine.enabled
    )
    func listAndEnd(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let linUser = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let desk = server.browser()
            desk.userAgent = Self.firefox
            let phone = server.browser()
            phone.userAgent = Self.iPhone
            let lin = server.browser()
            #expect(try await desk.logIn("ada").status == .seeOther)
            server.clock.advance(by: 60)
            #expect(try await phone.logIn("ada").status == .seeOther)
            #expect(try await lin.logIn("lin").status == .seeOther)

            let page = try await desk.get("/account/security")
            #expect(page.body.contains("Firefox on Linux") && page.body.contains("Safari on iPhone"))
            #expect(page.body.contains("from 127.0.0.1"))
            #expect(page.body.contains("(this browser)"))
            let forms = page.body.matches(of: /name="session" value="([0-9a-f]+)"/).map { String($0.1) }
            #expect(forms.count == 1, "only the other browser has a Log out button")
            let csrf = try #require(page.csrfToken)

            let linSession = try #require(try await server.platform.browserSessions.list(userID: linUser.id).first)
            let foreign = try await desk.post("/account/sessions", form: ["csrf_token": csrf, "session": linSession.idHash])
            #expect(foreign.location == "/account/security?notice=gone")
            #expect(try await lin.get("/account").status == .ok, "someone else's session is untouched")

            let forged = try await desk.post("/account/sessions", form: ["csrf_token": "forged", "session": forms[0]])
            #expect(forged.status == .forbidden)
            let ended = try await desk.post("/account/sessions", form: ["csrf_token": csrf, "session": forms[0]])
            #expect(ended.location == "/account/security?notice=ended")
            #expect(try await phone.get("/account").location?.hasPrefix("/login") == true)
            #expect(try await desk.get("/account").status == .ok)
            #expect(!(try await desk.get("/account/security").body.contains("Safari on iPhone")))
        }
    }
}
