// Names of every script in one list: which letter each goes under.

// snippet.hide
import KinshipContacts

// snippet.show
let list = ContactList([
    Contact(id: "1", name: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace"),
    Contact(id: "2", name: "张伟"),  // Z: zhāng wěi
    Contact(id: "3", name: "曾志伟"),  // Z: the family name 曾 reads zēng, not céng
    Contact(id: "4", name: "Émile Zola", firstName: "Émile", lastName: "Zola"),  // E: accents fold away
    Contact(id: "5", name: "김민준"),  // G: gim min jun
    Contact(id: "6", name: "さくら"),  // S: sakura
    Contact(id: "7", name: "Ζωή"),  // Z: zoi
    Contact(id: "8", name: "007"),  // #: digits, symbols and emoji go last
])
for section in list.sections {
    print(section.title, section.contacts.map(\.name))
}
// A ["Ada Lovelace"]
// E ["Émile Zola"]
// G ["김민준"]
// S ["さくら"]
// Z ["曾志伟", "张伟", "Ζωή"]  (zeng zhi wei, zhang wei, zoi)
// # ["007"]
