import HTTPTypes
import Hummingbird

/// API versions in paths, as Graph clients send them: `/v1.0/me` is `/me`.
enum APIVersion {
    /// `v` followed by digits, optionally `.` and digits: `v1.0`, `v19.0`, `v2`.
    static func isVersion(_ component: Substring) -> Bool {
        guard component.first == "v" else { return false }
        let number = component.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(number.count) && number.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}

/// Strips a leading API version from the path before routing, so every route answers with or without one.
struct APIVersionStrippingResponder<Responder: HTTPResponder>: HTTPResponder {
    let responder: Responder

    func respond(to request: Request, context: Responder.Context) async throws -> Response {
        let components = request.uri.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true)
        guard let first = components.first, APIVersion.isVersion(first) else {
            return try await responder.respond(to: request, context: context)
        }
        var head = request.head
        head.path = (components.count > 1 ? "/" + components[1] : "/") + (request.uri.query.map { "?" + $0 } ?? "")
        return try await responder.respond(to: Request(head: head, body: request.body), context: context)
    }
}
