import Foundation

/// An image a person uploads as their picture, checked before it is stored: a PNG or a JPEG, no
/// larger than the limit, with dimensions read from its own header.
struct UploadedImage: Sendable, Equatable {
    let contentType: String
    let width: Int
    let height: Int
    let data: Data

    /// The largest picture accepted, in bytes.
    static let maximumBytes = 2 * 1024 * 1024
    /// The largest width or height accepted.
    static let maximumSide = 4096

    init(_ data: Data) throws(PictureError) {
        guard data.count <= Self.maximumBytes else { throw .tooLarge(bytes: data.count, limit: Self.maximumBytes) }
        let bytes = [UInt8](data)
        let dimensions: (Int, Int)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { throw .unreadable("the PNG has no header chunk") }
            dimensions = (Self.integer(bytes[16..<20]), Self.integer(bytes[20..<24]))
            contentType = "image/png"
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            dimensions = try Self.jpegDimensions(bytes)
            contentType = "image/jpeg"
        } else {
            throw .unsupportedFormat
        }
        guard (1...Self.maximumSide).contains(dimensions.0), (1...Self.maximumSide).contains(dimensions.1) else {
            throw .badDimensions(width: dimensions.0, height: dimensions.1)
        }
        (width, height) = dimensions
        self.data = data
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Walks the JPEG markers to the first start-of-frame, which holds the dimensions.
    private static func jpegDimensions(_ bytes: [UInt8]) throws(PictureError) -> (Int, Int) {
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { throw .unreadable("a JPEG marker was expected at byte \(index)") }
            let marker = bytes[index + 1]
            if marker == 0xFF {
                index += 1
                continue
            }
            let length = integer(bytes[(index + 2)..<(index + 4)])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (integer(bytes[(index + 7)..<(index + 9)]), integer(bytes[(index + 5)..<(index + 7)]))
            }
            guard length >= 2 else { throw .unreadable("a JPEG segment has a bad length") }
            index += 2 + length
        }
        throw .unreadable("the JPEG has no frame header")
    }
}

/// Why a picture was refused.
public enum PictureError: Error, Equatable, CustomStringConvertible {
    case tooLarge(bytes: Int, limit: Int)
    case unsupportedFormat
    case unreadable(String)
    case badDimensions(width: Int, height: Int)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit): "The picture is \(bytes) bytes; the limit is \(limit) bytes."
        case .unsupportedFormat: "The picture must be a PNG or a JPEG."
        case .unreadable(let why): "The picture could not be read: \(why)."
        case .badDimensions(let width, let height):
            "The picture is \(width)×\(height); each side must be 1 to \(UploadedImage.maximumSide) pixels."
        }
    }
}
