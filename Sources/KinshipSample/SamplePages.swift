import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// The sample app's templates and static files, loaded once at start-up.
struct SamplePages: Sendable {
    private let library: MustacheLibrary
    /// `sample.css` and `picker.js`, with their content types.
    let assets: [String: (contentType: String, body: String)]

    static func load() async throws -> SamplePages {
        guard let resources = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            throw SampleAppError.missingResources
        }
        let library = try await MustacheLibrary(directory: resources.appendingPathComponent("templates").path)
        var assets: [String: (String, String)] = [:]
        for (name, type) in [("sample.css", "text/css; charset=utf-8"), ("picker.js", "text/javascript; charset=utf-8")] {
            assets[name] = (type, try String(contentsOf: resources.appendingPathComponent("assets/\(name)"), encoding: .utf8))
        }
        return SamplePages(library: library, assets: assets)
    }

    func page(_ template: String, _ values: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(values, withTemplate: template) ?? "<p>This page could not be shown.</p>"
        return Response(
            status: html.hasPrefix("<p>") ? .internalServerError : status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }
}

/// Why the sample app could not start.
public enum SampleAppError: Error, CustomStringConvertible {
    case missingResources

    public var description: String { "The sample app's templates were not found next to the executable." }
}
