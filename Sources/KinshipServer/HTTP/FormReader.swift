import HTTPTypes
import Hummingbird
import KinshipCore

/// Reads `application/x-www-form-urlencoded` bodies, bounded in size.
enum FormReader {
    /// Why a body could not be read as a form.
    enum Failure: Error {
        case notAForm
        case tooLarge(limit: Int)
    }

    static func read(_ request: Request, limit: Int) async throws(Failure) -> FormParameters {
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else { throw .notAForm }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return FormParameters(formEncoded: String(buffer: buffer))
        } catch {
            throw .tooLarge(limit: limit)
        }
    }

    /// The query string of a request as parameters.
    static func query(of request: Request) -> FormParameters {
        FormParameters(formEncoded: request.uri.query ?? "")
    }
}
