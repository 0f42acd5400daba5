import NIOCore

extension IDToken {
    /// The claims as the `Codable` conformance encodes them (absent ones left out, the person's
    /// claims beside the token's), written straight into a buffer by ``IDTokenJSONEncoder``.
    var json: ByteBuffer {
        var object = JSONObjectWriter(capacity: 512)
        object.member("iss", issuer)
        object.member("sub", subject)
        object.member("aud", audience)
        object.member("exp", expiresAt)
        object.member("iat", issuedAt)
        if let authTime { object.member("auth_time", authTime) }
        if let nonce { object.member("nonce", nonce) }
        if let accessTokenHash { object.member("at_hash", accessTokenHash) }
        claims.write(into: &object)
        return object.finish()
    }
}

extension StandardClaims {
    /// Adds the claims present to `object`, as the `Codable` conformance encodes them.
    func write(into object: inout JSONObjectWriter) {
        if let name { object.member("name", name) }
        if let givenName { object.member("given_name", givenName) }
        if let middleName { object.member("middle_name", middleName) }
        if let familyName { object.member("family_name", familyName) }
        if let preferredUsername { object.member("preferred_username", preferredUsername) }
        if let picture { object.member("picture", picture) }
        if let locale { object.member("locale", locale) }
        if let email { object.member("email", email) }
        if let emailVerified { object.member("email_verified", emailVerified) }
    }
}
