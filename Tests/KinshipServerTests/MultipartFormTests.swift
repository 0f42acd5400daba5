import Foundation
import NIOCore
import Testing

@testable import KinshipServer

@Suite("multipart/form-data bodies")
struct MultipartFormTests {
    static func read(_ text: String, boundary: String = "b") throws(MultipartForm.Failure) -> MultipartForm {
        try MultipartForm(parsing: ByteBuffer(string: text), boundary: boundary, maximumParts: 8)
    }

    @Test("fields and a file, as browsers send them: preamble, quoted names, UTF-8 file names, CR LF inside a body")
    func browserForm() throws {
        let form = try Self.read(
            "ignored preamble\r\n--b\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\nabc\r\n"
                + "--b \r\ncontent-disposition: form-data; name=\"picture\"; filename=\"张伟; \\\"me\\\".png\"\r\n"
                + "Content-Type:  image/png \r\n\r\nline one\r\nline two\r\n--b--\r\nepilogue"
        )
        #expect(form.parts.map(\.name) == ["csrf_token", "picture"])
        #expect(form["csrf_token"]?.body == Array("abc".utf8))
        let picture = try #require(form["picture"])
        #expect(picture.filename == "张伟; \"me\".png")
        #expect(picture.contentType == "image/png")
        #expect(picture.body == Array("line one\r\nline two".utf8))
    }

    @Test(
        "what is refused",
        arguments: [
            ("no boundary at all", "just text"),
            ("an unclosed part", "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nvalue"),
            ("headers without their blank line", "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n"),
            ("a header without a colon", "--b\r\nnonsense\r\n\r\nx\r\n--b--"),
            ("a part without Content-Disposition", "--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--"),
            ("a part that is not form-data", "--b\r\nContent-Disposition: attachment; name=\"x\"\r\n\r\nx\r\n--b--"),
            ("a boundary line with more after it", "--bx\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nx\r\n--b--"),
            (
                "a byte above 127 in a header name (it stopped MultipartKit)",
                "--b\r\nContent\u{DD}: form-data; name=\"x\"\r\n\r\nx\r\n--b--"
            ),
        ]
    )
    func refused(what: String, body: String) {
        #expect(throws: MultipartForm.Failure.self, "\(what)") { try Self.read(body) }
    }

    @Test("the inputs fuzzing found are refused, not a crash")
    func fuzzFindings() {
        let headerName =
            Data("--b\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\nabc\r\n--b\r\nContent".utf8)
            + Data([0xDD, 0xBB, 0x96]) + Data(": x\r\n\r\npicture\r\n--b--\r\n".utf8)
        let bareLineFeed =
            Data("--b\r\nContent-Type: image/png".utf8) + Data([0x8D]) + Data("\n\r\n".utf8) + Data([0x89])
            + Data("PNG: x\r\n\r\n--b--\r\n".utf8)
        for body in [headerName, bareLineFeed] {
            #expect(throws: MultipartForm.Failure.self) {
                try MultipartForm(parsing: ByteBuffer(bytes: body), boundary: "b", maximumParts: 8)
            }
        }
    }

    @Test("boundaries are RFC 2046 characters, 1 to 70 of them")
    func boundaries() {
        #expect(MultipartForm.isValidBoundary("----WebKitFormBoundaryx7"))
        #expect(MultipartForm.isValidBoundary("a b"))
        #expect(!MultipartForm.isValidBoundary(""))
        #expect(!MultipartForm.isValidBoundary("trailing "))
        #expect(!MultipartForm.isValidBoundary("new\r\nline"))
        #expect(!MultipartForm.isValidBoundary(String(repeating: "b", count: 71)))
    }
}
