import HTTPTypes
import Hummingbird
import KinshipCore

/// An answer a page route gives before its work is done: an error page, a redirect to log in.
/// Thrown from deep in a route; Hummingbird sends its response as an ``HTTPResponseError``.
struct EarlyAnswer: HTTPResponseError {
    let response: Response

    var status: HTTPResponse.Status { response.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }
}

extension PageRenderer {
    /// A page form's body, bounded in size; anything else is answered with an error page.
    func readForm(_ request: Request, limit: Int) async throws -> FormParameters {
        do throws(FormReader.Failure) {
            return try await FormReader.read(request, limit: limit)
        } catch {
            switch error {
            case .notAForm:
                throw EarlyAnswer(
                    response: self.error(
                        status: .unsupportedMediaType,
                        heading: "Unexpected request",
                        message: "This address takes an HTML form (application/x-www-form-urlencoded)."
                    )
                )
            case .tooLarge(let limit):
                throw EarlyAnswer(
                    response: self.error(
                        status: .contentTooLarge,
                        heading: "Too much data",
                        message: "The form was larger than \(limit / 1024) KiB, so it was not read."
                    )
                )
            }
        }
    }
}
