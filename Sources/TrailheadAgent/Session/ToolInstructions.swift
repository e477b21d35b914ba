import Foundation
import TrailheadSchema

/// What the model reads of its tools, in the system message after the author's instructions: each
/// tool as a compact signature (its parameters' names and types, which are optional, their enums
/// and defaults), its description and its parameters' descriptions, then how to call and when to
/// answer instead. The step schema constrains the output anyway; this is what lets a small model
/// choose a tool and fill its arguments (without it, the 1.5B model answered every BFCL case in
/// prose), in as few prompt tokens as measured to work (see docs/DESIGN.md).
struct ToolInstructions {
    /// How much of each tool is shown.
    enum Detail: String, Sendable {
        /// The name and description only.
        case names
        /// `name(a: integer, b?: string)`, the description, then each parameter's description.
        case signatures
        /// The name, description and the whole argument schema in compact form.
        case schemas
    }

    /// How the calls of one turn are written (see `StepSchema`).
    enum Calls: Sendable {
        /// One call a turn.
        case one
        /// One call, and more chained after it while the model wants more.
        case chained
    }

    var detail: Detail = .signatures
    var keys: StepSchema.Keys = StepSchema.keys
    var calls: Calls

    func lines(for tools: [SessionTool]) -> [String] { lines(listing: listing(tools)) }

    /// The tools' lines as `listing` wrote them, under "Tools:", then the answer and how to call.
    func lines(listing: [String]) -> [String] {
        guard !listing.isEmpty else { return [] }
        var lines = ["Tools:"] + listing
        // The answer listed as a choice beside the tools: on BFCL's `irrelevance` cases the 1.5B
        // model answered without a call in 30 of 90 with this line and 23 without it, with the other
        // categories unchanged (see docs/TOOL-CALLING.md).
        lines.append("- \(keys.final): reply in words, when no tool above does what the request asks.")
        let call = "{\"\(keys.call)\": TOOL, \"\(keys.arguments)\": {…}}"
        let answer = "{\"\(keys.final)\": …}"
        let how = switch calls {
        case .one: "To call a tool, answer \(call)."
        case .chained:
            "To call a tool, answer \(call); to call another as well, add \"\(keys.next)\": \(call) at its end, once for each further thing the request asks."
        }
        lines.append(how + " When no tool fits the request, or once you have what you need, answer \(answer).")
        return lines
    }

    /// The tools' lines, in their order. Neighbours whose descriptions open with the same sentences
    /// (tools of one API, each described as a member of it first) get those sentences once, on a
    /// line before them (`SharedOpening`): BFCL's conversations describe each of 18 file-system tools
    /// with the same 241 characters, which took a third of the listing's tokens.
    func listing(_ tools: [SessionTool]) -> [String] {
        var lines: [String] = []
        var runs = SharedOpening.runs(tools.map(\.description))[...]
        var index = 0
        while index < tools.count {
            if let run = runs.first, run.range.lowerBound == index {
                runs.removeFirst()
                lines.append("The next \(run.range.count) tools: \(run.opening)")
                for tool in tools[run.range] { lines.append(describe(tool, after: run.opening)) }
                index = run.range.upperBound
            } else {
                lines.append(describe(tools[index]))
                index += 1
            }
        }
        return lines
    }

    /// The tool's line; `opening`, when given, is left out of the front of its description (the
    /// line before the tool's says it).
    func describe(_ tool: SessionTool, after opening: String = "") -> String {
        let description = opening.isEmpty ? tool.description : String(tool.description.dropFirst(opening.count)).trimmingCharacters(in: .whitespaces)
        let detail = tool.includesSchemaInInstructions ? .schemas : self.detail
        switch detail {
        case .names:
            return "- \(tool.name): \(description)"
        case .schemas:
            return "- \(tool.name): \(description) Arguments: \(tool.parameters.promptDescription)"
        case .signatures:
            guard let signature = Self.signature(tool.parameters) else {
                return "- \(tool.name): \(description) Arguments: \(tool.parameters.promptDescription)"
            }
            var line = "- \(tool.name)(\(signature.parameters.joined(separator: ", "))): \(description)"
            if !signature.descriptions.isEmpty { line += " " + signature.descriptions.joined(separator: " ") }
            return line
        }
    }

    /// `base: integer`, `unit?: string`… for each member of an object schema, and each member's
    /// description as `base: The base of the triangle.`; nil for a schema that is not a plain
    /// object (its compact form is shown instead).
    static func signature(_ schema: GenerationSchema) -> (parameters: [String], descriptions: [String])? {
        let json = schema.json
        guard json["$defs"] == nil, json["$ref"] == nil, case .object(let properties)? = json["properties"] else { return nil }
        let required = Set((json["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var parameters: [String] = [], descriptions: [String] = []
        for (name, property) in properties {
            guard let member = try? GenerationSchema(json: property) else { return nil }
            parameters.append("\(name)\(required.contains(name) ? "" : "?"): \(member.promptDescription(describing: false))")
            if let text = property["description"]?.stringValue, !text.isEmpty {
                descriptions.append("\(name): \(Self.sentence(text))")
            }
        }
        return (parameters, descriptions)
    }

    /// The text with a full stop at its end.
    private static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }
}
