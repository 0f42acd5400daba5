/// The shape of a Graph path, for a metric's label: ids and names replaced by placeholders, so
/// every person's `/{id}/friends` counts as one series and a client's guesses cannot make more.
enum GraphPathShape {
    /// The edges the Graph answers; any other second part is `{unknown}`.
    static let edges: Set<Substring> = ["picture", "permissions", "friends", "feed"]

    /// `/me/friends` for `me/friends`, `/{id}/picture` for `1000…/picture`, `/{id}/permissions/{name}`.
    static func of(_ path: String) -> String {
        // The calls most apps make most often, answered without taking the path apart.
        switch path {
        case "me": return "/me"
        case "me/friends": return "/me/friends"
        default: break
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let node = parts.first else { return "/" }
        var shape = node == "me" ? "/me" : "/{id}"
        if parts.count > 1 { shape += edges.contains(parts[1]) ? "/" + parts[1] : "/{unknown}" }
        if parts.count > 2 { shape += parts[1] == "permissions" && parts.count == 3 ? "/{name}" : "/{unknown}" }
        return shape
    }
}
