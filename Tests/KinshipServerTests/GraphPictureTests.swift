import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Graph API: pictures", .timeLimit(.minutes(3)))
struct GraphPictureTests {
    private func pngSize(_ data: Data) -> (Int, Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        func int(_ range: Range<Int>) -> Int { bytes[range].reduce(0) { $0 << 8 | Int($1) } }
        return (int(16..<20), int(20..<24))
    }

    @Test("redirect to a generated picture, or its data with redirect=false; uploads replace it", arguments: TestEngine.enabled)
    func pictures(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let zhang = try await server.platform.users.create(NewUser(name: "张伟", email: "zw@example.com", password: testPassword))
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [])

            let redirect = try await server.client.executeRequest(
                uri: "/me/picture?type=large",
                method: .get,
                headers: [.authorization: "Bearer \(token)"],
                body: nil
            )
            #expect(redirect.status == .found)
            let location = try #require(redirect.headers[.location])
            let path = location.replacingOccurrences(of: #"^https?://[^/]+"#, with: "", options: .regularExpression)
            let image = try await server.client.executeRequest(uri: path, method: .get, headers: [:], body: nil)
            #expect(image.status == .ok)
            #expect(image.headers[.contentType] == "image/png")
            let size = pngSize(Data(buffer: image.body))
            #expect(size?.0 == 200 && size?.1 == 200)

            let (status, json) = try await server.graph("/\(ada.id)/picture?redirect=false&width=120&height=80", token: nil)
            #expect(status == .ok)
            let data = try #require(json["data"] as? [String: Any])
            #expect(data["width"] as? Int == 120)
            #expect(data["is_silhouette"] as? Bool == false)
            let (_, silhouette) = try await server.graph("/\(zhang.id)/picture?redirect=false", token: nil)
            #expect((silhouette["data"] as? [String: Any])?["is_silhouette"] as? Bool == true)
            #expect(try await server.graph("/\(ada.id)/picture?type=huge", token: nil).0 == .badRequest)

            let upload = try PNGEncoder.encode(width: 3, height: 2, pixels: [UInt8](repeating: 200, count: 18))
            try await server.platform.pictures.save(userID: ada.id, imageData: upload)
            let (_, uploaded) = try await server.graph("/me/picture?redirect=false", token: token)
            let uploadedData = try #require(uploaded["data"] as? [String: Any])
            #expect(uploadedData["width"] as? Int == 3 && uploadedData["height"] as? Int == 2)
            let stored = try await server.client.executeRequest(
                uri: (uploadedData["url"] as? String ?? "").replacingOccurrences(of: #"^https?://[^/]+"#, with: "", options: .regularExpression),
                method: .get,
                headers: [:],
                body: nil
            )
            #expect(Data(buffer: stored.body) == upload)
        }
    }

    @Test("uploads are checked: format, size and dimensions")
    func uploadValidation() throws {
        #expect(throws: PictureError.unsupportedFormat) { try UploadedImage(Data("GIF89a".utf8)) }
        #expect(throws: PictureError.self) { try UploadedImage(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) }
        #expect(throws: PictureError.self) { try UploadedImage(Data(repeating: 0xFF, count: UploadedImage.maximumBytes + 1)) }
        let jpeg = Data([
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x20, 0x00, 0x40, 0x03, 0, 0, 0, 0, 0, 0,
        ])
        let image = try UploadedImage(jpeg)
        #expect(image.contentType == "image/jpeg")
        #expect(image.width == 64 && image.height == 32)
        let huge = try PNGEncoder.encode(width: 1, height: 1, pixels: [0, 0, 0])
        var patched = [UInt8](huge)
        patched[16..<20] = [0, 0, 0x20, 0]
        #expect(throws: PictureError.badDimensions(width: 8192, height: 1)) { try UploadedImage(Data(patched)) }
    }
}
