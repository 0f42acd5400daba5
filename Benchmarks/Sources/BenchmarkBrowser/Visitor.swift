import AsyncHTTPClient
import Foundation
import NIOCore

/// One person at a browser: a cookie jar and the requests a browser makes, over the shared client.
package final class Visitor: @unchecked Sendable {
    /// An answer: status, headers and body as text.
    package struct Answer {
        package let status: Int
        package let location: String?
        package let body: String
    }

    package let client: HTTPClient
    package let base: String
    private var cookies: [String: String] = [:]

    package init(client: HTTPClient, base: String) {
        self.client = client
        self.base = base
    }

    package func forgetCookies() { cookies = [:] }

    package func get(_ path: String) async throws -> Answer {
        try await send(HTTPClientRequest(url: base + path))
    }

    package func post(_ path: String, form: [(String, String)]) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: Self.encode(form)))
        return try await send(request)
    }

    private func send(_ request: HTTPClientRequest) async throws -> Answer {
        var request = request
        if !cookies.isEmpty {
            request.headers.add(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        for header in response.headers["Set-Cookie"] {
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let value = String(pair[pair.index(after: equals)...])
            cookies[String(pair[..<equals])] = value.isEmpty ? nil : value
        }
        let body = try await response.body.collect(upTo: 4 << 20)
        return Answer(status: Int(response.status.code), location: response.headers.first(name: "Location"), body: String(buffer: body))
    }

    package static func encode(_ form: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }
}

/// Reading what pages carry.
package enum Page {
    package static func csrfToken(_ html: String) -> String? {
        html.firstMatch(of: /name="csrf_token" value="([^"]*)"/).map { String($0.1) }
    }

    /// The fields of the form posting to `action`, as a browser would submit them (checked boxes only).
    package static func fields(of html: String, action: String) -> [(String, String)]? {
        guard let form = html.firstMatch(of: try! Regex("<form[^>]*action=\"\(action)\"[^>]*>(.*?)</form>").dotMatchesNewlines())
        else { return nil }
        var fields: [(String, String)] = []
        for input in String(form.output[1].substring ?? "").matches(of: /<input([^>]*)>/) {
            let attributes = String(input.1)
            guard let name = attributes.firstMatch(of: /\sname="([^"]*)"/).map({ String($0.1) }) else { continue }
            let value = attributes.firstMatch(of: /\svalue="([^"]*)"/).map { unescape(String($0.1)) } ?? ""
            if attributes.contains("type=\"checkbox\""), !attributes.contains(" checked") { continue }
            fields.append((name, value))
        }
        return fields
    }

    package static func unescape(_ html: String) -> String {
        html.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&amp;", with: "&")
    }
}
