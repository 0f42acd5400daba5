import Foundation

/// Which URLs an app may register for its callbacks: `https`, or `http` to a loopback address
/// (a developer's machine, a test); absolute, without credentials or a fragment.
enum CallbackURLPolicy {
    /// The longest URL accepted.
    static let maximumLength = 2000

    static func validate(_ text: String) throws(AppError) {
        guard text.utf8.count <= maximumLength else {
            throw .invalid("The callback URL is longer than \(maximumLength) characters.")
        }
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .invalid("The callback URL \(text) is not an absolute URL such as https://app.example.com/kinship/deauthorize.")
        }
        guard url.user == nil, url.password == nil else {
            throw .invalid("The callback URL \(text) carries a user name or password; the signed_request is what proves the caller.")
        }
        guard url.fragment == nil else { throw .invalid("The callback URL \(text) has a #fragment, which is never sent to a server.") }
        let loopback = ["127.0.0.1", "localhost", "[::1]", "::1"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw .invalid("The callback URL \(text) must use https (http is allowed only to 127.0.0.1, [::1] or localhost).")
        }
    }
}
