/// Readings of Chinese family names that differ from the characters' everyday readings
/// (曾 is "céng" in a word but "Zēng" as a name), and compound family names (尉迟 Yùchí, 万俟 Mòqí).
enum ChineseSurnames {
    /// Two-character family names and their syllables, simplified and traditional forms.
    private static let compound: [String: [String]] = [
        "尉迟": ["yu", "chi"], "尉遲": ["yu", "chi"], "万俟": ["mo", "qi"], "萬俟": ["mo", "qi"],
        "单于": ["chan", "yu"], "單于": ["chan", "yu"], "长孙": ["zhang", "sun"], "長孫": ["zhang", "sun"],
        "澹台": ["tan", "tai"], "澹臺": ["tan", "tai"], "皇甫": ["huang", "fu"], "欧阳": ["ou", "yang"], "歐陽": ["ou", "yang"],
        "司马": ["si", "ma"], "司馬": ["si", "ma"], "上官": ["shang", "guan"], "东方": ["dong", "fang"], "東方": ["dong", "fang"],
        "诸葛": ["zhu", "ge"], "諸葛": ["zhu", "ge"], "宇文": ["yu", "wen"], "慕容": ["mu", "rong"], "司徒": ["si", "tu"],
        "司空": ["si", "kong"], "夏侯": ["xia", "hou"], "公孙": ["gong", "sun"], "公孫": ["gong", "sun"],
        "轩辕": ["xuan", "yuan"], "軒轅": ["xuan", "yuan"], "令狐": ["ling", "hu"], "钟离": ["zhong", "li"], "鍾離": ["zhong", "li"],
        "闻人": ["wen", "ren"], "聞人": ["wen", "ren"], "赫连": ["he", "lian"], "赫連": ["he", "lian"], "呼延": ["hu", "yan"],
        "南宫": ["nan", "gong"], "南宮": ["nan", "gong"], "拓跋": ["tuo", "ba"], "独孤": ["du", "gu"], "獨孤": ["du", "gu"],
        "贺兰": ["he", "lan"], "賀蘭": ["he", "lan"], "端木": ["duan", "mu"], "西门": ["xi", "men"], "西門": ["xi", "men"],
        "东郭": ["dong", "guo"], "東郭": ["dong", "guo"], "申屠": ["shen", "tu"], "太史": ["tai", "shi"], "公冶": ["gong", "ye"],
        "百里": ["bai", "li"], "第五": ["di", "wu"], "左丘": ["zuo", "qiu"], "梁丘": ["liang", "qiu"], "濮阳": ["pu", "yang"],
        "濮陽": ["pu", "yang"], "淳于": ["chun", "yu"], "仲孙": ["zhong", "sun"], "仲孫": ["zhong", "sun"],
    ]

    /// One-character family names whose reading as a name differs from the common one.
    private static let single: [Unicode.Scalar: String] = [
        "曾": "zeng", "单": "shan", "單": "shan", "仇": "qiu", "解": "xie", "区": "ou", "區": "ou", "查": "zha",
        "覃": "qin", "尉": "wei", "朴": "piao", "翟": "zhai", "盖": "ge", "蓋": "ge", "乐": "yue", "樂": "yue",
        "缪": "miao", "繆": "miao", "沈": "shen", "秘": "bi", "繁": "po", "能": "nai", "种": "chong", "種": "chong",
        "员": "yun", "員": "yun", "华": "hua", "華": "hua", "任": "ren", "宁": "ning", "寧": "ning", "纪": "ji", "紀": "ji",
        "召": "shao", "冼": "xian", "都": "du", "万": "wan", "萬": "wan", "藏": "zang", "句": "gou", "谌": "chen", "諶": "chen",
        "贲": "ben", "賁": "ben", "隗": "wei", "阚": "kan", "闞": "kan", "眭": "sui", "燕": "yan", "折": "she", "牟": "mou",
        "长": "chang", "長": "chang", "重": "chong", "柏": "bai", "薄": "bo", "祭": "zhai", "黑": "he", "射": "ye",
        "卜": "bu", "郇": "huan", "哈": "ha", "占": "zhan", "褚": "chu", "番": "pan", "繇": "yao", "率": "shuai",
    ]

    private static let compoundByPair: [UInt64: [[UInt8]]] = Dictionary(
        uniqueKeysWithValues: compound.map { name, syllables in
            let scalars = Array(name.unicodeScalars)
            return (pairKey(scalars[0], scalars[1]), syllables.map { Array($0.utf8) })
        }
    )

    private static let singleBytes: [Unicode.Scalar: [UInt8]] = single.mapValues { Array($0.utf8) }

    private static func pairKey(_ first: Unicode.Scalar, _ second: Unicode.Scalar) -> UInt64 {
        UInt64(first.value) << 32 | UInt64(second.value)
    }

    /// The readings of the family name that starts with `first` (and `second`), as ASCII words,
    /// and how many characters it spans.
    static func reading(_ first: Unicode.Scalar, _ second: Unicode.Scalar?) -> (syllables: [[UInt8]], length: Int)? {
        if let second, let syllables = compoundByPair[pairKey(first, second)] { return (syllables, 2) }
        if let syllable = singleBytes[first] { return ([syllable], 1) }
        return nil
    }
}
