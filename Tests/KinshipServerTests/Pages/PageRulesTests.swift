import Testing

@testable import KinshipServer

@Suite("Page rules")
struct PageRulesTests {
    @Test(
        "next= after login stays on this site",
        arguments: [
            ("/account/friends?q=ada", "/account/friends?q=ada"), ("/", "/"), (nil, "/account"), ("", "/account"),
            ("//evil.example", "/account"), ("/\\evil.example", "/account"), ("https://evil.example", "/account"),
            ("javascript:alert(1)", "/account"), ("/account\r\nSet-Cookie: x=1", "/account"), ("account", "/account"),
            // What a WHATWG URL parser does with a Location: tab and newlines vanish, leading C0 and
            // spaces are stripped, and a backslash is a slash — each of these would be another site.
            ("/\t/evil.example", "/account"), ("/\n/evil.example", "/account"), ("/\r/evil.example", "/account"),
            ("\t//evil.example", "/account"), (" //evil.example", "/account"), ("\u{0C}//evil.example", "/account"),
            ("/\u{0}/evil.example", "/account"), ("\\\\evil.example", "/account"), ("/\u{7F}/evil.example", "/account"),
            ("/%09/evil.example", "/%09/evil.example"), ("/account?next=//evil.example", "/account?next=//evil.example"),
        ] as [(String?, String)]
    )
    func localPath(next: String?, expected: String) {
        #expect(AccountPages.localPath(next) == expected)
    }

    @Test("the multipart boundary is read from the content type, quoted or not, and bounded")
    func boundary() {
        #expect(ProfileController.boundary(of: "multipart/form-data; boundary=----WebKitFormBoundaryx7") == "----WebKitFormBoundaryx7")
        #expect(ProfileController.boundary(of: #"multipart/form-data; charset=utf-8; boundary="a b""#) == "a b")
        #expect(ProfileController.boundary(of: "Multipart/Form-Data; BOUNDARY=xyz") == "xyz")
        #expect(ProfileController.boundary(of: "multipart/form-data") == nil)
        #expect(ProfileController.boundary(of: "multipart/form-data; boundary=") == nil)
        #expect(ProfileController.boundary(of: "multipart/form-data; boundary=" + String(repeating: "b", count: 71)) == nil)
        #expect(ProfileController.boundary(of: "application/x-www-form-urlencoded; boundary=xyz") == nil)
        #expect(ProfileController.boundary(of: nil) == nil)
    }

    @Test("profile changes: trimmed, empty as absent, names taken from the name when both are empty")
    func profileChanges() throws {
        let changes = try ProfileChanges(
            name: "  Augusta Ada King ",
            firstName: " ",
            lastName: nil,
            birthday: "",
            hometown: " London ",
            location: nil
        ).normalized()
        #expect(changes.name == "Augusta Ada King")
        #expect(changes.firstName == "Augusta" && changes.middleName == "Ada" && changes.lastName == "King")
        #expect(changes.birthday == nil && changes.hometown == "London")
        let kept = try ProfileChanges(name: "Ada", firstName: "Augusta", lastName: "Byron").normalized()
        #expect(kept.firstName == "Augusta" && kept.lastName == "Byron" && kept.middleName == nil)
        #expect(throws: AccountError.invalid("The name must be 1 to 100 characters.")) {
            try ProfileChanges(name: "   ").normalized()
        }
    }
}
