import Foundation

/// What it takes to create an account, checked before anything is stored.
public struct NewUser: Sendable {
    public var name: String
    public var email: String
    public var password: String
    public var username: String?
    public var firstName: String?
    public var middleName: String?
    public var lastName: String?
    public var gender: String?
    public var locale: String?
    public var birthday: String?
    public var hometown: String?
    public var location: String?

    public init(
        name: String,
        email: String,
        password: String,
        username: String? = nil,
        firstName: String? = nil,
        middleName: String? = nil,
        lastName: String? = nil,
        gender: String? = nil,
        locale: String? = nil,
        birthday: String? = nil,
        hometown: String? = nil,
        location: String? = nil
    ) {
        self.name = name
        self.email = email
        self.password = password
        self.username = username
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.gender = gender
        self.locale = locale
        self.birthday = birthday
        self.hometown = hometown
        self.location = location
    }

    /// How long a password may be, in UTF-8 bytes: bcrypt reads no more than 72.
    static let passwordBytes = 8...72

    /// The account as it will be stored: trimmed, email and username lowercased, first / middle /
    /// last name taken from `name` where not given ("Ada King Lovelace" → Ada, King, Lovelace).
    func normalized() throws(AccountError) -> NewUser {
        var user = self
        user.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        user.email = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        user.username = username?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard MailAddress.isPlausible(user.email) else {
            throw .invalid("\"\(email)\" is not an email address.")
        }
        try Self.checkPassword(password)
        if let username = user.username {
            guard (3...50).contains(username.count), username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") }),
                username.contains(where: \.isLetter)
            else {
                throw .invalid("A username is 3 to 50 letters, digits, dots or underscores, with at least one letter.")
            }
        }
        if let locale = user.locale, locale.wholeMatch(of: /[a-z]{2,3}(_[A-Z]{2})?/) == nil {
            throw .invalid("The locale \"\(locale)\" is not of the form en or en_GB.")
        }
        try Self.checkProfile(
            name: user.name,
            birthday: user.birthday,
            gender: user.gender,
            hometown: user.hometown,
            location: user.location
        )
        if user.firstName == nil, user.lastName == nil, user.middleName == nil {
            (user.firstName, user.middleName, user.lastName) = Self.nameParts(of: user.name)
        }
        return user
    }

    /// The rule for every new password, at sign-up, change or reset: 8 to 72 UTF-8 bytes.
    static func checkPassword(_ password: String) throws(AccountError) {
        guard password.count >= passwordBytes.lowerBound, passwordBytes.contains(password.utf8.count) else {
            throw .invalid(
                "The password must be \(passwordBytes.lowerBound) to \(passwordBytes.upperBound) bytes long (bcrypt reads no further)."
            )
        }
    }

    /// First, middle and last name read off a full name: "Ada King Lovelace" → Ada, King, Lovelace;
    /// one word is a first name only.
    static func nameParts(of name: String) -> (first: String?, middle: String?, last: String?) {
        let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        return (
            words.first, words.count > 2 ? words.dropFirst().dropLast().joined(separator: " ") : nil,
            words.count > 1 ? words.last : nil
        )
    }

    /// The rules for the fields a person can also change later on their profile page.
    static func checkProfile(
        name: String,
        birthday: String?,
        gender: String?,
        hometown: String?,
        location: String?
    ) throws(AccountError) {
        guard !name.isEmpty, name.count <= 100 else {
            throw .invalid("The name must be 1 to 100 characters.")
        }
        if let birthday, !isCalendarDate(birthday) {
            throw .invalid("The birthday \"\(birthday)\" is not a date of the form YYYY-MM-DD.")
        }
        if let gender, gender.isEmpty || gender.count > 40 {
            throw .invalid("The gender must be 1 to 40 characters.")
        }
        for (label, place) in [("hometown", hometown), ("location", location)] {
            if let place, place.isEmpty || place.count > 100 { throw .invalid("The \(label) must be 1 to 100 characters.") }
        }
    }

    private static func isCalendarDate(_ string: String) -> Bool {
        guard let match = string.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3)
        else { return false }
        let components = DateComponents(calendar: Calendar(identifier: .gregorian), year: year, month: month, day: day)
        return components.isValidDate
    }
}

/// Why an account could not be created or found.
public enum AccountError: Error, Equatable, CustomStringConvertible {
    case invalid(String)
    case emailTaken(String)
    case usernameTaken(String)
    case unknownUser(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .emailTaken(let email): "An account with the email \(email) exists already."
        case .usernameTaken(let username): "The username \(username) is taken."
        case .unknownUser(let id): "There is no user with id \(id)."
        }
    }
}
