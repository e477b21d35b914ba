import Testing
import TrailheadSchema
@testable import TrailheadServer

@Suite struct AnswerTextTests {
    @Test func aTextAnswerStreamsWhatIsNew() {
        var text = AnswerText()
        #expect(text.delta(after: .string("Hel")) == "Hel")
        #expect(text.delta(after: .string("Hello")) == "lo")
        #expect(text.rest(of: "Hello, world") == ", world")
    }

    @Test func aJSONAnswerStreamsOnlyMembersTwoSnapshotsAgreeOn() throws {
        var text = AnswerText()
        #expect(text.delta(after: ["title": "Des"]) == nil)
        // The title still grows: nothing after the opening brace is settled.
        #expect(text.delta(after: ["title": "Desert"]) == "{")
        #expect(text.delta(after: ["title": "Desert days", "days": []]) == nil)
        #expect(text.delta(after: ["title": "Desert days", "days": [["place": "Arch"]]]) == "\"title\":\"Desert days\",\"days\":[")
        let final: GeneratedContent = ["title": "Desert days", "days": [["place": "Arch Rock"]]]
        #expect(text.sent + (text.rest(of: final.jsonString) ?? "<diverged>") == final.jsonString)
    }

    @Test func aRewrittenAnswerIsReportedNotGarbled() {
        var text = AnswerText()
        _ = text.delta(after: .string("Draft"))
        #expect(text.rest(of: "Another answer") == nil)
        #expect(text.diverged)
    }
}
