import Crypto
import Foundation
import Hummingbird
import KinshipCore

/// `POST /chat/vcard` `user=ID` (behind ``ChatServerGate``): the vCard of a Kinship person as
/// Prosody's `mod_roster_kinship` serves it (vcard-temp, XEP-0054) — the name and the given and
/// family names from the profile, and the profile picture (the uploaded one, or the one drawn from
/// the initials) with its SHA-1, which goes into the person's presence (XEP-0153).
struct ChatVCardController: Sendable {
    let platform: Platform
    let gate: ChatServerGate
    let maxFormBytes: Int

    /// The side, in pixels, of a drawn picture in a vCard.
    static let photoSide = 96

    private struct Card: Encodable {
        let name: String
        let first_name: String?
        let last_name: String?
        let photo_type: String
        let photo: String
        let photo_hash: String
    }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/chat/vcard") { request, context in try await gate.answer(request, context, formLimit: maxFormBytes, card) }
    }

    private func card(_ form: FormParameters) async throws -> Response {
        guard let userID = form["user"], !userID.isEmpty else { return ChatServerGate.refuse("Send user=ID.", status: .badRequest) }
        guard let user = try await platform.users.find(id: userID) else {
            return ChatServerGate.refuse("\(userID) is not a Kinship person.", status: .notFound)
        }
        let photo = try await PictureService(store: platform.pictures).image(for: user, side: Self.photoSide)
        let hash = Insecure.SHA1.hash(data: photo.data).map { String(format: "%02x", $0) }.joined()
        return JSONResponse.make(
            Card(
                name: user.name,
                first_name: user.firstName,
                last_name: user.lastName,
                photo_type: photo.contentType,
                photo: photo.data.base64EncodedString(),
                photo_hash: hash
            )
        )
    }
}
