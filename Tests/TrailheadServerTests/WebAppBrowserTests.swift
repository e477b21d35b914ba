import Foundation
import TrailheadAgent
import TrailheadSchema
import TrailheadSupport
import TrailheadTestSupport
import XCTest

/// The web app in a real browser: Debian's headless chromium driven by selenium (Browser/plan_page.py)
/// against `agent serve` on 127.0.0.1 with scripted models, so every run sees the same plan.
final class WebAppBrowserTests: XCTestCase {
    /// The places the scripted planner visits (each a hike near Joshua Tree the index returns).
    static let places = [
        ("Skull Rock Nature Trail", "Start early in the morning."), ("Keys View", "Bring a warm jacket."),
        ("Barker Dam Nature Trail", "Look for bighorn sheep."), ("Hidden Valley Nature Trail", "Walk the loop slowly."),
        ("Ryan Mountain Trail", "Carry plenty of water."), ("Cap Rock Nature Trail", "Stay for the sunset."),
    ]

    func testThePlanPageStreamsAPlanOntoAMapWithItsProfileAndDownloadsAndThePlaygroundRunsATool() throws {
        let browser = try Self.browser()
        let python = try TrailheadCache.python()
        let folder = try Scratch.newFolder()
        // Kept after the run (the test's other files are not): the last run's screenshots.
        let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("trailhead-screenshots").path
        try? FileManager.default.removeItem(atPath: screenshots)
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let resume = folder + "/resume"

        // The planner's one model turn, streamed slowly and held after the third place until the
        // browser has looked at the half-written plan (the test's script creates `resume`).
        let days: [GeneratedContent] = stride(from: 0, to: 6, by: 2).map { index in
            ["activities": .array([Self.places[index], Self.places[index + 1]].map { ["place": .string($0.0)] })]
        }
        let title = "Desert rocks and stars"
        let draft: GeneratedContent = [
            "title": .string(title), "description": "Three days of short trails and wide views.",
            "rationale": "Short trails suit a relaxed pace.", "days": .array(days),
        ]
        let text = LanguageModelSession.stepText(answering: draft)
        let third = try XCTUnwrap(text.range(of: "\"\(Self.places[2].0)\"")?.upperBound)
        let holdAfter = text.distance(from: text.startIndex, to: third) + 16
        try ServeFixtures.write(GeneratedContent.object([
            "text": .string(text), "chunkDelayMs": 15, "holdAfter": .number(Double(holdAfter)), "holdUntilFile": .string(resume),
        ]).jsonString, to: folder + "/plan.jsonl")
        let plan = try ServeProcess(["--model", "scripted:\(folder)/plan.jsonl", "--store", folder + "/sessions"])
        XCTAssertTrue(plan.output.contains("open the web app at http://127.0.0.1:\(plan.port)/"), plan.output)

        // A request in words that names no place: the model reads it, and finds none.
        // The answer to its question is read with the first words (the page sends the conversation).
        let answered = LanguageModelSession.stepText(answering: [
            "title": "Desert rocks", "description": "Two days of short trails.", "rationale": "Short trails suit a relaxed pace.",
            "days": .array(stride(from: 0, to: 4, by: 2).map { ["activities": .array([Self.places[$0], Self.places[$0 + 1]].map { ["place": .string($0.0)] })] }),
        ])
        try ServeFixtures.write([
            GeneratedContent.object(["text": .string(#"{"days": 2}"#)]).jsonString,
            GeneratedContent.object(["text": .string(#"{"landmark": "Joshua Tree", "days": 2, "from": "2026-12-01", "to": "2026-12-31"}"#)]).jsonString,
            GeneratedContent.object(["text": .string(answered)]).jsonString,
        ].joined(separator: "\n"), to: folder + "/words.jsonl")
        let words = try ServeProcess(["--model", "scripted:\(folder)/words.jsonl", "--store", folder + "/sessions-words"])

        // The playground: a plain model with the calendar plugin's tool, called once.
        try ServeFixtures.write([ServeFixtures.call("2026-12-01", "2026-12-07"), ServeFixtures.final("You are free on Sunday 6 December.")]
            .joined(separator: "\n"), to: folder + "/playground.jsonl")
        let playground = try ServeProcess(["--model", "scripted:\(folder)/playground.jsonl", "--store", folder + "/sessions-playground"])

        let config: GeneratedContent = [
            "chromium": .string(browser.chromium), "chromedriver": .string(browser.driver), "output": .string(screenshots),
            "plan": .string("http://127.0.0.1:\(plan.port)/"), "words": .string("http://127.0.0.1:\(words.port)/"), "resume": .string(resume),
            "landmark": "Joshua Tree National Park", "days": 3, "from": "2026-12-01", "to": "2026-12-31", "title": .string(title),
            "places": .array(Self.places.map { .string($0.0) }), "heldActivities": 3,
            "tools": ["findPointsOfInterest", "calendarFreeDays"],
            "playground": .string("http://127.0.0.1:\(playground.port)/app/playground.html"), "playgroundTool": "calendarFreeDays",
            "playgroundAnswer": "You are free on Sunday 6 December.",
        ]
        try ServeFixtures.write(config.jsonString, to: folder + "/config.json")
        let script = Checkout.path("Tests/TrailheadServerTests/Browser/plan_page.py")
        let run = try ChildProcess.run(python, [script, folder + "/config.json"], timeLimit: 180)
        print(run.stdout)
        XCTAssertEqual(run.status, 0, "the browser test failed:\n\(run.stdout)\n\(run.stderr)\nplan server: \(plan.output)\nwords server: \(words.output)\nplayground server: \(playground.output)")
        for line in run.stdout.split(separator: "\n") where line.hasPrefix("screenshot: ") {
            let path = String(line.dropFirst("screenshot: ".count))
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the screenshot \(path) was written")
        }
    }

    /// Debian's chromium and its driver; the test is skipped only when chromium is not installed
    /// (Scripts/setup-system.sh installs both).
    static func browser() throws -> (chromium: String, driver: String) {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let chromium else {
            throw XCTSkip("chromium is not installed (apt-get install chromium chromium-driver, as Scripts/setup-system.sh does): the browser tests need it")
        }
        let driver = "/usr/bin/chromedriver"
        guard FileManager.default.isExecutableFile(atPath: driver) else {
            throw ServeProcess.Failure(description: "chromium is installed but not chromium-driver (\(driver)): apt-get install chromium-driver")
        }
        return (chromium, driver)
    }
}
