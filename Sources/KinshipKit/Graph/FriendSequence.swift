/// All of the person's friends who use the app, fetched a page at a time as the sequence is read.
public struct FriendSequence: AsyncSequence, Sendable {
    /// Each friend, in the order the Graph lists them.
    public typealias Element = GraphFriend
    /// The error that ends the sequence: the page request that failed.
    public typealias Failure = GraphError

    let client: GraphClient
    let pageSize: Int
    let fields: [String]

    /// An iterator that fetches the first page when first asked.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, pageSize: pageSize, fields: fields)
    }

    /// Reads pages on demand, following the `after` cursor until the last page.
    public struct Iterator: AsyncIteratorProtocol {
        let client: GraphClient
        let pageSize: Int
        let fields: [String]
        private var buffered: [GraphFriend] = []
        private var cursor: String?
        private var finished = false

        init(client: GraphClient, pageSize: Int, fields: [String]) {
            self.client = client
            self.pageSize = pageSize
            self.fields = fields
        }

        /// The next friend, fetching the next page when this one is used up; `nil` after the last.
        ///
        /// - Throws: The ``GraphError`` of the page request that failed; the sequence ends there.
        public mutating func next() async throws(GraphError) -> GraphFriend? {
            while buffered.isEmpty {
                if finished { return nil }
                let page = try await client.friends(limit: pageSize, after: cursor, fields: fields)
                buffered = page.data.reversed()
                cursor = page.nextCursor
                finished = cursor == nil || page.data.isEmpty
            }
            return buffered.removeLast()
        }
    }
}
