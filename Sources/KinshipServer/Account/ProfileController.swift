import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// The person's profile: `GET /account` shows it, `POST /account/profile` changes its fields,
/// `POST /account/picture` replaces the picture (a PNG or JPEG form upload).
struct ProfileController: Sendable {
    let account: AccountPages

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/account") { request, _ in try await show(request) }
        router.post("/account/profile") { request, context in try await update(request, context) }
        router.post("/account/picture") { request, context in try await upload(request, context) }
    }

    private static let notices = [
        "welcome": "Welcome to Kinship! Add a picture and find your friends.",
        "saved": "Your profile was saved.",
        "picture": "Your new picture is up.",
    ]

    private func show(_ request: Request) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let notice = FormReader.query(of: request)["notice"].flatMap { Self.notices[$0] }
        return try await page(person, user: person.user, notice: notice, message: nil, status: .ok)
    }

    private func update(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        let changes = ProfileChanges(
            name: form["name"] ?? "",
            firstName: form["first_name"],
            lastName: form["last_name"],
            birthday: form["birthday"],
            hometown: form["hometown"],
            location: form["location"],
            findableByEmail: form["findable_by_email"] == "on"
        )
        do {
            _ = try await account.platform.users.update(person.user.id, with: changes)
        } catch let error as AccountError {
            return try await page(
                person,
                user: changes.typed(over: person.user),
                notice: nil,
                message: error.description,
                status: .badRequest
            )
        }
        context.logger.info("Profile changed", metadata: ["user.id": "\(person.user.id)"])
        return AccountPages.redirect(to: "/account?notice=saved")
    }

    private func upload(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        guard let boundary = Self.boundary(of: request.headers[.contentType]) else {
            return try await page(
                person,
                user: person.user,
                notice: nil,
                message: "The picture must be sent as a file upload (multipart/form-data).",
                status: .unsupportedMediaType
            )
        }
        let limit = UploadedImage.maximumBytes + 64 * 1024
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch {
            return try await page(
                person,
                user: person.user,
                notice: nil,
                message: "The picture is larger than \(UploadedImage.maximumBytes / (1024 * 1024)) MiB. Choose a smaller one.",
                status: .contentTooLarge
            )
        }
        guard let form = try? MultipartForm(parsing: body, boundary: boundary, maximumParts: Self.maximumParts),
            let token = form["csrf_token"], let picture = form["picture"]
        else {
            return try await page(
                person,
                user: person.user,
                notice: nil,
                message: "The upload could not be read. Choose a PNG or JPEG file and try again.",
                status: .badRequest
            )
        }
        guard account.csrf.verify(String(decoding: token.body, as: UTF8.self), forSession: person.session) else {
            return account.formExpired()
        }
        guard !picture.body.isEmpty else {
            return try await page(
                person,
                user: person.user,
                notice: nil,
                message: "Choose a PNG or JPEG file first.",
                status: .badRequest
            )
        }
        do {
            try await account.platform.pictures.save(userID: person.user.id, imageData: Data(picture.body))
        } catch let error as PictureError {
            return try await page(person, user: person.user, notice: nil, message: error.description, status: .badRequest)
        }
        context.logger.info("Picture uploaded", metadata: ["user.id": "\(person.user.id)", "picture.bytes": "\(picture.body.count)"])
        return AccountPages.redirect(to: "/account?notice=picture")
    }

    private func page(
        _ person: SignedIn,
        user: UserRecord,
        notice: String?,
        message: String?,
        status: HTTPResponse.Status
    ) async throws -> Response {
        let version = try await account.platform.pictures.metadata(userID: user.id)?.updatedAt
        var values: [String: Any] = [
            "userID": user.id, "name": user.name, "email": user.email, "firstName": user.firstName ?? "",
            "lastName": user.lastName ?? "", "birthday": user.birthday ?? "", "hometown": user.hometown ?? "",
            "location": user.location ?? "", "findableByEmail": user.isFindableByEmail,
            "pictureURL": "/pictures/\(user.id)?size=200" + (version.map { "&v=\($0)" } ?? ""),
            "maximumMiB": UploadedImage.maximumBytes / (1024 * 1024),
        ]
        if let message { values["message"] = message }
        return account.page(
            "profile",
            title: "Your profile",
            section: "profile",
            person: person,
            values: values,
            notice: notice,
            status: status
        )
    }

    /// The most parts a picture upload may have; the form sends two.
    static let maximumParts = 8

    /// The `boundary` parameter of a `multipart/form-data` content type.
    static func boundary(of contentType: String?) -> String? {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "boundary" {
                let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                return value.isEmpty || value.count > 70 ? nil : value
            }
        }
        return nil
    }
}
