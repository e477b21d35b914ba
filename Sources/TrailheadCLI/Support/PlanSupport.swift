import Foundation
import PointsOfInterestTypes
import TrailheadAgent
import TrailheadSchema
import TripPlanner

/// Progress of a plan on stderr, one line per step, from the session's events.
final class Progress: @unchecked Sendable {
    private let context: CommandContext
    private let start = Date()
    private let lock = NSLock()

    init(context: CommandContext) { self.context = context }

    func report(_ step: String) {
        let seconds = String(format: "%5.1fs", Date().timeIntervalSince(start))
        lock.withLock { context.stderr.line(context.styled("\(seconds)  \(step)", .dim)) }
    }

    func report(_ event: SessionEvent) {
        switch event {
        case .prefetching(let tools): report("from the request: " + tools.joined(separator: ", ") + "…")
        case .turnStarted(let turn, let finalOnly): report(finalOnly ? "turn \(turn): writing the answer" : "turn \(turn): thinking")
        case .toolsStarted(let turn, let tools): report("turn \(turn): " + tools.joined(separator: ", ") + "…")
        case .text, .usage, .entry: break
        }
    }

    func done() { report("done") }
}

/// Coordinates of the places the points-of-interest tool returned (for GeoJSON output).
final class PlaceIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: ItineraryFormat.Coordinate] = [:]

    var coordinates: [String: ItineraryFormat.Coordinate] { lock.withLock { storage } }

    func record(_ entry: Transcript.Entry) {
        guard case .toolOutput(let output) = entry, let result = output.result else { return }
        guard output.tool == "findPointsOfInterest" else { return }
        let found = Partial<PointsOfInterest>(result)
        lock.withLock {
            for place in found.results ?? [] {
                guard let name = place.name, let latitude = place.latitude, let longitude = place.longitude else { continue }
                storage[name] = .init(latitude: latitude, longitude: longitude)
            }
        }
    }
}

/// The itinerary streaming on a terminal (when enabled).
final class StreamView: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var view: StreamingItinerary

    init(enabled: Bool, output: TextOutput) {
        self.enabled = enabled
        self.view = StreamingItinerary(write: output.write)
    }

    func update(_ snapshot: Partial<Itinerary>) {
        guard enabled else { return }
        lock.withLock { view.update(snapshot) }
    }

    func finish(_ itinerary: Partial<Itinerary>) {
        lock.withLock { view.finish(itinerary) }
    }
}
