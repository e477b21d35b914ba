import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadTools

/// Progress of a plan on stderr, one line per step.
final class Progress: @unchecked Sendable {
    private let context: CommandContext
    private let start = Date()
    private let lock = NSLock()

    init(context: CommandContext) { self.context = context }

    func report(_ step: String) {
        let seconds = String(format: "%5.1fs", Date().timeIntervalSince(start))
        lock.withLock { context.stderr.line(context.styled("\(seconds)  \(step)", .dim)) }
    }

    func done() { report("done") }
}

/// The itinerary streaming on a terminal: only the final turn's text is shown.
final class StreamView: @unchecked Sendable {
    private let enabled: Bool
    private let output: TextOutput
    private let lock = NSLock()
    private var turn = 0
    private var buffer = ""
    /// The current turn turned out to be a tool call: nothing of it is shown.
    private var ignoringTurn = false
    private var view: StreamingItinerary?

    init(enabled: Bool, output: TextOutput) {
        self.enabled = enabled
        self.output = output
    }

    func append(turn: Int, _ delta: String) {
        guard enabled else { return }
        lock.withLock {
            if turn != self.turn {
                self.turn = turn
                buffer = ""
                ignoringTurn = false
                view = nil
            }
            if let _ = view {
                view?.append(delta)
                return
            }
            guard !ignoringTurn else { return }
            buffer += delta
            let start = buffer.drop { $0 == " " || $0 == "\n" }
            if start.hasPrefix("{\"final\"") {
                view = StreamingItinerary(write: output.write)
                view?.append(buffer)
            } else if start.count >= 8 {
                ignoringTurn = true
                buffer = ""
            }
        }
    }

    func finish(_ itinerary: GeneratedContent) {
        lock.withLock {
            if view == nil { view = StreamingItinerary(write: output.write) }
            view?.finish(itinerary)
        }
    }
}

/// Coordinates of the places the points-of-interest tool returned (for GeoJSON output).
final class PlaceIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: ItineraryFormat.Coordinate] = [:]

    var coordinates: [String: ItineraryFormat.Coordinate] { lock.withLock { storage } }

    func record(_ result: GeneratedContent) {
        lock.withLock {
            for place in result["results"]?.arrayValue ?? [] {
                guard let name = place["name"]?.stringValue, let lat = place["latitude"]?.doubleValue, let lon = place["longitude"]?.doubleValue else { continue }
                storage[name] = .init(latitude: lat, longitude: lon)
            }
        }
    }
}

/// Runs the loop's calls through the registry.
struct RegistryToolRunner: ToolRunner {
    var registry: ToolRegistry
    var places: PlaceIndex

    func run(_ call: ToolCallRequest) async -> ToolRun {
        do {
            let result = try await registry.call(call.tool, arguments: call.arguments)
            places.record(result)
            return ToolRun(result: result, error: nil)
        } catch {
            return ToolRun(result: nil, error: "\(error)")
        }
    }
}
