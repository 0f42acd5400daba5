import Foundation
import HTTPTypes
import KinshipCore

extension GraphService {
    /// `POST /me/feed` (`publish_actions`) and `GET /me/feed` (`user_posts`).
    func feed(_ request: GraphRequest, node: String) async throws -> GraphResponse {
        let caller = try await caller(request)
        let user = try ownNode(node, caller)
        if request.method == .post {
            try requirePermission(.publishActions, caller, for: "Posting to the timeline")
            let message = (request.parameters["message"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard !message.isEmpty, message.count <= 5000 else {
                throw GraphError.invalidParameter("message must be 1 to 5000 characters")
            }
            let link = request.parameters["link"].flatMap { $0.isEmpty ? nil : $0 }
            if let link, !(link.hasPrefix("https://") || link.hasPrefix("http://")) || URL(string: link)?.host == nil {
                throw GraphError.invalidParameter("link must be an http or https URL")
            }
            do {
                let post = try await platform.posts.publish(userID: user.id, appID: caller.authorization.appID, message: message, link: link)
                return .json(JSONValue.object([("id", .string("\(user.id)_\(post.id)"))]))
            } catch PostStore.Refusal.duplicate {
                throw GraphError(
                    code: GraphErrorCode.duplicatePost,
                    message: "(#506) Duplicate status message",
                    userTitle: "Already posted",
                    userMessage: "You just posted this. Write something new."
                )
            }
        }
        try requirePermission(.userPosts, caller, for: "Reading the timeline")
        let limit = try limit(request)
        let before = try request.parameters["until"].map { text -> Int in
            guard let value = Int(text) else { throw GraphError.invalidParameter("until must be a post sequence number") }
            return value
        }
        let posts = try await platform.posts.timeline(of: user.id, beforeSequence: before, limit: limit)
        let data = posts.map { post in
            var pairs: [(String, JSONValue)] = [
                ("id", .string("\(post.userId)_\(post.id)")), ("message", .string(post.message)),
                ("created_time", .string(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(post.createdAt))))),
            ]
            if let link = post.link { pairs.append(("link", .string(link))) }
            return JSONValue.object(pairs)
        }
        var paging: [(String, JSONValue)] = []
        if posts.count == limit, let last = posts.last {
            paging.append(("next", .string("\(request.baseURL)/\(request.path)?limit=\(limit)&until=\(last.sequence)")))
        }
        return .json(JSONValue.object([("data", .array(data)), ("paging", .object(paging))]))
    }
}
