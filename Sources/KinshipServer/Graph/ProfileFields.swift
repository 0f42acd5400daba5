import Foundation
import KinshipCore

/// The fields of a person Graph can return, and what each needs.
enum ProfileField: String, CaseIterable, Sendable {
    case id, name
    case firstName = "first_name"
    case lastName = "last_name"
    case middleName = "middle_name"
    case shortName = "short_name"
    case nameFormat = "name_format"
    case link, username, gender, locale
    case ageRange = "age_range"
    case picture
    case email, birthday, hometown, location

    /// The permission the caller's token needs for this field of its own person.
    var permission: Permission {
        switch self {
        case .email: .email
        case .birthday: .userBirthday
        case .hometown: .userHometown
        case .location: .userLocation
        default: .publicProfile
        }
    }

    /// Fields anyone who may see a person sees; the rest only the person's own apps, with permission.
    var isPublic: Bool {
        switch self {
        case .id, .name, .firstName, .lastName, .middleName, .shortName, .nameFormat, .link, .picture: true
        default: false
        }
    }

    /// `/me` without `fields`.
    static let defaults = ["id", "name"]
}

/// Writes a person's fields as Graph JSON.
struct ProfileRenderer: Sendable {
    let pictures: PictureService
    /// Today's date, for `age_range`.
    let clock: any WallClock

    /// The fields of `user` that `selection` asks for and `isAllowed` lets through, in the order asked.
    /// An unknown field is error 100; a field without its permission is left out.
    func render(
        _ user: UserRecord,
        _ selection: FieldSelection,
        baseURL: String,
        isAllowed: (ProfileField) -> Bool
    ) async throws -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        for requested in selection.fields {
            guard let field = ProfileField(rawValue: requested.name) else {
                throw GraphError.invalidParameter("Tried accessing nonexisting field (\(requested.name)) on node type (User)")
            }
            guard isAllowed(field), let value = try await value(of: field, user, requested.modifiers, baseURL: baseURL) else {
                continue
            }
            pairs.append((field.rawValue, value))
        }
        return .object(pairs)
    }

    private func value(
        of field: ProfileField,
        _ user: UserRecord,
        _ modifiers: [String: String],
        baseURL: String
    ) async throws
        -> JSONValue?
    {
        switch field {
        case .id: return .string(user.id)
        case .name: return .string(user.name)
        case .firstName: return user.firstName.map(JSONValue.string)
        case .lastName: return user.lastName.map(JSONValue.string)
        case .middleName: return user.middleName.map(JSONValue.string)
        case .shortName: return .string(user.firstName ?? user.name)
        case .nameFormat: return .string(Self.isCJK(user.lastName ?? user.name) ? "{last}{first}" : "{first} {last}")
        case .link: return .string("\(baseURL)/people/\(user.id)")
        case .username: return user.username.map(JSONValue.string)
        case .gender: return user.gender.map(JSONValue.string)
        case .locale: return user.locale.map(JSONValue.string)
        case .ageRange: return user.birthday.flatMap { Self.ageRange(birthday: $0, now: clock.now) }
        case .email: return .string(user.email)
        case .birthday: return user.birthday.flatMap(Self.graphBirthday)
        case .hometown: return user.hometown.map { .object([("name", .string($0))]) }
        case .location: return user.location.map { .object([("name", .string($0))]) }
        case .picture:
            let size = try PictureSize(type: modifiers["type"], width: modifiers["width"], height: modifiers["height"])
            return .object([("data", try await pictures.info(for: user, size: size, baseURL: baseURL).json)])
        }
    }

    /// Graph's brackets: 13–17, 18–20, 21 and over, on the day of `now` (Unix seconds) in UTC.
    static func ageRange(birthday: String, now: Int) -> JSONValue? {
        let parts = birthday.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        let today = Calendar(identifier: .gregorian).dateComponents(
            in: TimeZone(identifier: "UTC")!,
            from: Date(timeIntervalSince1970: TimeInterval(now))
        )
        guard let year = today.year, let month = today.month, let day = today.day else { return nil }
        var age = year - parts[0]
        if (month, day) < (parts[1], parts[2]) { age -= 1 }
        switch age {
        case ..<13: return .object([("max", 12)])
        case 13...17: return .object([("min", 13), ("max", 17)])
        case 18...20: return .object([("min", 18), ("max", 20)])
        default: return .object([("min", 21)])
        }
    }

    /// `MM/DD/YYYY`, as Graph writes birthdays.
    static func graphBirthday(_ birthday: String) -> JSONValue? {
        let parts = birthday.split(separator: "-")
        guard parts.count == 3 else { return nil }
        return .string("\(parts[1])/\(parts[2])/\(parts[0])")
    }

    private static func isCJK(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first?.value else { return false }
        return (0x3040...0x9FFF).contains(first) || (0xAC00...0xD7A3).contains(first)
    }
}
