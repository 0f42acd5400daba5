import Foundation
import KinshipCore
import Testing

@Suite("Base64url")
struct Base64URLTests {
    @Test("encodes without padding in the URL alphabet and reads back")
    func roundTrip() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF, 0x00, 0x10]
        #expect(Base64URL.encode(bytes) == "-_-_ABA")
        #expect(Base64URL.decode("-_-_ABA") == Data(bytes))
        #expect(Base64URL.decode("not base64url!") == nil)
        #expect(Base64URL.random(byteCount: 32).count == 43)
        #expect(Base64URL.isWellFormed("abc-_XYZ09", length: 10...10))
        #expect(!Base64URL.isWellFormed("abc+/XYZ09", length: 10...10))
        #expect(!Base64URL.isWellFormed("abc", length: 4...8))
    }

    @Test("is standard base64 in the URL alphabet without padding, at every length")
    func matchesStandardBase64() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...64 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
            let expected = String(standard.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" })
            #expect(Base64URL.encode(bytes) == expected, "\(length) bytes")
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == Data(bytes))
        }
    }

    @Test("random bytes of every length, past the 256 a call to the system's generator gives, never repeat")
    func randomLengths() {
        for length in [0, 1, 16, 32, 255, 256, 257, 600] {
            let text = Base64URL.random(byteCount: length)
            #expect(Base64URL.decode(text)?.count == length, "\(length) bytes")
        }
        let long = Base64URL.decode(Base64URL.random(byteCount: 600))!
        #expect(long.suffix(300).contains { $0 != 0 }, "the bytes after the first call are filled too")
        let tokens = (0..<1000).map { _ in Base64URL.random(byteCount: 16) }
        #expect(Set(tokens).count == 1000)
    }
}
