import Foundation
import Testing

@testable import KinshipServer

@Suite("JSON values")
struct JSONValueTests {
    @Test("written JSON parses back to the same value, with escapes")
    func roundTrip() throws {
        let value: JSONValue = .object([
            ("name", "Ada \"the Countess\" \\ Lovelace\n\t\u{1}"), ("id", 42), ("ok", true), ("none", .null),
            ("list", ["张三", .object([("k", -7)])]),
        ])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(value.serialized)) as? [String: Any])
        #expect(parsed["name"] as? String == "Ada \"the Countess\" \\ Lovelace\n\t\u{1}")
        #expect(parsed["id"] as? Int == 42)
        #expect(parsed["ok"] as? Bool == true)
        #expect(parsed["none"] is NSNull)
        #expect((parsed["list"] as? [Any])?.first as? String == "张三")
        #expect(String(decoding: JSONValue.object([("a", 1), ("b", "x")]).serialized, as: UTF8.self) == #"{"a":1,"b":"x"}"#)
    }
}
