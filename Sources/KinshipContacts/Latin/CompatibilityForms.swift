import Foundation

/// The plain letters behind characters that only look different: ligatures (ﬁ → f i), circled
/// and mathematical letters (ⓐ, 𝐀), superscripts, and other compatibility forms — Unicode's
/// compatibility decomposition (NFKD). A name written with them files and searches like one
/// written without them: "ﬁona" under F.
final class CompatibilityForms: @unchecked Sendable {
    static let shared = CompatibilityForms()
    private let lock = NSLock()
    private var cache: [Unicode.Scalar: [Unicode.Scalar]?] = [:]

    /// The decomposed scalars, or `nil` when the scalar has no compatibility decomposition.
    func form(of scalar: Unicode.Scalar) -> [Unicode.Scalar]? {
        if let known = lock.withLock({ cache[scalar] }) { return known }
        let decomposed = Array(String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars)
        let form: [Unicode.Scalar]? = decomposed == [scalar] ? nil : decomposed
        lock.withLock { cache[scalar] = form }
        return form
    }
}
