import TrailheadAgent
import TrailheadPostgres
import TrailheadSchema

/// A background run as the server reads it back from the store: its row, and the fields of its
/// stored request and response the server acts on, decoded once (`PostgresRunStore.storedRun`),
/// so the code reads typed properties rather than the stored JSON by key.
struct StoredRun: Sendable {
    /// The row as the store gave it: its status, its session, and its response object, which
    /// clients get as it was stored.
    let row: PostgresRunStore.Run
    /// The fields of the `POST /v1/responses` body the run was created with that the server reads.
    let request: Request
    /// The conversation's response id a completed run ended with (its response's
    /// `trailhead.response_id`): what a later request continues from. Nil before the run completes.
    let continuation: String?

    var id: String { row.id }
    var status: PostgresRunStore.Status { row.status }
    var createdAt: Double { row.createdAt }

    /// The request's fields, as `enqueueBackground` stored them (the body was decoded as a
    /// `ResponsesRequest` first, so the model is there).
    struct Request: Decodable, Sendable {
        /// The agent that runs it.
        var model: String
        /// The response it continues, when it does.
        var previousResponseID: String?

        enum CodingKeys: String, CodingKey {
            case model, previousResponseID = "previous_response_id"
        }
    }

    /// The part of a stored response object the server reads; the rest goes to clients as it is.
    private struct Response: Decodable {
        struct Trailhead: Decodable {
            var responseID: String?

            enum CodingKeys: String, CodingKey { case responseID = "response_id" }
        }
        var trailhead: Trailhead?
    }

    /// Decodes `row`'s request and response; one that cannot be read is a `failed` store error naming the run.
    init(_ row: PostgresRunStore.Run) throws(SessionStoreError) {
        self.row = row
        request = try StoredRecord.decode(Request.self, from: row.request, "run \(row.id): its request")
        continuation = try row.response.map { response throws(SessionStoreError) in
            try StoredRecord.decode(Response.self, from: response, "run \(row.id): its response").trailhead?.responseID
        } ?? nil
    }
}

extension PostgresRunStore {
    /// The run `id`, its request and response decoded, or nil when there is none.
    func storedRun(_ id: String) throws(SessionStoreError) -> StoredRun? {
        guard let row = try load(id) else { return nil }
        return try StoredRun(row)
    }
}
