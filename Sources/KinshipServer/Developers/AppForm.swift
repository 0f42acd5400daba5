import Foundation
import KinshipCore

/// The app form of the developer pages, as typed: kept as it was typed when it is shown again
/// with its problems, one message per bad field or redirect URI.
struct AppForm: Sendable {
    var name = ""
    var isConfidential = false
    /// One per line in the form.
    var redirectURIs: [String] = []
    var deauthorizeURL = ""
    var dataDeletionURL = ""
    var mayPublish = false
    var mayChat = false

    init() {}

    init(_ form: FormParameters) {
        name = String((form["name"] ?? "").prefix(200))
        isConfidential = form["type"] == "confidential"
        redirectURIs = (form["redirect_uris"] ?? "").split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.prefix(50).map { String($0.prefix(2_000)) }
        deauthorizeURL = (form["deauthorize_url"] ?? "").trimmingCharacters(in: .whitespaces)
        dataDeletionURL = (form["data_deletion_url"] ?? "").trimmingCharacters(in: .whitespaces)
        mayPublish = form["may_publish"] != nil
        mayChat = form["may_chat"] != nil
    }

    init(_ app: AppRecord) {
        name = app.name
        isConfidential = app.isConfidential
        redirectURIs = app.redirectURIs
        deauthorizeURL = app.deauthorizeCallbackURL ?? ""
        dataDeletionURL = app.dataDeletionCallbackURL ?? ""
        mayPublish = app.mayPublish
        mayChat = app.mayChat
    }

    /// What is wrong with the form, by the same rules the dialog and the callbacks enforce.
    func problems() -> [String] {
        var problems: [String] = []
        do { _ = try AppStore.checkedName(name) } catch { problems.append(error.description) }
        for uri in redirectURIs {
            do { try RedirectURIPolicy.validateForRegistration(uri) } catch { problems.append(error.description) }
        }
        for (label, url) in [("deauthorize", deauthorizeURL), ("data deletion", dataDeletionURL)] where !url.isEmpty {
            do { try CallbackURLPolicy.validate(url) } catch { problems.append("The \(label) callback URL: " + error.description) }
        }
        return problems
    }

    /// The form's values for the page.
    var values: [String: Any] {
        [
            "name": name, "isConfidential": isConfidential, "redirectURIs": redirectURIs.joined(separator: "\n"),
            "deauthorizeURL": deauthorizeURL, "dataDeletionURL": dataDeletionURL, "mayPublish": mayPublish, "mayChat": mayChat,
        ]
    }
}
