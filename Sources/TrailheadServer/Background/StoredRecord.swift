import TrailheadAgent
import TrailheadSchema

/// Decodes what the server stored for a background run (its request, its response, its steps and
/// events, read back from PostgreSQL) into the typed record the code reads, in one place: a
/// record that does not decode — written by hand, or damaged — is a `failed` store error that
/// names the record and the field at fault, never a crash or a silently made-up value.
enum StoredRecord {
    /// `content` as `Record`; `what` names the record in the error (`run resp_bg…: the step model:0`).
    static func decode<Record: Decodable>(_ type: Record.Type, from content: GeneratedContent, _ what: String) throws(SessionStoreError) -> Record {
        do {
            return try content.decode(as: type)
        } catch let error as DecodingError {
            // The field at fault in the terms a request body's error uses (`trailhead.response_id: expected a string`).
            throw SessionStoreError(.failed, "\(what) cannot be read: \(InvalidRequest(error).description)")
        } catch {
            throw SessionStoreError(.failed, "\(what) cannot be read: \(error)")
        }
    }
}
