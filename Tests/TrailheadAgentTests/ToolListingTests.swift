import Testing
import TrailheadModels
import TrailheadSchema

@testable import TrailheadAgent

/// What the system message lists of the tools: an opening that neighbouring tools' descriptions
/// share (an API's tools, each described as a member of it first) is said once, before them.
@Suite struct ToolListingTests {
    typealias CatalogTool = ToolSearchTests.CatalogTool

    static let fileSystem =
        "This tool belongs to the file system. It is a simple file system that allows users to perform basic file operations."
    static let tools = [
        CatalogTool(name: "cd", description: fileSystem + " Tool description: Change the current directory.", parameterNames: ["folder"]),
        CatalogTool(name: "ls", description: fileSystem + " Tool description: List the current directory.", parameterNames: ["a"]),
        CatalogTool(name: "mkdir", description: fileSystem + " Tool description: Make a directory.", parameterNames: ["dir_name"]),
        CatalogTool(name: "post", description: "This tool belongs to the posting API. Tool description: Post a message.", parameterNames: ["content"]),
    ]

    @Test func neighboursThatOpenAlikeGetTheirOpeningOnce() async throws {
        let model = LanguageModelSessionTests.RecordingModel([LanguageModelSession.stepText(answering: "Done.")])
        let session = LanguageModelSession(model: model, tools: Self.tools)
        _ = try await session.respond(to: "Make a directory called temp.")
        let system = try #require(model.requests.first?.messages.first?.content)
        #expect(system.components(separatedBy: Self.fileSystem).count == 2, "said once: \(system)")
        let lines = system.split(separator: "\n").map(String.init)
        #expect(lines.firstIndex(of: "The next 3 tools: " + Self.fileSystem) == 1, "\(lines)")
        #expect(lines[2].hasPrefix("- cd(folder: ") && lines[2].hasSuffix("): Tool description: Change the current directory."), "\(lines[2])")
        #expect(lines[4].hasSuffix("): Tool description: Make a directory."), "\(lines[4])")
        // The posting tool shares no opening with a neighbour: its line is whole.
        #expect(lines[5].hasSuffix("): This tool belongs to the posting API. Tool description: Post a message."), "\(lines[5])")
        // A search shows each tool on its own, whole.
        #expect(session.toolListings["cd"]?.contains(Self.fileSystem) == true)
    }

    @Test func toolsThatShareNothingAreListedAsEachAlone() {
        let tools = Array(ToolSearchTests.hundredTools.prefix(5))
        let session = LanguageModelSession(model: ScriptedModel(outputs: []), tools: tools)
        let presentation = ToolInstructions(calls: .one)
        #expect(session.listing == tools.map { presentation.describe(SessionTool($0)) })
    }

    @Test func anOpeningIsWholeSentencesLongEnoughAndLeavesEachToolSomethingOfItsOwn() {
        let long = "This tool belongs to the trading bot, which buys and sells stocks."
        // Two whole sentences shared by three; the fourth shares only the first.
        let runs = SharedOpening.runs([
            long + " It keeps a watchlist. Buy a stock.", long + " It keeps a watchlist. Sell a stock.", long + " It keeps a watchlist. Show one.",
            "Something else entirely, on its own.",
        ])
        #expect(runs.map(\.range) == [0..<3])
        #expect(runs.first?.opening == long + " It keeps a watchlist.")
        // Shared to the middle of a sentence: no opening.
        #expect(SharedOpening.runs(["This tool belongs to the trading bot and buys.", "This tool belongs to the trading bot and sells."]).isEmpty)
        // A description that is the opening and nothing more stays whole, and so does the run's rest.
        #expect(SharedOpening.runs([long, long + " Buy a stock."]).isEmpty)
        // Too short to be worth its line.
        #expect(SharedOpening.runs(["A tool. Buy.", "A tool. Sell."]).isEmpty)
        // The run narrows to what every member shares.
        let narrowed = SharedOpening.runs([long + " It keeps a watchlist. Buy.", long + " It keeps a watchlist. Sell.", long + " It lends. Lend."])
        #expect(narrowed.first?.range == 0..<3 && narrowed.first?.opening == long)
    }
}
