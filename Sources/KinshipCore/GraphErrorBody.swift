/// The Graph API's error answer: `{"error": {"message", "type", "code", "error_subcode", …}}`.
public struct GraphErrorBody: Codable, Sendable, Equatable, Error {
    /// The fields inside `error`.
    public struct Detail: Codable, Sendable, Equatable {
        /// A sentence for the developer.
        public var message: String
        /// The kind of error as Facebook names it, such as `OAuthException`.
        public var type: String
        /// The error code: one of ``GraphErrorCode``.
        public var code: Int
        /// A finer reason for some codes, such as ``GraphErrorCode/subcodeExpired`` under `190`.
        public var errorSubcode: Int?
        /// A title an app may show the person, when there is one.
        public var errorUserTitle: String?
        /// A message an app may show the person, when there is one.
        public var errorUserMsg: String?
        /// An id that finds this request in the server's log: quote it when reporting a problem.
        public var fbtraceID: String

        /// An error detail from its fields.
        public init(
            message: String,
            type: String,
            code: Int,
            errorSubcode: Int? = nil,
            errorUserTitle: String? = nil,
            errorUserMsg: String? = nil,
            fbtraceID: String
        ) {
            self.message = message
            self.type = type
            self.code = code
            self.errorSubcode = errorSubcode
            self.errorUserTitle = errorUserTitle
            self.errorUserMsg = errorUserMsg
            self.fbtraceID = fbtraceID
        }

        enum CodingKeys: String, CodingKey {
            case message, type, code
            case errorSubcode = "error_subcode"
            case errorUserTitle = "error_user_title"
            case errorUserMsg = "error_user_msg"
            case fbtraceID = "fbtrace_id"
        }
    }

    /// What went wrong.
    public var error: Detail

    /// An error answer around `error`.
    public init(_ error: Detail) { self.error = error }
}

/// Graph error codes and subcodes shared by server and SDK.
public enum GraphErrorCode {
    /// An unknown error; retrying may help.
    public static let unknown = 1
    /// The service is briefly unavailable (its database cannot be reached); try again.
    public static let serviceUnavailable = 2
    /// The app made too many calls.
    public static let appRateLimited = 4
    /// A permission is missing (200–299 are also permission errors).
    public static let permissionDenied = 10
    /// The user made too many calls.
    public static let userRateLimited = 17
    /// Invalid parameter or unknown field.
    public static let invalidParameter = 100
    /// The access token is invalid, expired or revoked.
    public static let invalidToken = 190
    /// A permission error in the 200 range.
    public static let permissionError = 200
    /// The same message was posted twice in a row.
    public static let duplicatePost = 506
    /// The object does not exist.
    public static let unknownObject = 803
    /// A call about "the current user" came with an app access token, which speaks for no one.
    public static let userTokenRequired = 2500

    /// `190` subcode: the person removed the app (revoked the login).
    public static let subcodeAppNotAuthorized = 458
    /// `190` subcode: the platform's administrators suspended the person's account (Facebook's
    /// "checkpoint").
    public static let subcodeSuspended = 459
    /// `190` subcode: the password changed since the token was issued.
    public static let subcodePasswordChanged = 460
    /// `190` subcode: the token expired.
    public static let subcodeExpired = 463
    /// `190` subcode: the token is not one the platform issued (or it was revoked).
    public static let subcodeInvalidToken = 467
}
