import KinshipContacts

/// A deterministic mix of the names a contact list really holds: Chinese (with the family names
/// that read differently), Latin with and without accents, other scripts, and junk.
struct NameGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let chineseFamilyNames = Array("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤单仇解区查")
    static let chineseCompoundFamilyNames = ["欧阳", "司马", "上官", "诸葛", "尉迟", "万俟", "长孙", "慕容"]
    static let chineseGivenCharacters = Array("伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超秀兰霞平刚桂英华玉萍红娥玲芬燕彬鹏辉丹宇浩凯健俊帆帅旭宁龙林欢阳佳")
    static let latinFirstNames = [
        "Émile", "Zoë", "José", "Chloé", "Åsa", "Søren", "Łukasz", "Björn", "Renée", "François", "Ada", "Grace",
        "Alan", "Linus", "Margaret", "Dennis", "Ken", "Barbara", "Edsger", "Tim", "Frances", "Niklaus", "Ole", "Bjarne", "Guido",
    ]
    static let latinLastNames = [
        "Zola", "Müller", "Núñez", "Ångström", "Øvergaard", "Wałęsa", "Dvořák", "Lovelace", "Hopper", "Turing",
        "Torvalds", "Hamilton", "Ritchie", "Thompson", "Liskov", "Dijkstra", "Berners-Lee", "Allen", "Wirth", "Dahl", "Stroustrup",
    ]
    static let otherScriptNames = [
        "Кирилл Петров", "Анна Смирнова", "Ελένη Παπαδοπούλου", "Γιώργος", "김민수", "이서연", "박지훈",
        "カタカナ", "さくら", "タナカ", "Ольга", "Дмитрий",
    ]
    static let junk = ["42", "007 Bond", "😀", "🎉 Party", "#hashtag", "", "   ", "@handle", "+1 555 0100", "…"]

    mutating func contacts(_ count: Int) -> [Contact] {
        (0..<count).map { index in
            let name = self.name()
            return Contact(id: "user-\(index)", name: name, searchKeys: ["user\(index)@chat.example.com"])
        }
    }

    mutating func name() -> String {
        switch random.next(100) {
        case 0..<40:
            let family =
                random.next(20) == 0
                ? Self.chineseCompoundFamilyNames[random.next(Self.chineseCompoundFamilyNames.count)]
                : String(Self.chineseFamilyNames[random.next(Self.chineseFamilyNames.count)])
            let given = (0..<(1 + random.next(2))).map { _ in Self.chineseGivenCharacters[random.next(Self.chineseGivenCharacters.count)] }
            return family + String(given)
        case 40..<75:
            return Self.latinFirstNames[random.next(Self.latinFirstNames.count)] + " "
                + Self.latinLastNames[random.next(Self.latinLastNames.count)]
        case 75..<90:
            return Self.otherScriptNames[random.next(Self.otherScriptNames.count)]
        default:
            return Self.junk[random.next(Self.junk.count)]
        }
    }
}

/// A small, fast, seedable random number generator (SplitMix64), so every run sees the same names.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ upperBound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(upperBound))
    }
}
