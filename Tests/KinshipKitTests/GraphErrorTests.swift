import Foundation
import KinshipCore
import Testing

@testable import KinshipKit

@Suite("Graph errors sorted into categories")
struct GraphErrorTests {
    private func error(
        code: Int,
        subcode: Int? = nil,
        status: Int,
        message: String = "m",
        userMessage: String? = nil,
        request: GraphRequest? = nil
    ) -> GraphError {
        GraphError(
            status: status,
            body: .init(
                message: message,
                type: "OAuthException",
                code: code,
                errorSubcode: subcode,
                errorUserMsg: userMessage,
                fbtraceID: "t"
            ),
            request: request
        )
    }

    @Test(
        "codes map to the documented categories",
        arguments: [
            (190, 401, GraphError.Category.recoverable), (102, 401, .recoverable), (10, 403, .permission), (200, 403, .permission),
            (299, 403, .permission), (4, 429, .throttled), (17, 429, .throttled), (613, 400, .throttled), (1, 500, .transient),
            (2, 503, .transient), (100, 400, .other), (803, 404, .other), (506, 400, .other), (9999, 502, .transient),
            (9999, 429, .throttled), (9999, 400, .other),
        ]
    )
    func categories(code: Int, status: Int, category: GraphError.Category) {
        #expect(error(code: code, status: status).category == category)
    }

    @Test("the person is told about logins and permissions, and about anything the platform wrote for them")
    func notifyingTheUser() {
        #expect(error(code: 190, subcode: 463, status: 401).shouldNotifyUser)
        #expect(error(code: 200, status: 403).shouldNotifyUser)
        #expect(!error(code: 2, status: 503).shouldNotifyUser)
        #expect(!error(code: 100, status: 400).shouldNotifyUser)
        let written = error(code: 506, status: 400, userMessage: "You already posted that.")
        #expect(written.shouldNotifyUser)
        #expect(written.userMessage == "You already posted that.")
        #expect(error(code: 190, status: 401).userTitle == "Please log in again")
    }

    @Test("the missing permission comes from the message, else from the request")
    func missingPermission() {
        let named = error(code: 200, status: 403, message: "(#200) Friends requires the user_friends permission, which …")
        #expect(named.missingPermission == .userFriends)
        let fromRequest = error(code: 10, status: 403, message: "Not allowed", request: .post(message: "hi"))
        #expect(fromRequest.missingPermission == .publishActions)
        #expect(error(code: 100, status: 400, message: "requires the email permission").missingPermission == nil)
    }

    @Test("answers without a Graph body still get a category; transport failures are transient")
    func withoutGraphBody() {
        let request = GraphRequest.me(fields: ["id"])
        guard case .failure(let gateway) = GraphClient.result(status: 502, body: Data("<html>".utf8), request: request) else {
            Issue.record("502 should fail")
            return
        }
        #expect(gateway.category == .transient)
        guard case .failure(let notJSON) = GraphClient.result(status: 200, body: Data("nope".utf8), request: request) else {
            Issue.record("a non-JSON 200 should fail")
            return
        }
        #expect(notJSON.category == .other)
        #expect(GraphError.transport(.timedOut(URL(string: "http://127.0.0.1/me")!)).category == .transient)
        #expect(GraphError.transport(.cancelled).category == .other)
    }
}
