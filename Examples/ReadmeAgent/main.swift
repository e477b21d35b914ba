import Foundation
import Trailhead
struct Weather: Tool {
    let name = "weather", description = "Tells whether it rains in a city today."
    struct Arguments: Generable { var city: String }
    func call(arguments: Arguments) async throws -> String { arguments.city == "Lisbon" ? "sunny" : "rain" }
}
struct Advice: Generable { var umbrella: Bool, reason: String }
let session = LanguageModelSession(tools: [Weather()], instructions: "Help travellers pack.")
do {
    print(try await session.respond(to: "Do I need an umbrella in Porto today?", generating: Advice.self).content)
} catch {
    print("No advice: \(error)")
    exit(1)
}
