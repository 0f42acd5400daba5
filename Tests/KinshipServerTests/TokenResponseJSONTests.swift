import Foundation
import KinshipCore
import NIOCore
import Testing

@testable import KinshipServer

/// The token endpoint writes its answer by hand (``TokenResponse/json``); it must be the bytes
/// `JSONEncoder` writes for every other answer, whatever the strings hold.
@Suite("The token answer's JSON")
struct TokenResponseJSONTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private static let answers = [
        TokenResponse(accessToken: "kat_abc", expiresIn: 7_200, grantedScopes: [.publicProfile], declinedScopes: []),
        TokenResponse(
            accessToken: "kat_0123456789-_",
            expiresIn: 0,
            grantedScopes: [.publicProfile, .email, .userFriends],
            declinedScopes: [.userBirthday],
            scope: "openid public_profile email user_friends",
            idToken: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln",
            refreshToken: "krt_xyz",
            refreshTokenExpiresIn: 7_776_000
        ),
        TokenResponse(
            accessToken: "quote \" backslash \\ slash / tab \t newline \n return \r",
            tokenType: "bell \u{07} backspace \u{08} form feed \u{0C} unit \u{1F} delete \u{7F}",
            expiresIn: -1,
            grantedScopes: ["é", "日本語", "emoji 👩‍💻", ""],
            declinedScopes: ["\u{00}"],
            scope: "",
            refreshToken: "\u{2028}\u{2029}"
        ),
    ]

    @Test("the bytes JSONEncoder writes, keys sorted and absent members left out", arguments: answers)
    func sameAsJSONEncoder(answer: TokenResponse) throws {
        let written = String(buffer: answer.json)
        let encoded = String(decoding: try Self.encoder.encode(answer), as: UTF8.self)
        #expect(written == encoded)
        #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(written.utf8)) == answer)
    }
}
