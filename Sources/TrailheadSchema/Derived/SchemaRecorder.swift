import Foundation

/// Learns a type's schema from its own `init(from:)`, the way swift-argument-parser learns a
/// type's keys: a `Decoder` that records what it is asked for and answers with placeholders
/// (`""`, `0`, `false`, an enum's first case, empty arrays, `nil` for optionals).
///
/// Each member decoded becomes a property, in the order the type decodes them (for synthesized
/// `Codable`, the declaration order); `decodeIfPresent` makes it optional. Arrays, optionals and
/// nested types are described without decoding a value of them, so recursive types end in a
/// `$ref` instead of looping. What cannot be described exactly is refused, never guessed.
final class SchemaRecorder {
    enum Mode {
        /// Record the schema.
        case describe
        /// Only make a value (for a member whose schema is written by hand).
        case placeholder
    }

    /// Where a value is: the type that decodes it and the member's key, for messages.
    struct Site {
        var owner: String
        var member: String

        var label: String { member.isEmpty ? owner : "\(owner).\(member)" }
    }

    private let rootName: String
    private var root: ObjectIdentifier?
    private var stack: [ObjectIdentifier] = []
    private var recursive: Set<ObjectIdentifier> = []
    private var definitionNames: [ObjectIdentifier: String] = [:]
    private(set) var definitions: [(name: String, node: JSONObject)] = []
    private(set) var mode = Mode.describe
    /// The members the outermost type asked for, in order.
    private(set) var rootKeys: [String] = []
    /// The first refusal; kept because a type's `init(from:)` may swallow the error thrown for it.
    private(set) var failure: SchemaDerivationError?

    init(rootName: String) { self.rootName = rootName }

    /// Thrown through the type's `init(from:)` once `failure` is set.
    struct Abort: Error {}

    func refuse(_ site: Site, _ message: String) -> Abort {
        if failure == nil { failure = SchemaDerivationError(type: rootName, member: site.label, message: message) }
        return Abort()
    }

    // MARK: - Values and their schemas

    /// The schema of a value of `type`, without making one (optional members, array items).
    func describe(_ type: any Decodable.Type, at site: Site) throws -> JSONObject {
        let id = ObjectIdentifier(type)
        if stack.contains(id) {
            recursive.insert(id)
            return ["$ref": .string(id == root ? "#" : "#/$defs/" + definitionName(type))]
        }
        func open<T: Decodable>(_ type: T.Type) throws -> JSONObject { try make(type, at: site).node }
        return try open(type)
    }

    /// A placeholder value of `type` and its schema.
    func make<T: Decodable>(_ type: T.Type, at site: Site) throws -> (value: T, node: JSONObject) {
        if let scalar = Self.scalar(type) { return (scalar.value as! T, scalar.node) }
        if type == GeneratedContent.self { return (GeneratedContent.null as! T, [:]) }  // any JSON value, as it declares
        if let refusal = Self.undescribable(type) {
            guard mode == .placeholder, let value = Self.foundationPlaceholder(type) else { throw refuse(site, refusal) }
            return (value, [:])
        }
        if let cases = type as? any CaseIterable.Type { return try enumeration(cases, as: type, at: site) }
        if type is any RawRepresentable.Type {
            throw refuse(site, "\(Self.name(type)) is not CaseIterable, so its values cannot be listed: add CaseIterable")
        }
        if let optional = type as? any OptionalRecording.Type {
            let wrapped = mode == .describe ? try describe(optional.wrappedType, at: site) : [:]
            return (optional.noValue as! T, ["anyOf": [.object(wrapped), ["type": "null"]]])
        }
        if let sequence = type as? any SequenceRecording.Type {
            var node: JSONObject = ["type": "array"]
            if mode == .describe { node["items"] = .object(try describe(sequence.elementType, at: site)) }
            if sequence.uniqueItems { node["uniqueItems"] = true }
            return (sequence.empty as! T, node)
        }
        if let dictionary = type as? any DictionaryRecording.Type {
            guard mode == .placeholder else {
                throw refuse(site, "a dictionary (\(Self.name(type))) leaves its keys to the model: give the member a .schema(…) guide, or use a struct")
            }
            return (dictionary.empty as! T, [:])
        }
        if mode == .describe, let generable = type as? any Generable.Type, let declared = Self.declaredSchema(of: generable) {
            // A nested type with a schema written by hand: that schema, inlined, and a value made
            // without recording.
            var node = declared.json.objectValue ?? [:]
            node["$schema"] = nil
            return (try placeholder(type, at: site), node)
        }
        return try structure(type, at: site)
    }

