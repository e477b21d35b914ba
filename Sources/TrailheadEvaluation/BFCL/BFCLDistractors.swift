/// Functions of other BFCL cases added to a case's own (`agent eval --bfcl --distractors N`): an
/// agent with many tools, as an MCP server brings, where the case's functions must be found.
///
/// Deterministic: the distractors of a case start at a place in the pool and the case's own
/// functions go at a place among them, both from the case's id, so every run and every
/// configuration (`--tool-search`) sees the same tools in the same order.
public struct BFCLDistractors {
    /// Functions of all loaded cases, each name once, in the cases' order.
    let pool: [BFCLTool]

    public init(cases: [BFCLCase]) {
        var seen: Set<String> = []
        var pool: [BFCLTool] = []
        for item in cases { for tool in item.tools where seen.insert(tool.name).inserted { pool.append(tool) } }
        self.pool = pool
    }

    /// The case's functions among `count` others (fewer when the pool has fewer).
    func tools(for item: BFCLCase, count: Int) -> [BFCLTool] {
        let own = Set(item.tools.map(\.name))
        let others = pool.filter { !own.contains($0.name) }
        guard count > 0, !others.isEmpty else { return item.tools }
        let seed = Self.stableHash(item.id)
        let start = Int(seed % UInt64(others.count))
        var tools = (0..<min(count, others.count)).map { others[(start + $0) % others.count] }
        tools.insert(contentsOf: item.tools, at: Int((seed / 7) % UInt64(tools.count + 1)))
        return tools
    }

    /// FNV-1a of the text: the same in every process (`Hasher` is seeded per process).
    static func stableHash(_ text: String) -> UInt64 {
        text.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }
}
