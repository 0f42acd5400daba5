import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `POST /chat/auth`: the chat server asks whether a password typed at its login is a Kinship access
/// token that may log in to chat as the person the address names. Prosody's `mod_auth_kinship`
/// (in this repository, written out by `kinship chat config`) calls it for every chat login.
///
/// The call carries the secret shared by the two (``sharedSecret(from:)``, never an app's secret)
/// as a bearer token. A token may log in when it is valid now, belongs to the person the chat
/// address names, and was granted `xmpp_login`; every other answer is a refusal with its reason.
struct ChatAuthController: Sendable {
    let inspector: TokenInspector
    let logins: ChatLogins
    let gate: ChatServerGate
    let maxFormBytes: Int

    /// The secret the chat server presents, derived from the server secret: every process of a
    /// deployment knows it, and `kinship chat config` writes it into Prosody's configuration.
    static func sharedSecret(from secret: ServerSecret) -> String {
        secret.secret(for: "chat server")
    }

    private struct Answer: Encodable {
        let allowed: Bool
        let reason: String?
    }

    /// The chat logins (by token hash) that no longer stand.
    private struct Ended: Encodable {
        let ended: [String]
    }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/chat/auth") { request, context in
            try await gate.answer(request, context, formLimit: maxFormBytes) { try await check($0, context) }
        }
        router.post("/chat/logins") { request, context in
            try await gate.answer(request, context, formLimit: context.maxUploadSize) { try await recheck($0, context) }
        }
    }

    /// `POST /chat/logins` with `token_hash=…` once per live chat session (at most
    /// ``ChatLogins/batchLimit``): the chat server asks every second which sessions must end
    /// because their person took `xmpp_login` back, removed the app, changed their password, was
    /// suspended or deleted their account.
    private func recheck(_ form: FormParameters, _ context: KinshipRequestContext) async throws -> Response {
        let hashes = Array(Set(form.all("token_hash")))
        guard hashes.count <= ChatLogins.batchLimit else {
            return JSONResponse.make(
                Answer(allowed: false, reason: "Ask about at most \(ChatLogins.batchLimit) logins at once."),
                status: .badRequest
            )
        }
        let standing = try await logins.standing(hashes)
        let ended = hashes.filter { !standing.contains($0) }.sorted()
        if !ended.isEmpty { context.logger.info("Chat logins ended", metadata: ["chat.ended": "\(ended.count)"]) }
        return JSONResponse.make(Ended(ended: ended))
    }

    private func check(_ form: FormParameters, _ context: KinshipRequestContext) async throws -> Response {
        guard let user = form["user"], !user.isEmpty, let token = form["token"], !token.isEmpty else {
            return JSONResponse.make(Answer(allowed: false, reason: "Send user and token as a form."), status: .badRequest)
        }
        let refusal: String
        switch try await inspector.inspect(token) {
        case .failure(let problem):
            refusal = problem.message
        case .success(let grant) where grant.user.id != user:
            refusal = "The token belongs to another person."
        case .success(let grant) where !grant.authorization.granted.contains(.xmppLogin):
            refusal = "The token was not granted xmpp_login: log in to the app again and allow chat."
        case .success:
            context.logger.info("Chat login allowed", metadata: ["user.id": "\(user)"])
            return JSONResponse.make(Answer(allowed: true, reason: nil))
        }
        context.logger.info("Chat login refused", metadata: ["user.id": "\(user)", "reason": "\(refusal)"])
        return JSONResponse.make(Answer(allowed: false, reason: refusal), status: .forbidden)
    }
}
