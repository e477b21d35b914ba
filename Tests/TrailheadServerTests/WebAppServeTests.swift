import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// What `agent serve` gives the web app, over HTTP without a browser: its files, the landmarks,
/// the index search, a run's transcript, the downloads, and the API key kept for the API only.
final class WebAppServeTests: XCTestCase {
    func testTheServerServesThePageItsFilesAndItsReadOnlyAPI() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.agents, to: folder + "/agents.json")
        try ServeFixtures.write([ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("Free on Sunday.")].joined(separator: "\n"), to: folder + "/script.jsonl")
        let serve = try ServeProcess(["--agents", folder + "/agents.json", "--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"])

        let page = try serve.fetch("/")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.type.hasPrefix("text/html"), page.type)
        XCTAssertTrue(page.text.contains("<h2 id=\"landmarks-title\">Landmarks</h2>"), page.text)
        for (file, type) in [("app.js", "text/javascript"), ("map.js", "text/javascript"), ("format.js", "text/javascript"), ("app.css", "text/css")] {
            let answer = try serve.fetch("/app/" + file)
            XCTAssertEqual(answer.status, 200, file)
            XCTAssertTrue(answer.type.hasPrefix(type), "\(file): \(answer.type)")
        }
        XCTAssertEqual(try serve.fetch("/app/../Package.swift").status, 404, "only the web app's own files")
        XCTAssertEqual(try serve.fetch("/app/missing.js").status, 404)
        XCTAssertEqual(try serve.fetch("/", method: "POST", body: "{}").status, 405)

        // The curated landmarks, with their descriptions and points.
        let landmarks = try GeneratedContent(json: try serve.fetch("/app/api/landmarks").text)["landmarks"]?.arrayValue ?? []
        XCTAssertGreaterThanOrEqual(landmarks.count, 40)
        let joshua = try XCTUnwrap(landmarks.first { $0["name"]?.stringValue == "Joshua Tree National Park" })
        XCTAssertFalse(joshua["description"]?.stringValue?.isEmpty ?? true)
        XCTAssertGreaterThanOrEqual(joshua["pointsOfInterest"]?.arrayValue?.count ?? 0, 12)

        // Any place the index knows (a name with a space, percent-encoded), and one it does not.
        let found = try serve.fetch("/app/api/places/Lake%20Tahoe")
        XCTAssertEqual(found.status, 200, found.text)
        XCTAssertEqual(try GeneratedContent(json: found.text)["place"]?["name"]?.stringValue, "Lake Tahoe")
        let unknown = try serve.fetch("/app/api/places/Qxzzyv%20Nowhereland")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertTrue(unknown.text.contains("Qxzzyv Nowhereland"), unknown.text)

        // A run's transcript: the profile's model turns and tool calls.
        let answer = try serve.post("/chat/completions", ["model": "free-days", "messages": [["role": "user", "content": "When am I free?"]]])
        let session = try XCTUnwrap(answer.body["trailhead"]?["session"]?.stringValue, "\(answer.body)")
        let transcript = try GeneratedContent(json: try serve.fetch("/app/api/sessions/" + session).text)
        let kinds = (transcript["entries"]?.arrayValue ?? []).compactMap { $0["kind"]?.stringValue }
        XCTAssertEqual(kinds.filter { $0 == "modelTurn" }.count, 2, "\(kinds)")
        XCTAssertTrue(kinds.contains("toolCall") && kinds.contains("toolOutput"), "\(kinds)")
        XCTAssertEqual(try serve.fetch("/app/api/sessions/not%20an%20id").status, 400)
        XCTAssertEqual(try serve.fetch("/app/api/sessions/0123456789abcdef").status, 404)

        // Downloads, in `agent plan`'s formats.
        let itinerary: GeneratedContent = [
            "title": "Two days", "destination": "Joshua Tree National Park", "description": "Short walks.", "rationale": "Easy.",
            "days": [["date": "2026-12-05", "activities": [["time": "morning", "place": "Keys View", "category": "viewpoint"]]]],
        ]
        let body = GeneratedContent.object(["itinerary": itinerary, "places": ["Keys View": [33.9272, -116.1873]]]).jsonString
        let ics = try serve.fetch("/app/api/render/ics", method: "POST", body: body)
        XCTAssertTrue(ics.type.hasPrefix("text/calendar"), ics.type)
        XCTAssertTrue(ics.text.hasPrefix("BEGIN:VCALENDAR") && ics.text.contains("BEGIN:VEVENT") && ics.text.contains("SUMMARY:Keys View"), ics.text)
        let geojson = try GeneratedContent(json: try serve.fetch("/app/api/render/geojson", method: "POST", body: body).text)
        XCTAssertEqual(geojson["features"]?.arrayValue?.first?["geometry"]?["coordinates"], [-116.1873, 33.9272])
        XCTAssertTrue(try serve.fetch("/app/api/render/markdown", method: "POST", body: body).text.hasPrefix("# Two days"))
        let wrong = try serve.fetch("/app/api/render/pdf", method: "POST", body: body)
        XCTAssertEqual(wrong.status, 400)
        XCTAssertTrue(wrong.text.contains("ics, geojson or markdown"), wrong.text)
        XCTAssertEqual(try serve.fetch("/app/api/render/ics", method: "POST", body: "not json").status, 400)
    }

    func testWithAnAPIKeyThePageLoadsAndItsAPIAsksForTheKey() throws {
        let folder = try Scratch.newFolder()
        try ServeFixtures.write(ServeFixtures.final("Hi."), to: folder + "/script.jsonl")
        let key = "web-key-\(UUID().uuidString)"
        let serve = try ServeProcess(["--model", "scripted:\(folder)/script.jsonl", "--store", folder + "/sessions"], environment: ["TRAILHEAD_API_KEY": key])
        XCTAssertEqual(try serve.fetch("/").status, 200, "a browser cannot send the key for the page itself")
        XCTAssertEqual(try serve.fetch("/app/app.js").status, 200)
        let refused = try serve.fetch("/app/api/landmarks")
        XCTAssertEqual(refused.status, 401)
        XCTAssertTrue(refused.text.contains("API key"), refused.text)
        XCTAssertEqual(try serve.fetch("/app/api/landmarks", headers: ["Authorization": "Bearer \(key)"]).status, 200)
    }
}
