import KinshipContacts
import Testing

@Suite("Search as you type")
struct SearchTests {
    let list = ContactList([
        Contact(id: "zhangsan", name: "张三"), Contact(id: "zhaosi", name: "赵四"), Contact(id: "zeng", name: "曾小贤"),
        Contact(id: "emile", name: "Émile Zola"), Contact(id: "kirill", name: "Кирилл"),
        Contact(id: "ada", name: "Ada Lovelace", searchKeys: ["ada@chat.example.com", "countess"]),
        Contact(id: "full", name: "ｆｕｌｌｗｉｄｔｈ"), Contact(id: "fiona", name: "ﬁona Shaw"),
    ])

    private func matches(_ text: String) -> Set<String> {
        var filtered = list
        filtered.searchText = text
        return Set(filtered.sections.flatMap(\.contacts).map(\.id))
    }

    @Test("case, accents and width do not matter")
    func folding() {
        #expect(matches("EMILE") == ["emile"])
        #expect(matches("émi") == ["emile"])
        #expect(matches("ｅｍｉｌ") == ["emile"])
        #expect(matches("fullwidth") == ["full"])
        #expect(matches("LOVE") == ["ada"])
        #expect(matches("fion") == ["fiona"], "a ligature is its letters")
        #expect(matches("ﬁ") == ["fiona"])
    }

    @Test("extra keys are searched")
    func keys() {
        #expect(matches("chat.example") == ["ada"])
        #expect(matches("countess") == ["ada"])
    }

    @Test("full pinyin, spaced pinyin and initials find Chinese names")
    func pinyin() {
        #expect(matches("zhangsan") == ["zhangsan"])
        #expect(matches("zhang san") == ["zhangsan"])
        #expect(matches("Zhang") == ["zhangsan"])
        #expect(matches("zs") == ["zhangsan", "zhaosi"])
        #expect(matches("zsan") == [])
        #expect(matches("zxx") == ["zeng"], "family-name reading in initials")
        #expect(matches("zengxiao") == ["zeng"])
        #expect(matches("张") == ["zhangsan"])
    }

    @Test("other scripts are found in their own letters and in Latin")
    func otherScripts() {
        #expect(matches("кир") == ["kirill"])
        #expect(matches("kirill") == ["kirill"])
    }

    @Test("a filter is a view: sections and index are recomputed for the matches")
    func view() {
        var filtered = list
        filtered.searchText = "z"
        #expect(filtered.indexTitles == ["E", "Z"])
        #expect(filtered.count == list.count, "the list still holds everyone")
        filtered.searchText = "  "
        #expect(filtered.indexTitles == list.indexTitles)
        filtered.searchText = "nobody"
        #expect(filtered.sections.isEmpty)
        #expect(filtered.indexTitles.isEmpty)
    }

    @Test("a newer search supersedes an older one; none returns another search's result")
    func superseded() async throws {
        let big = ContactList((0..<3000).map { Contact(id: "\($0)", name: "Name \($0)") })
        let search = ContactSearch()
        let texts = ["1", "12", "123", "1234"]
        let outcomes = await withTaskGroup(of: (String, Result<Int, any Error>).self) { group in
            for text in texts {
                group.addTask {
                    do {
                        return (text, .success(try await search.search(text, in: big).sections.flatMap(\.contacts).count))
                    } catch {
                        return (text, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for (text, outcome) in outcomes {
            switch outcome {
            case .success(let count):
                var expected = big
                expected.searchText = text
                #expect(count == expected.sections.flatMap(\.contacts).count)
            case .failure(let error):
                #expect(error is CancellationError)
            }
        }
        let last = try await search.search("299", in: big)
        #expect(Set(last.sections.flatMap(\.contacts).map(\.id)) == Set((0..<3000).map(String.init).filter { $0.contains("299") }))
    }
}
