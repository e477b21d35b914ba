import TrailheadSchema
import TripPlanner

/// The requests file `agent eval` reads, as Swift types: JSON only where it is read.
extension EvalCommand {
    /// One line of a requests file (or a recorded plan's `request`).
    struct RequestLine: Decodable {
        var landmark: String?
        var days: Int?
        var from: String?
        var to: String?
        var tools: Names?
        var companions: Names?

        func request(line: Int, in path: String) throws -> (TripRequest, [String]) {
            guard let landmark, !landmark.isEmpty else { throw CommandError("\(path):\(line): a request needs a \"landmark\"", exitCode: .usage) }
            let request = TripRequest(landmark: landmark, days: days ?? 3, from: from, to: to, companions: companions?.names ?? [])
            if let problem = request.problem { throw CommandError("\(path):\(line): \(problem)", exitCode: .usage) }
            return (request, tools?.names ?? TripPlanner.plugins)
        }
    }

    /// Names written as a list, or as one comma-separated string ("poi, calendar").
    struct Names: Decodable {
        var names: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else {
                names = try container.decode([String].self)
            }
        }
    }
}
