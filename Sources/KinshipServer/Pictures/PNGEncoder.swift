import CompressNIO
import Foundation
import NIOCore

/// Writes 8-bit RGB images as PNG (RFC 2083): signature, IHDR, one zlib-compressed (RFC 1950) IDAT, IEND.
enum PNGEncoder {
    /// `pixels` holds `width × height` RGB triples, row by row.
    static func encode(width: Int, height: Int, pixels: [UInt8]) throws -> Data {
        precondition(pixels.count == width * height * 3, "one RGB triple per pixel")
        var raw = ByteBuffer()
        raw.reserveCapacity((width * 3 + 1) * height)
        for row in 0..<height {
            raw.writeInteger(UInt8(0))
            raw.writeBytes(pixels[(row * width * 3)..<((row + 1) * width * 3)])
        }
        let compressed = try raw.compress(with: .zlib())
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", Data(compressed.readableBytesView), to: &png)
        appendChunk("IEND", Data(), to: &png)
        return png
    }

    private static func appendChunk(_ type: String, _ data: Data, to png: inout Data) {
        png.append(bigEndian: UInt32(data.count))
        let typeAndData = Data(type.utf8) + data
        png.append(typeAndData)
        png.append(bigEndian: CRC32.checksum(typeAndData))
    }
}

/// The CRC-32 PNG chunks end with (ISO 3309, polynomial 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
