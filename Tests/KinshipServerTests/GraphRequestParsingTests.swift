import HTTPTypes
import Testing

@testable import KinshipServer

@Suite("Graph request parsing")
struct GraphRequestParsingTests {
    @Test("fields: names, spaces, modifiers, repeats and the default")
    func fields() throws {
        let selection = try FieldSelection(parsing: " id, name ,picture.type(large).width(200),id,,", default: ["id"])
        #expect(selection.fields.map(\.name) == ["id", "name", "picture"])
        #expect(selection.fields[2].modifiers == ["type": "large", "width": "200"])
        #expect(try FieldSelection(parsing: nil, default: ["id", "name"]).fields.map(\.name) == ["id", "name"])
        #expect(try FieldSelection(parsing: "   ", default: ["id"]).fields.map(\.name) == ["id"])
    }

    @Test("fields: malformed lists are error 100 naming the item", arguments: ["na(me", "Name", "picture.type(large", "picture.(x)", "名字", "a.b"])
    func malformedFields(_ text: String) {
        #expect {
            try FieldSelection(parsing: text, default: ["id"])
        } throws: { error in
            guard let error = error as? GraphError else { return false }
            return error.code == 100 && error.message.contains("Syntax error in fields")
        }
    }

    @Test("Authorization: the bearer scheme in any case, spaces around the token")
    func bearerToken() {
        func token(_ value: String) -> String? { GraphController.bearerToken([.authorization: value]) }
        #expect(token("Bearer kat_abc") == "kat_abc")
        #expect(token("bEaReR   kat_abc  ") == "kat_abc")
        #expect(token("Basic a2F0X2FiYw==") == nil)
        #expect(token("Bearer") == nil)
        #expect(token("Bearerkat_abc") == nil)
        #expect(GraphController.bearerToken([:]) == nil)
    }
}
