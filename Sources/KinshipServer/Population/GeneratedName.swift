/// Names for generated people, from several scripts in roughly the mix a worldwide platform sees:
/// Latin with and without accents, Chinese, Cyrillic, Greek.
struct GeneratedName {
    let name: String
    let firstName: String
    let lastName: String

    static func random(using generator: inout SeededGenerator) -> GeneratedName {
        switch Int.random(in: 0..<100, using: &generator) {
        case 0..<55:
            let first = latinFirst.randomElement(using: &generator)!
            let last = latinLast.randomElement(using: &generator)!
            return GeneratedName(name: first + " " + last, firstName: first, lastName: last)
        case 55..<80:
            let family = chineseFamily.randomElement(using: &generator)!
            var given = chineseGiven.randomElement(using: &generator)!
            if Bool.random(using: &generator) { given += chineseGiven.randomElement(using: &generator)! }
            return GeneratedName(name: family + given, firstName: given, lastName: family)
        case 80..<92:
            let first = cyrillicFirst.randomElement(using: &generator)!
            let last = cyrillicLast.randomElement(using: &generator)!
            return GeneratedName(name: first + " " + last, firstName: first, lastName: last)
        default:
            let first = greekFirst.randomElement(using: &generator)!
            let last = greekLast.randomElement(using: &generator)!
            return GeneratedName(name: first + " " + last, firstName: first, lastName: last)
        }
    }

    private static let latinFirst = [
        "Ada", "Alan", "Grace", "Émile", "Zoë", "Chloé", "José", "Björn", "Søren", "Ingrid", "Marta", "Lucía", "Maximilian", "Sofia",
        "Tom", "Olivia", "Noah", "Amélie", "François", "Giulia", "Mateo", "Ana", "João", "Leila", "Omar", "Fatima", "Kofi", "Amara",
        "Liam", "Emma", "Hannah", "Jürgen", "Małgorzata", "Wojciech", "Ayşe", "Mehmet", "Nguyễn", "Thảo", "Siobhán", "Niamh",
        "Oskar", "Freya", "Elías", "Renée", "Dagny", "Ilse", "Benoît", "Cécile", "Rosa", "Pablo",
    ]
    private static let latinLast = [
        "Lovelace", "Turing", "Hopper", "Zola", "Müller", "García", "Rossi", "Dubois", "Nowak", "Silva", "Jensen", "Andersson",
        "Yılmaz", "O'Brien", "Okafor", "Mensah", "Haddad", "Kowalski", "Novák", "Fernández", "López", "Martin", "Bernard", "Schmidt",
        "Schneider", "Fischer", "Weber", "Romano", "Ricci", "Costa", "Santos", "Pereira", "Lindqvist", "Nieminen", "Horváth",
        "Popescu", "Dimitrov", "Baker", "Carter", "Nguyen", "Tran", "Kim", "Park", "Singh", "Patel", "Khan", "Ahmed", "Cohen",
        "Levi", "Brown",
    ]
    private static let chineseFamily = ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何", "林", "罗", "高"]
    private static let chineseGiven = [
        "伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "娟", "涛", "明", "超", "秀", "霞", "平", "刚", "桂", "小",
        "华", "英", "文", "玉", "建", "国", "红",
    ]
    private static let cyrillicFirst = ["Иван", "Мария", "Алексей", "Анна", "Дмитрий", "Елена", "Сергей", "Ольга", "Олена", "Тарас"]
    private static let cyrillicLast = ["Иванов", "Смирнова", "Кузнецов", "Попова", "Соколов", "Петрова", "Шевченко", "Коваленко"]
    private static let greekFirst = ["Γιώργος", "Μαρία", "Νίκος", "Ελένη", "Δημήτρης", "Σοφία"]
    private static let greekLast = ["Παπαδόπουλος", "Βασιλείου", "Γεωργίου", "Νικολάου", "Οικονόμου"]
}
