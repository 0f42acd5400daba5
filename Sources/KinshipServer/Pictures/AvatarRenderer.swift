import Crypto
import Foundation

/// Draws the picture of a person who has not uploaded one: their initials on a colour taken from
/// their id, or a silhouette when the name has no Latin initials.
enum AvatarRenderer {
    /// Letters as 5×7 bitmaps, one string of 35 cells per letter.
    private static let glyphs: [Character: String] = [
        "A": ".###.#...##...#######...##...##...#", "B": "####.#...#####.#...##...##...#####.",
        "C": ".####....##....#....#....#.....####", "D": "####.#...##...##...##...##...#####.",
        "E": "######....####.#....#....#....#####", "F": "######....####.#....#....#....#....",
        "G": ".####....#....#..####...##...#.####", "H": "#...##...#######...##...##...##...#",
        "I": "#####..#....#....#....#....#..#####", "J": "....#....#....#....##...##...#.###.",
        "K": "#...##..#.###..#.#..#..#.#...##...#", "L": "#....#....#....#....#....#....#####",
        "M": "#...###.###.#.##...##...##...##...#", "N": "#...###..##.#.##..###...##...##...#",
        "O": ".###.#...##...##...##...##...#.###.", "P": "####.#...##...#####.#....#....#....",
        "Q": ".###.#...##...##...##.#.##..#..##.#", "R": "####.#...##...#####.#.#..#..#.#...#",
        "S": ".#####....#.....###.....#....#####.", "T": "#####..#....#....#....#....#....#..",
        "U": "#...##...##...##...##...##...#.###.", "V": "#...##...##...##...#.#.#..#.#...#..",
        "W": "#...##...##...##.#.##.#.###.###...#", "X": "#...##...#.#.#...#...#.#.#...##...#",
        "Y": "#...##...#.#.#...#....#....#....#..", "Z": "#####....#...#...#...#...#....#####",
    ]

    static func render(_ user: UserRecord, side: Int) throws -> Data {
        let background = color(for: user.id)
        var pixels = [UInt8](repeating: 0, count: side * side * 3)
        for index in 0..<(side * side) {
            pixels[index * 3] = background.0
            pixels[index * 3 + 1] = background.1
            pixels[index * 3 + 2] = background.2
        }
        if let initials = initials(of: user) {
            drawText(initials, into: &pixels, side: side)
        } else {
            drawSilhouette(into: &pixels, side: side)
        }
        return try PNGEncoder.encode(width: side, height: side, pixels: pixels)
    }

    /// Up to two capital letters from the first and last name, when they are plain Latin letters.
    static func initials(of user: UserRecord) -> String? {
        let words = [user.firstName, user.lastName].compactMap { $0 }
        let letters = (words.isEmpty ? user.name.split(separator: " ").map(String.init) : words)
            .prefix(2).compactMap { $0.first.map { Character($0.uppercased()) } }
        guard !letters.isEmpty, letters.allSatisfy({ glyphs[$0] != nil }) else { return nil }
        return String(letters)
    }

    private static func color(for id: String) -> (UInt8, UInt8, UInt8) {
        let palette: [(UInt8, UInt8, UInt8)] = [
            (0x1E, 0x5A, 0xA8), (0x2E, 0x7D, 0x32), (0x8E, 0x24, 0xAA), (0xC6, 0x28, 0x28),
            (0x00, 0x69, 0x7C), (0x6D, 0x4C, 0x41), (0x45, 0x5A, 0x64), (0xAD, 0x14, 0x57),
        ]
        let digest = SHA256.hash(data: Data(id.utf8))
        return palette[Int(Array(digest)[0]) % palette.count]
    }

    private static func drawText(_ text: String, into pixels: inout [UInt8], side: Int) {
        let letters = Array(text)
        let cellsWide = letters.count * 6 - 1
        let scale = max(1, side / (cellsWide + 6))
        let originX = (side - cellsWide * scale) / 2
        let originY = (side - 7 * scale) / 2
        for (position, letter) in letters.enumerated() {
            guard let glyph = glyphs[letter].map(Array.init) else { continue }
            for cell in glyph.indices where glyph[cell] == "#" {
                let x0 = originX + (position * 6 + cell % 5) * scale
                let y0 = originY + (cell / 5) * scale
                fill(x: x0, y: y0, width: scale, height: scale, into: &pixels, side: side)
            }
        }
    }

    private static func drawSilhouette(into pixels: inout [UInt8], side: Int) {
        let center = Double(side) / 2
        let headRadius = Double(side) * 0.18
        let headY = Double(side) * 0.38
        let shouldersY = Double(side) * 0.95
        let shouldersRadius = Double(side) * 0.36
        for y in 0..<side {
            for x in 0..<side {
                let dx = Double(x) + 0.5 - center
                let inHead = dx * dx + pow(Double(y) + 0.5 - headY, 2) <= headRadius * headRadius
                let inShoulders = dx * dx + pow(Double(y) + 0.5 - shouldersY, 2) <= shouldersRadius * shouldersRadius
                if inHead || inShoulders { fill(x: x, y: y, width: 1, height: 1, into: &pixels, side: side) }
            }
        }
    }

    private static func fill(x: Int, y: Int, width: Int, height: Int, into pixels: inout [UInt8], side: Int) {
        for row in max(0, y)..<min(side, y + height) {
            for column in max(0, x)..<min(side, x + width) {
                let index = (row * side + column) * 3
                pixels[index] = 0xFF
                pixels[index + 1] = 0xFF
                pixels[index + 2] = 0xFF
            }
        }
    }
}
