import Synchronization

/// Why a type's schema could not be derived: the type, the member, and what to do about it.
public struct SchemaDerivationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The type whose schema was asked for.
    public var type: String
    /// Where the problem is, as `Owner.member` ("DayPlan.date"); the type itself when it is to blame.
    public var member: String
    public var message: String

    public init(type: String, member: String, message: String) {
        self.type = type
        self.member = member
        self.message = message
    }

    public var description: String { "cannot derive the schema of \(type): \(member): \(message)" }
}

extension GenerationSchema {
    /// The schema of `type`, recorded from its `Decodable` conformance (see `Generable`): members in
    /// the order it decodes them, optionals not required, nested types inlined, recursive ones
    /// through `$defs` and `$ref`, each member's `guides` applied. Recorded once per type and kept.
    public static func derived<T: Decodable>(from type: T.Type) throws(SchemaDerivationError) -> GenerationSchema {
        let id = ObjectIdentifier(type)
        if let known = DerivedSchemas.cache.withLock({ $0[id] }) { return try known.get() }
        // Recorded outside the lock: a nested type's hand-written schema may ask for another
        // type's derived one.
        let result = Result { () throws(SchemaDerivationError) in try DerivedSchemas.record(type) }
        DerivedSchemas.cache.withLock { $0[id] = result }
        return try result.get()
    }
}

enum DerivedSchemas {
    static let cache = Mutex<[ObjectIdentifier: Result<GenerationSchema, SchemaDerivationError>]>([:])

    /// How many schemas have been recorded (not taken from the cache), for the benchmark.
    static let recordings = Atomic<Int>(0)

    static func record<T: Decodable>(_ type: T.Type) throws(SchemaDerivationError) -> GenerationSchema {
        recordings.add(1, ordering: .relaxed)
        let name = SchemaRecorder.name(type)
        let recorder = SchemaRecorder(rootName: name)
        var node: JSONObject
        do {
            node = try recorder.make(type, at: .init(owner: name, member: "")).node
        } catch {
            throw recorder.failure ?? SchemaDerivationError(type: name, member: name, message: "\(error)")
        }
        if !recorder.definitions.isEmpty {
            node["$defs"] = .object(JSONObject(recorder.definitions.map { ($0.name, GeneratedContent.object($0.node)) }))
        }
        do {
            return try GenerationSchema(json: .object(node))
        } catch {
            // A guide's pattern that does not compile, say.
            throw SchemaDerivationError(type: name, member: member(at: error.pointer, in: name), message: error.message)
        }
    }

    /// "Trip.days[].date" for the schema pointer "/properties/days/items/properties/date/pattern".
    private static func member(at pointer: String, in name: String) -> String {
        var member = name
        var tokens = (JSONPointer.tokens(pointer) ?? [])[...]
        while let token = tokens.popFirst() {
            if token == "properties", let key = tokens.popFirst() { member += "." + key }
            if token == "items" { member += "[]" }
        }
        return member
    }
}
