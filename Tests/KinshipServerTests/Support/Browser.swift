import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import Logging
import NIOCore

/// A scripted browser for the dialog: keeps cookies, reads forms, submits them. It does not follow
/// redirects by itself, so tests can look at each one.
final class Browser: @unchecked Sendable {
    /// Sends one request and returns the response head and body.
    typealias Send = @Sendable (String, HTTPRequest.Method, HTTPFields, ByteBuffer?) async throws -> (HTTPResponse, ByteBuffer)

    private let sendRequest: Send
    private(set) var cookies: [String: String] = [:]
    /// Every Set-Cookie header received, as sent.
    private(set) var setCookieHeaders: [String] = []
    /// The `User-Agent` every request carries, if any.
    var userAgent: String?

    /// A browser on the live test framework's client.
    convenience init(client: any TestClientProtocol) {
        self.init { uri, method, headers, body in
            let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: body)
            return (response.head, response.body)
        }
    }

    init(send: @escaping Send) {
        self.sendRequest = send
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> Page {
        try await send(uri, method: .get, headers: headers, body: nil)
    }

    func post(_ uri: String, form: FormParameters) async throws -> Page {
        try await send(
            uri,
            method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: form.formEncoded)
        )
    }

    /// Submits the page's form whose action is `action`, with changes applied to its fields.
    func submit(
        _ page: Page,
        action: String,
        button: (name: String, value: String)? = nil,
        untick: [String] = []
    )
        async throws -> Page
    {
        guard let form = page.form(action: action) else {
            throw BrowserError.noForm(action: action, html: page.body)
        }
        var fields = FormParameters()
        for field in form.fields where !(field.name == "permission" && untick.contains(field.value)) {
            fields.append(field.name, field.value)
        }
        if let button { fields.append(button.name, button.value) }
        return try await post(action, form: fields)
    }

    func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    func send(_ uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> Page {
        var headers = headers
        if let userAgent { headers[.userAgent] = userAgent }
        if !cookies.isEmpty {
            headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
        }
        let (head, responseBody) = try await sendRequest(uri, method, headers, body)
        for header in head.headerFields[values: .setCookie] {
            setCookieHeaders.append(header)
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            let expired = header.lowercased().contains("max-age=0")
            cookies[name] = expired || value.isEmpty ? nil : value
        }
        return Page(status: head.status, headers: head.headerFields, body: String(buffer: responseBody))
    }
}

enum BrowserError: Error, CustomStringConvertible {
    case noForm(action: String, html: String)
    case noRedirect(Int)

    var description: String {
        switch self {
        case .noForm(let action, let html): "The page has no form posting to \(action):\n\(html)"
        case .noRedirect(let status): "Expected a redirect, got HTTP \(status)"
        }
    }
}

/// A response as a browser sees it.
struct Page: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    var location: String? { headers[.location] }

    /// An HTML form: its action and the fields it would submit (checked checkboxes only).
    struct Form: Sendable {
        let action: String
        let fields: [(name: String, value: String)]
        /// The values of the checkboxes named `permission`, ticked or not.
        let permissionCheckboxes: [String]
    }

    func form(action: String) -> Form? {
        let forms = body.matches(of: /<form[^>]*action="([^"]*)"[^>]*>(.*?)<\/form>/.dotMatchesNewlines())
        guard let match = forms.first(where: { Self.unescape(String($0.1)) == action }) else { return nil }
        var fields: [(name: String, value: String)] = []
        var checkboxes: [String] = []
        for input in match.2.matches(of: /<input([^>]*)>/) {
            let attributes = String(input.1)
            guard let name = Self.attribute("name", in: attributes) else { continue }
            let value = Self.attribute("value", in: attributes) ?? ""
            let type = Self.attribute("type", in: attributes) ?? "text"
            if type == "checkbox" {
                if name == "permission" { checkboxes.append(value) }
                if attributes.contains(" checked") { fields.append((name, value)) }
            } else {
                fields.append((name, value))
            }
        }
        return Form(action: action, fields: fields, permissionCheckboxes: checkboxes)
    }

    private static func attribute(_ name: String, in attributes: String) -> String? {
        let pattern = try! Regex(" \(name)=\"([^\"]*)\"")
        guard let match = attributes.firstMatch(of: pattern), let value = match.output[1].substring else { return nil }
        return unescape(String(value))
    }

    static func unescape(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&amp;", with: "&")
    }
}
