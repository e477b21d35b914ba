import TrailheadAgent
import TrailheadSchema

/// An event of a background run as the store gives it back (`PostgresRunStore.events`): the
/// stored object, which clients get as it is, with the fields the server reads decoded once.
struct StoredRunEvent: Sendable {
    /// The event as stored, with its `sequence_number`.
    let content: GeneratedContent
    /// Its `type` (`response.output_item.done`, `response.completed`, …): the name it is streamed under.
    let type: String
    /// Its number in the run (what `starting_after` names).
    let sequenceNumber: Int
    /// The output item of a `response.output_item.done` (a tool call and its outcome).
    let item: GeneratedContent?

    private struct Fields: Decodable {
        var type: String
        var sequenceNumber: Int
        var item: GeneratedContent?

        enum CodingKeys: String, CodingKey {
            case type, item, sequenceNumber = "sequence_number"
        }
    }

    /// Decodes `content`, an event of run `run`; one that cannot be read is a `failed` store error naming it.
    init(_ content: GeneratedContent, run: String) throws(SessionStoreError) {
        let fields = try StoredRecord.decode(Fields.self, from: content, "run \(run): an event")
        self.content = content
        type = fields.type
        sequenceNumber = fields.sequenceNumber
        item = fields.item
    }

    /// Decodes `events`, as `PostgresRunStore.events` gave them for run `run`.
    static func decode(_ events: [GeneratedContent], run: String) throws(SessionStoreError) -> [StoredRunEvent] {
        try events.map { content throws(SessionStoreError) in try StoredRunEvent(content, run: run) }
    }
}
