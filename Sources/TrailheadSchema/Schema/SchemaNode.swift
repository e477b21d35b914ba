import Foundation

/// The JSON types a schema's `type` keyword can name.
struct JSONTypeSet: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let null = JSONTypeSet(rawValue: 1 << 0)
    static let boolean = JSONTypeSet(rawValue: 1 << 1)
    static let integer = JSONTypeSet(rawValue: 1 << 2)
    static let number = JSONTypeSet(rawValue: 1 << 3)
    static let string = JSONTypeSet(rawValue: 1 << 4)
    static let array = JSONTypeSet(rawValue: 1 << 5)
    static let object = JSONTypeSet(rawValue: 1 << 6)

    /// In the order JSON Schema lists them; used for names and messages.
    static let named: [(String, JSONTypeSet)] = [
        ("object", .object), ("array", .array), ("string", .string), ("integer", .integer),
        ("number", .number), ("boolean", .boolean), ("null", .null),
    ]

    init(rawValue: UInt8) { self.rawValue = rawValue }

    init?(name: String) {
        guard let match = Self.named.first(where: { $0.0 == name }) else { return nil }
        self = match.1
    }

    /// Whether a value is of one of these types (`number` admits integers; 1.0 is an integer).
    func admits(_ value: GeneratedContent) -> Bool {
        switch value {
        case .null: contains(.null)
        case .bool: contains(.boolean)
        case .number(let n): contains(.number) || (contains(.integer) && n.isWholeNumber)
        case .string: contains(.string)
        case .array: contains(.array)
        case .object: contains(.object)
        }
    }

    /// "string or null"
    var names: [String] { Self.named.filter { contains($0.1) }.map(\.0) }
}

/// What an object schema says about one member name: its schema and whether it is required.
struct MemberRule: Sendable {
    var child: Int?
    var isRequired = false
}

/// A compiled `pattern`: the source for messages, the regex for matching.
struct CompiledPattern: @unchecked Sendable {
    // NSRegularExpression is immutable once made and documented as safe to share between threads.
    let source: String
    let regex: NSRegularExpression
    /// The well-formed text `SchemaBuilder` wrote this pattern for, recognized once here: prompts
    /// and error messages say it in words.
    let textShape: TextShape?

    init(source: String, regex: NSRegularExpression) {
        (self.source, self.regex, textShape) = (source, regex, TextShape(pattern: source))
    }

    /// Unanchored search, as JSON Schema's `pattern` is.
    func matches(_ string: String) -> Bool {
        let range = NSRange(string.startIndex..<string.endIndex, in: string)
        return regex.firstMatch(in: string, options: [], range: range) != nil
    }
}

/// One subschema compiled for validation: keyword values are checked and typed, `$ref`s point
/// at other nodes by index, regexes are compiled. Nodes live in one array (`CompiledSchema`),
/// so recursive schemas are plain index cycles.
///
/// A class so that validation reads a node with one retain instead of copying a struct of many
/// fields; its properties are set only by `SchemaCompiler`, before the node is shared.
final class SchemaNode: @unchecked Sendable {
    /// The schema pointer of this subschema (`/properties/days/items`).
    var pointer: String
    /// `true` / `false` schemas; nil for object schemas.
    var constant: Bool?

    var types: JSONTypeSet?
    var enumValues: [GeneratedContent]?
    var constValue: GeneratedContent?

    // Objects. `properties` keeps the schema's order for rendering; `memberRules` is for lookup.
    var properties: [(name: String, node: Int)] = []
    var memberRules: [String: MemberRule] = [:]
    var required: [String] = []
    var additionalProperties: Int?
    var minProperties: Int?
    var maxProperties: Int?

    // Arrays.
    var prefixItems: [Int] = []
    var items: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false

    // Numbers.
    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?

    // Strings.
    var minLength: Int?
    var maxLength: Int?
    var pattern: CompiledPattern?

    // Applicators on the same instance.
    var ref: Int?
    var refText: String?
    var allOf: [Int] = []
    var anyOf: [Int] = []
    var oneOf: [Int] = []
    var not: Int?

    // Annotations (used for prompts only).
    var title: String?
    var description: String?
    var format: String?
    var defaultValue: GeneratedContent?

    init(pointer: String, constant: Bool? = nil) {
        self.pointer = pointer
        self.constant = constant
    }

    /// Nodes applied to the very same instance (so a cycle among them never ends).
    var sameInstanceApplicators: [Int] {
        var result = allOf + anyOf + oneOf
        if let ref { result.append(ref) }
        if let not { result.append(not) }
        return result
    }

    /// The schema pointer of one of this node's keywords.
    func at(_ keyword: String) -> String { pointer + "/" + keyword }
}

/// A whole schema compiled once: every subschema, by index; the root is node 0.
final class CompiledSchema: Sendable {
    let nodes: [SchemaNode]
    /// Node index by canonical schema pointer (what `$ref` fragments resolve to).
    let nodeByPointer: [String: Int]

    init(nodes: [SchemaNode], nodeByPointer: [String: Int]) {
        self.nodes = nodes
        self.nodeByPointer = nodeByPointer
    }
}
