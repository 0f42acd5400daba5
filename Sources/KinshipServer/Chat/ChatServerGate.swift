import Hummingbird
import KinshipCore
import Logging

/// What every call from the chat server must carry: the secret the two share
/// (``ChatAuthController/sharedSecret(from:)``, never an app's secret), as a bearer token.
struct ChatServerGate: Sendable {
    let sharedSecret: String

    private struct Refusal: Encodable {
        let allowed = false
        let reason: String
    }

    /// The answer to a caller without the shared secret; `nil` for the chat server.
    func refusal(_ request: Request, _ context: KinshipRequestContext) -> Response? {
        let presented = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        guard !ConstantTime.equals(presented, sharedSecret) else { return nil }
        context.logger.warning("Chat server call refused: the shared secret is wrong or missing", metadata: ["path": "\(request.uri.path)"])
        return Self.refuse("The chat server's shared secret is wrong; run kinship chat config again.", status: .unauthorized)
    }

    /// Answers a chat server call: refuses callers without the shared secret and bodies that are
    /// not forms of at most `formLimit` bytes, and hands the form to `answer`.
    func answer(
        _ request: Request,
        _ context: KinshipRequestContext,
        formLimit: Int,
        _ answer: (FormParameters) async throws -> Response
    ) async throws -> Response {
        if let refusal = refusal(request, context) { return refusal }
        let form: FormParameters
        do {
            form = try await FormReader.read(request, limit: formLimit)
        } catch {
            return Self.refuse("Send the fields as a form.", status: .badRequest)
        }
        return try await answer(form)
    }

    /// A refusal with its reason in words, as the chat server's modules read it.
    static func refuse(_ reason: String, status: HTTPResponse.Status) -> Response {
        JSONResponse.make(Refusal(reason: reason), status: status)
    }
}
