import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TripPlanner

/// The web app `agent serve` serves beside the API: its page and files at `/` and `/app/…`
/// (plain files, no key needed to load them), and the few read-only JSON answers it reads under
/// `/app/api/…` (behind the API key like `/v1`): the curated landmarks, the tools the playground
/// offers, a place looked up in the
/// points-of-interest index, a run's transcript (the profile), and a plan in `agent plan`'s
/// download formats.
extension AgentServer {
    /// A path anyone may load without the API key: the page and its files, not its API.
    static func isPublicWebFile(method: String, path: String) -> Bool {
        method == "GET" && (path == "/" || path == "/index.html" || (path.hasPrefix("/app/") && !path.hasPrefix("/app/api/")))
    }

    /// The web app's answer to a request, or nil when the path is not the web app's.
    func webApp(_ request: HTTPServer.Request, path: String) -> HTTPServer.Outcome? {
        if path == "/" || path == "/index.html" || path == "/app" {
            guard request.method == "GET" else { return .respond(APIError.response(405, "use GET", type: "invalid_request_error")) }
            return .respond(WebAppFiles.response("index.html") ?? Self.missingWebFiles)
        }
        guard path.hasPrefix("/app/") else { return nil }
        let rest = String(path.dropFirst("/app/".count))
        guard rest.hasPrefix("api/") else {
            guard request.method == "GET" else { return .respond(APIError.response(405, "use GET", type: "invalid_request_error")) }
            if WebAppFiles.folder == nil { return .respond(Self.missingWebFiles) }
            return .respond(WebAppFiles.response(rest) ?? APIError.response(404, "no file \(path)", type: "invalid_request_error"))
        }
        // The server hands over the path percent-decoded, without a query: arguments are its last part.
        switch (request.method, String(rest.dropFirst("api/".count))) {
        case ("GET", "landmarks"):
            return .respond(.json(200, GeneratedContent.object(["landmarks": .array(LandmarkGallery.landmarks)]).jsonString))
        case ("GET", "tools"):
            return .respond(.json(200, GeneratedContent.object(["tools": .array(runner.registry.tools.map { tool in
                ["name": .string(tool.name), "plugin": .string(tool.plugin), "description": .string(tool.manifest.description)]
            }), "models": .array(runner.modelNames.map { .string($0) })]).jsonString))
        case ("GET", let route) where route.hasPrefix("places/"):
            return .respond(place(named: String(route.dropFirst("places/".count))))
        case ("POST", let route) where route.hasPrefix("render/"):
            return .respond(Self.render(request.body, format: String(route.dropFirst("render/".count))))
        case ("GET", let route) where route.hasPrefix("sessions/"):
            return .respond(transcript(of: String(route.dropFirst("sessions/".count))))
        default:
            return .respond(APIError.response(
                404, "no route \(request.method) \(path) (GET /app/api/landmarks, GET /app/api/tools, GET /app/api/places/NAME, GET /app/api/sessions/ID, POST /app/api/render/ics|geojson|markdown)",
                type: "invalid_request_error"))
        }
    }

    static let missingWebFiles = APIError.response(
        404, "the web app's files were not found (Sources/TrailheadServer/Web beside the build, or TRAILHEAD_HOME)", type: "not_found")

    /// Any place the points-of-interest index knows, as `describeLandmark` resolves it (its
    /// message, with suggestions, when it knows none).
    private func place(named name: String) -> HTTPServer.Response {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 200 else { return APIError.response(400, "a place's name has 1 to 200 characters", type: "invalid_request_error") }
        guard runner.registry.tool(named: "describeLandmark") != nil else {
            return APIError.response(503, "the points-of-interest plugin is not loaded: the search needs its index", type: "unavailable")
        }
        switch runner.registry.result(of: "describeLandmark", arguments: ["landmark": .string(name)]) {
        case .success(let place): return .json(200, GeneratedContent.object(["place": place]).jsonString)
        case .failure(let error): return APIError.response(404, "\(error)", type: "not_found")
        }
    }

    /// A session's transcript as the store holds it: what the profile is drawn from.
    private func transcript(of session: String) -> HTTPServer.Response {
        guard FileSessionStore.isValidSessionID(session) else { return APIError.response(400, "not a session id: \(session)", type: "invalid_request_error") }
        do {
            guard let stored = try configuration.store.load(session) else {
                return APIError.response(404, "no session \(session)", type: "not_found")
            }
            let entries = (try? GeneratedContent(encoding: stored.transcript.entries)) ?? []
            return .json(200, GeneratedContent.object(["session": .string(session), "agent": .string(stored.agent), "entries": entries]).jsonString)
        } catch {
            return APIError.response(503, "session store: \(error.message)", type: "unavailable")
        }
    }

    /// `{"itinerary": {…}, "places": {"NAME": [latitude, longitude]}}` rendered as `agent plan
    /// --format` renders it: ics, geojson or markdown.
    static func render(_ body: [UInt8], format name: String) -> HTTPServer.Response {
        let formats: [String: (ItineraryFormat, String, String)] = [
            "ics": (.ics, "text/calendar; charset=utf-8", "ics"), "geojson": (.geojson, "application/geo+json", "geojson"),
            "markdown": (.markdown, "text/markdown; charset=utf-8", "md"),
        ]
        guard let (format, type, suffix) = formats[name] else {
            return APIError.response(400, "format: ics, geojson or markdown, not '\(name)'", type: "invalid_request_error")
        }
        guard let content = try? GeneratedContent(json: body), let itinerary = content["itinerary"], itinerary.objectValue != nil else {
            return APIError.response(400, "the body must be {\"itinerary\": {…}, \"places\": {NAME: [LATITUDE, LONGITUDE]}}", type: "invalid_request_error")
        }
        var places: [String: ItineraryFormat.Coordinate] = [:]
        for (place, at) in content["places"]?.objectValue ?? [:] {
            guard let pair = at.arrayValue, pair.count == 2, let latitude = pair[0].doubleValue, let longitude = pair[1].doubleValue else { continue }
            places[place] = .init(latitude: latitude, longitude: longitude)
        }
        let text = format.render(Partial<Itinerary>(itinerary), places: places)
        return HTTPServer.Response(
            status: 200, headers: ["Content-Type": type, "Content-Disposition": "attachment; filename=\"trip.\(suffix)\""], body: Array(text.utf8))
    }
}