    /// A placeholder value of `type` and the members it decodes, in order; nil when none can be made.
    static func placeholder<T: Decodable>(of type: T.Type) -> (value: T, keys: [String])? {
        let recorder = SchemaRecorder(rootName: name(type))
        guard let value = try? recorder.placeholder(type, at: .init(owner: name(type), member: "")) else { return nil }
        return (value, recorder.rootKeys)
    }

    /// A value of `type` only (its schema is written by hand).
    func placeholder<T: Decodable>(_ type: T.Type, at site: Site) throws -> T {
        let saved = mode
        mode = .placeholder
        defer { mode = saved }
        return try make(type, at: site).value
    }

    /// A type that decodes itself with its own `init(from:)`: a struct, a class, an enum.
    private func structure<T: Decodable>(_ type: T.Type, at site: Site) throws -> (value: T, node: JSONObject) {
        let id = ObjectIdentifier(type)
        if root == nil { root = id }
        stack.append(id)
        defer { stack.removeLast() }
        let guides = mode == .describe ? (type as? any Generable.Type)?.guides ?? GuideTable() : GuideTable()
        let collector = NodeCollector(owner: Self.name(type), guides: guides, recorder: self)
        let value: T
        do {
            value = try T(from: RecordingDecoder(collector: collector))
        } catch let abort as Abort {
            guard failure == nil else { throw abort }
            throw refuse(site, "no value of \(Self.name(type)) could be made to record its schema with")
        } catch {
            if failure != nil { throw Abort() }
            throw refuse(site, collector.refusalReason(for: error))
        }
        if failure != nil { throw Abort() }  // refused, but the type's init(from:) went on without the value
        if stack.count == 1 { rootKeys = collector.askedKeys }
        guard mode == .describe else { return (value, [:]) }
        var node = try collector.node(at: site)
        if recursive.contains(id), id != root {
            let name = definitionName(type)
            definitions.append((name, node))
            node = ["$ref": .string("#/$defs/" + name)]
        }
        return (value, node)
    }

    private func enumeration<T: Decodable>(_ cases: any CaseIterable.Type, as type: T.Type, at site: Site) throws -> (value: T, node: JSONObject) {
        func all<E: CaseIterable>(_ type: E.Type) -> [Any] { Array(type.allCases) }
        let values = all(cases)
        guard let first = values.first else { throw refuse(site, "\(Self.name(type)) has no cases") }
        var raw: [GeneratedContent] = []
        var kind = "string"
        for value in values {
            switch (value as? any RawRepresentable)?.rawValue {
            case let text as String: raw.append(.string(text))
            case let number as Int:
                raw.append(.number(Double(number)))
                kind = "integer"
            default:
                throw refuse(site, "\(Self.name(type)) is CaseIterable but its raw values are not String or Int, so its JSON form is unknown")
            }
        }
        return (first as! T, ["type": .string(kind), "enum": .array(raw)])
    }

    /// The name of a recursive type under `$defs`, unique within this schema.
    private func definitionName(_ type: Any.Type) -> String {
        let id = ObjectIdentifier(type)
        if let name = definitionNames[id] { return name }
        let base = String(Self.name(type).map { $0.isLetter || $0.isNumber ? $0 : "_" })
        var name = base, suffix = 2
        while definitionNames.values.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        definitionNames[id] = name
        return name
    }

