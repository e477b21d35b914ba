import Foundation
import TrailheadModels
import TrailheadSchema
import TripPlanner

/// `trailhead-bench grammar`: how fast llama.cpp samples under the forms a free text takes in
/// our grammar, against an unbounded string: well-formed words bounded in number
/// (`SchemaBuilder.text(words:)`), one sentence of them (`sentence(words:)`), and the planner's
/// own sentence bound; with `TRAILHEAD_BENCH_GRAMMAR_ALL=1` also the forms measured before them
/// (a `maxLength` in characters, which crawled, and words of at most 14 non-space characters).
/// Decode tokens/s from the server's timings, forms alternating, on the default model.
struct GrammarBench: Benchmark {
    let name = "grammar"
    let repetitions = Int(ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_REPS"] ?? "") ?? 3

    static var forms: [(String, GeneratedContent)] {
        var forms: [(String, GeneratedContent)] = [
            ("any string", ["type": "string"]),
            ("text(words: 3...12)", SchemaBuilder.text(words: 3...12).json.content),
            ("sentence(words: 3...12)", SchemaBuilder.sentence(words: 3...12).json.content),
            ("sentence(words: \(TripPlanner.textWords)) (the planner's)", SchemaBuilder.sentence(words: TripPlanner.textWords).json.content),
        ]
        if ProcessInfo.processInfo.environment["TRAILHEAD_BENCH_GRAMMAR_ALL"] == "1" {
            forms += [
                ("maxLength 80 characters", ["type": "string", "maxLength": 80]),
                ("3 to 12 words of at most 14 characters", ["type": "string", "pattern": "^[^ ]{1,14}( [^ ]{1,14}){2,11}$"]),
            ]
        }
        return forms
    }

    func run() throws {
        let model = LocalModel(configuration: .init(
            runDirectory: NSTemporaryDirectory() + "trailhead-bench-grammar-\(getpid())", idleShutdownSeconds: 300,
            defaultOptions: .init(temperature: 0)))
        defer { _ = blocking { await model.stop() } }
        _ = try blocking { try await model.start() }
        var rates: [String: [Double]] = [:], tokens: [String: [Double]] = [:], seconds: [String: [Double]] = [:]
        let forms = Self.forms
        for rep in 0..<repetitions {
            for (label, note) in forms {
                let schema = try GenerationSchema(json: [
                    "type": "object", "properties": ["note": note], "required": ["note"], "additionalProperties": false,
                ])
                let request = ModelRequest(
                    messages: [.system("[\(label) \(rep)] You write travel notes."),
                               .user("Write a note of about ten words on hiking in Joshua Tree National Park.")],
                    schema: schema, options: .init(temperature: 0, maxTokens: 120))
                let response = try blocking { try await model.respond(to: request) }
                guard let usage = response.usage, let generation = response.timings.serverGenerationSeconds else { continue }
                rates[label, default: []].append(Double(usage.completionTokens) / generation)
                tokens[label, default: []].append(Double(usage.completionTokens))
                seconds[label, default: []].append(response.timings.total)
            }
        }
        print("| a free text under (\(ModelAssets.defaultModel.name)) | tokens | decode tokens/s | total |")
        print("|---|---|---|---|")
        for (label, _) in forms {
            print(String(format: "| %@ | %.0f | %.1f | %.2f s |", label, percentile(tokens[label] ?? [], 0.5),
                         percentile(rates[label] ?? [], 0.5), percentile(seconds[label] ?? [], 0.5)))
        }
        print("medians of \(repetitions), forms alternating; load \(loadAverage())")
    }
}

extension JSONObject {
    var content: GeneratedContent { .object(self) }
}
