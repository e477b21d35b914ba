/// Keeps the last `capacity` bytes written to it (a worker's stderr), dropping older ones.
struct BoundedTail: Sendable {
    let capacity: Int
    private(set) var bytes: [UInt8] = []
    private(set) var droppedBytes = 0

    init(capacity: Int) { self.capacity = capacity }

    mutating func append(_ chunk: some Collection<UInt8>) {
        bytes.append(contentsOf: chunk)
        if bytes.count > capacity {
            let excess = bytes.count - capacity
            bytes.removeFirst(excess)
            droppedBytes += excess
        }
    }

    mutating func removeAll() {
        bytes.removeAll()
        droppedBytes = 0
    }

    /// The last `limit` bytes as text, for an error message.
    func text(last limit: Int) -> String {
        String(decoding: bytes.suffix(limit), as: UTF8.self)
    }
}
