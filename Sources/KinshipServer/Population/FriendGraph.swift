import Foundation

/// The friendships of a generated platform. How many friends a person has is skewed as on real
/// social networks (log-normal: most have a few dozen, a few have thousands, up to a cap), and
/// friends are paired at random (the configuration model), without anyone befriending themselves
/// or anyone twice.
struct FriendGraph {
    /// Every friendship in both directions, as `person << 32 | friend` (indices of people), sorted:
    /// the order the `friendships` table's primary key keeps them in.
    let directed: [UInt64]

    /// How many friends each person has.
    var degrees: [Int] {
        var degrees = [Int](repeating: 0, count: count)
        for edge in directed { degrees[Int(edge >> 32)] += 1 }
        return degrees
    }

    let count: Int

    static func make(people: Int, averageFriends: Int, mostFriends: Int, using generator: inout SeededGenerator) -> FriendGraph {
        guard people > 1 else { return FriendGraph(directed: [], count: people) }
        let spread = 1.5
        let center = Foundation.log(Double(max(1, averageFriends))) - spread * spread / 2
        let cap = min(mostFriends, people - 1)
        var stubs: [Int32] = []
        stubs.reserveCapacity(people * averageFriends)
        for person in 0..<people {
            let drawn = Foundation.exp(center + spread * generator.nextNormal()).rounded()
            let degree = Int(min(Double(cap), max(1, drawn)))
            stubs.append(contentsOf: repeatElement(Int32(person), count: degree))
        }
        stubs.shuffle(using: &generator)
        var directed: [UInt64] = []
        directed.reserveCapacity(stubs.count)
        for pair in stride(from: 0, to: stubs.count - 1, by: 2) where stubs[pair] != stubs[pair + 1] {
            let (a, b) = (UInt64(stubs[pair]), UInt64(stubs[pair + 1]))
            directed.append(a << 32 | b)
            directed.append(b << 32 | a)
        }
        directed.sort()
        var unique: [UInt64] = []
        unique.reserveCapacity(directed.count)
        for edge in directed where unique.last != edge { unique.append(edge) }
        return FriendGraph(directed: unique, count: people)
    }
}
