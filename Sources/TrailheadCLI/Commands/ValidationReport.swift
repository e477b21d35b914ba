import Foundation
import TrailheadSchema

/// Writes the `schema check` result of each instance line, buffered, and counts the invalid ones.
struct ValidationReport {
    let listsEveryViolation: Bool
    let output: TextOutput
    private(set) var invalidCount = 0
    private var buffer = ""

    init(listsEveryViolation: Bool, output: TextOutput) {
        self.listsEveryViolation = listsEveryViolation
        self.output = output
    }

    mutating func check(_ line: ArraySlice<UInt8>, against schema: GenerationSchema) {
        let instance: GeneratedContent
        do {
            instance = try GeneratedContent(json: line)
        } catch {
            report([("", "not JSON: \(error.message) at column \(error.column)")])
            return
        }
        report(schema.validate(instance).map { ($0.instancePointer, $0.message) })
    }

    private mutating func report(_ violations: [(pointer: String, message: String)]) {
        if violations.isEmpty {
            buffer += "valid\n"
        } else {
            invalidCount += 1
            if listsEveryViolation {
                buffer += "invalid\n"
                for violation in violations {
                    buffer += "  \(oneLine(violation.pointer))\t\(oneLine(violation.message))\n"
                }
            } else {
                buffer += "invalid\t\(oneLine(violations[0].pointer))\t\(oneLine(violations[0].message))\n"
            }
        }
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered.
    mutating func flush() {
        output.write(buffer)
        buffer = ""
    }

    /// Keeps one result per line even if a message or a key holds a newline or a tab.
    private func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\t" }) else { return text }
        return text.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
            .replacingOccurrences(of: "\t", with: "\\t")
    }
}
