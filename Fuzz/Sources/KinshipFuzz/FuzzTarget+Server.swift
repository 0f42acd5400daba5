import Foundation
import HTTPTypes
import KinshipCore
import NIOCore

@testable import KinshipServer

extension FuzzTarget {
    static let serverTargets: [FuzzTarget] = [
        FuzzTarget(name: "form", summary: "application/x-www-form-urlencoded bodies and query strings") { bytes in
            let form = FormParameters(formEncoded: bytes.text)
            invariant(FormParameters(formEncoded: form.formEncoded) == form, "a form re-encoded reads back the same")
        },
        FuzzTarget(name: "dialog", summary: "login dialog requests, checked as the dialog checks them") { bytes in
            let parameters = FormParameters(formEncoded: bytes.text)
            _ = DialogRequestValidator.parameterNames.filter { parameters.all($0).count > 1 }
            guard let request = try? AuthorizationRequest(parameters: parameters) else { return }
            _ = request.redirectableProblem
            invariant(
                (try? AuthorizationRequest(parameters: request.parameters))?.clientID == request.clientID,
                "a request written out reads back"
            )
            _ = AuthorizationResponse.code("kac_x", state: request.state).redirectURL(to: request.redirectURI, issuer: "https://k.example")
        },
        FuzzTarget(name: "redirect-uri", summary: "redirect URIs, at registration and against a registered app") { bytes in
            let uri = bytes.text
            let app = AppRecord(
                id: "1",
                name: "Fuzz",
                isConfidential: false,
                redirectURIs: ["http://127.0.0.1/callback", "https://app.example.com/cb"],
                secretHash: "",
                createdAt: 0
            )
            let registrable = (try? RedirectURIPolicy.validateForRegistration(uri)) != nil
            let allowed = RedirectURIPolicy.allows(uri, for: app)
            if allowed, !app.redirectURIs.contains(uri), uri != app.customSchemeRedirectURI {
                invariant(uri.hasPrefix("http://127.0.0.1") || uri.hasPrefix("http://[::1]"), "only loopback matches loosely: \(uri)")
                invariant(RedirectURIPolicy.hasValidPort(uri), "an allowed URI has a valid port: \(uri)")
            }
            if registrable, let scheme = URLComponents(string: uri)?.scheme?.lowercased() {
                invariant(!["javascript", "data", "file", "vbscript"].contains(scheme), "\(scheme): is never registered")
            }
        },
        FuzzTarget(name: "fields", summary: "the Graph fields= syntax") { bytes in
            guard let selection = try? FieldSelection(parsing: bytes.text, default: ["id"]) else { return }
            invariant(selection.fields.count <= FieldSelection.maximumCount, "at most \(FieldSelection.maximumCount) fields")
            invariant(Set(selection.fields.map(\.name)).count == selection.fields.count, "each field once")
        },
        FuzzTarget(name: "batch", summary: "Graph batch JSON and its relative URLs") { bytes in
            guard let parts = try? JSONDecoder().decode([BatchPart].self, from: Data(bytes)) else { return }
            for part in parts.prefix(GraphController.batchLimit) {
                let (path, query) = GraphController.split(part.relativeURL)
                _ = FormParameters(formEncoded: query)
                _ = try? FieldSelection(parsing: FormParameters(formEncoded: query)["fields"], default: ["id"])
                invariant(!path.hasPrefix("/"), "a batch path is relative")
            }
        },
        FuzzTarget(name: "cursor", summary: "paging cursors apps send back") { bytes in
            guard let cursor = FriendCursor(encoded: bytes.text) else { return }
            invariant(FriendCursor(encoded: cursor.encoded) == cursor, "a cursor written out reads back the same")
        },
        FuzzTarget(name: "bearer", summary: "Authorization headers") { bytes in
            var headers = HTTPFields()
            headers[.authorization] = bytes.text
            guard let token = GraphController.bearerToken(headers) else { return }
            invariant(!token.hasPrefix(" ") && !token.hasSuffix(" "), "the token is trimmed")
        },
        FuzzTarget(name: "token-cache-key", summary: "remote token cache keys") { bytes in
            let key = bytes.text
            if TokenCacheStore.isValidKey(key) {
                invariant((22...128).contains(key.utf8.count), "a valid key is 22 to 128 characters")
            }
        },
        FuzzTarget(name: "multipart", summary: "picture uploads: the content type, the body, the image in it") { bytes in
            let (header, body) = bytes.halves
            let boundary = ProfileController.boundary(of: "multipart/form-data; " + header.text) ?? "b"
            guard
                let form = try? MultipartForm(
                    parsing: ByteBuffer(bytes: body),
                    boundary: boundary,
                    maximumParts: ProfileController.maximumParts
                )
            else { return }
            invariant(form.parts.count <= ProfileController.maximumParts, "at most \(ProfileController.maximumParts) parts")
            invariant(form.parts.allSatisfy { $0.body.count <= body.count }, "a part is no longer than the body")
            if let picture = form["picture"] { _ = try? UploadedImage(Data(picture.body)) }
        },
        FuzzTarget(name: "image", summary: "PNG and JPEG headers of uploaded pictures") { bytes in
            guard let image = try? UploadedImage(Data(bytes)) else { return }
            invariant((1...UploadedImage.maximumSide).contains(image.width), "a width within bounds")
            invariant((1...UploadedImage.maximumSide).contains(image.height), "a height within bounds")
        },
    ]
}
