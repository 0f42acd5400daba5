import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders the server's HTML pages from the Mustache templates shipped in the package's resources.
struct PageRenderer: Sendable {
    private let library: MustacheLibrary
    /// The stylesheet every page links to.
    let stylesheet: String

    /// Loads every template and asset; fails at start-up, not on the first request.
    static func load() async throws -> PageRenderer {
        guard let resources = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            throw PageError.missingResources
        }
        let library = try await MustacheLibrary(directory: resources.appendingPathComponent("templates").path)
        let stylesheet = try String(contentsOf: resources.appendingPathComponent("assets/kinship.css"), encoding: .utf8)
        return PageRenderer(library: library, stylesheet: stylesheet)
    }

    /// A page rendered from `template` with `values`; a page that cannot render is a server error.
    func page(
        _ template: String,
        _ values: [String: Any],
        status: HTTPResponse.Status = .ok,
        headers: HTTPFields = [:]
    )
        -> Response
    {
        var headers = headers
        headers[.contentType] = "text/html; charset=utf-8"
        guard let html = library.render(values, withTemplate: template) else {
            return Response(
                status: .internalServerError,
                headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: "<p>This page could not be shown.</p>"))
            )
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A page that says something is done, with a link onwards.
    func done(heading: String, message: String, link: (text: String, target: String)? = nil) -> Response {
        var values: [String: Any] = ["title": heading, "heading": heading, "message": message]
        if let link {
            values["linkText"] = link.text
            values["linkTarget"] = link.target
        }
        return page("done", values)
    }

    /// An error page: a heading, what went wrong, and what the person can do about it.
    func error(status: HTTPResponse.Status, heading: String, message: String, detail: String? = nil) -> Response {
        var values: [String: Any] = ["title": heading, "heading": heading, "message": message]
        if let detail { values["detail"] = detail }
        return page("error", values, status: status)
    }
}

enum PageError: Error, CustomStringConvertible {
    case missingResources

    var description: String { "The server's templates were not found next to the executable." }
}
