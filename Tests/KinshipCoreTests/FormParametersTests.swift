import KinshipCore
import Testing

@Suite struct FormParametersTests {
    @Test func decodesPlusPercentAndRepeatedNames() {
        let form = FormParameters(formEncoded: "a=1+2&b=%E5%BC%A0%20x&permission=email&permission=user_friends&flag&bad=%zz%4")
        #expect(form["a"] == "1 2")
        #expect(form["b"] == "张 x")
        #expect(form.all("permission") == ["email", "user_friends"])
        #expect(form["flag"] == "")
        #expect(form["bad"] == "%zz%4")
        #expect(form["missing"] == nil)
    }

    @Test func encodesLikeBrowsers() {
        let form: FormParameters = ["redirect_uri": "http://127.0.0.1:5000/cb?x=1&y", "name": "Ada Lovelace", "safe": "a-b.c_d*e"]
        #expect(form.formEncoded == "redirect_uri=http%3A%2F%2F127.0.0.1%3A5000%2Fcb%3Fx%3D1%26y&name=Ada+Lovelace&safe=a-b.c_d*e")
    }

    @Test(arguments: ["", "a=b", "ä=ö&x=+&%26=%3D", "k=v&k=w&k="])
    func roundTrips(_ encoded: String) {
        let form = FormParameters(formEncoded: encoded)
        #expect(FormParameters(formEncoded: form.formEncoded) == form)
    }

    @Test func readsSubstringsRawUTF8AndEmptyParts() {
        let query = "x=0&名=张三&&empty=&tail=%&e=%C3%A9"
        let form = FormParameters(formEncoded: query.dropFirst(4))
        #expect(form.pairs.map(\.name) == ["名", "empty", "tail", "e"])
        #expect(form["名"] == "张三")
        #expect(form["empty"] == "")
        #expect(form["tail"] == "%")
        #expect(form["e"] == "é")
    }
}