    static func name(_ type: Any.Type) -> String { String(describing: type) }

    // MARK: - What needs no recording

    private static func scalar(_ type: Any.Type) -> (value: Any, node: JSONObject)? {
        switch type {
        case is String.Type: return ("", ["type": "string"])
        case is Bool.Type: return (false, ["type": "boolean"])
        case is Double.Type: return (0.0, ["type": "number"])
        case is Float.Type: return (Float(0), ["type": "number"])
        case is Decimal.Type: return (Decimal(0), ["type": "number"])
        case let integer as any FixedWidthInteger.Type:
            func zero<I: FixedWidthInteger>(_ type: I.Type) -> (Any, JSONObject) {
                var node: JSONObject = ["type": "integer"]
                // The bounds of the narrower integers are part of their type (an Int's are not
                // worth a model's attention).
                if !I.isSigned { node["minimum"] = 0 }
                if I.bitWidth <= 32 {
                    if I.isSigned { node["minimum"] = .number(Double(I.min)) }
                    node["maximum"] = .number(Double(I.max))
                }
                return (I.zero, node)
            }
            return zero(integer)
        default: return nil
        }
    }

    /// Why a value of `type` has no schema that can be derived, or nil.
    private static func undescribable(_ type: Any.Type) -> String? {
        switch type {
        case is Date.Type:
            "a Date has no one JSON form (seconds since when? which format?): declare a String with a .pattern(…), or give the member a .schema(…) guide"
        case is URL.Type:
            "a URL is text the schema cannot check: declare a String (with a .pattern(…)), or give the member a .schema(…) guide"
        case is Data.Type: "Data has no JSON form a model can write: give the member a .schema(…) guide"
        case is UUID.Type: "a UUID is not the model's to invent: give the member a .schema(…) guide, or leave it out of the type"
        default: nil
        }
    }

    private static func foundationPlaceholder<T>(_ type: T.Type) -> T? {
        switch type {
        case is Date.Type: Date(timeIntervalSince1970: 0) as? T
        case is URL.Type: URL(fileURLWithPath: "/") as? T
        case is Data.Type: Data() as? T
        case is UUID.Type: UUID() as? T
        default: nil
        }
    }

    /// The schema a `Generable` type declares by hand, or nil when it uses the derived default.
    private static func declaredSchema<G: Generable>(of type: G.Type) -> GenerationSchema? {
        let schema = DerivationProbe.$asking.withValue(ObjectIdentifier(type)) { type.generationSchema }
        return schema.json == DerivationProbe.marker.json ? nil : schema
    }
}

/// How the derived default of `generationSchema` tells the recorder it is the default (it answers
/// with `marker` while asked); a schema written by hand never looks at it.
enum DerivationProbe {
    @TaskLocal static var asking: ObjectIdentifier?
    static let marker = try! GenerationSchema(json: ["title": "\u{1}derived"])
}

// MARK: - Types recorded without a value

protocol OptionalRecording {
    static var wrappedType: any Decodable.Type { get }
    static var noValue: Self { get }
}

extension Optional: OptionalRecording where Wrapped: Decodable {
    static var wrappedType: any Decodable.Type { Wrapped.self }
    static var noValue: Self { nil }
}

protocol SequenceRecording {
    static var elementType: any Decodable.Type { get }
    static var empty: Self { get }
    static var uniqueItems: Bool { get }
}

extension Array: SequenceRecording where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Self { [] }
    static var uniqueItems: Bool { false }
}

extension ContiguousArray: SequenceRecording where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Self { [] }
    static var uniqueItems: Bool { false }
}

extension Set: SequenceRecording where Element: Decodable {
    static var elementType: any Decodable.Type { Element.self }
    static var empty: Self { [] }
    static var uniqueItems: Bool { true }
}

protocol DictionaryRecording {
    static var empty: Self { get }
}

extension Dictionary: DictionaryRecording where Key: Decodable, Value: Decodable {
    static var empty: Self { [:] }
}
