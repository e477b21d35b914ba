/// A JSON value: the one value type of the whole project.
///
/// Model output, tool arguments and results, manifests and transcripts are all
/// `GeneratedContent`. Objects keep their keys in insertion order (so documents print the way
/// they were written) but compare without regard to order, as JSON does. Numbers are `Double`;
/// `1` and `1.0` are equal, and a number is an integer when it has no fractional part.
public enum GeneratedContent: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([GeneratedContent])
    case object(JSONObject)
}

/// The members of a JSON object, in insertion order, with keyed access.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String] = []
    private var storage: [String: GeneratedContent] = [:]

    public init() {}

    public init(dictionaryLiteral elements: (String, GeneratedContent)...) {
        for (key, value) in elements { self[key] = value }
    }

    public init<S: Sequence>(_ members: S) where S.Element == (String, GeneratedContent) {
        for (key, value) in members { self[key] = value }
    }

    /// The members of a parsed object, `keys[i]` naming `values[i]`. The last of duplicate keys
    /// wins, in its own position, as if each earlier one had been removed before it was set.
    /// Linear in the members (setting them one by one costs a search of `keys` per duplicate).
    init(parsedKeys: ArraySlice<String>, values: ArraySlice<GeneratedContent>) {
        storage.reserveCapacity(parsedKeys.count)
        var duplicates = false
        for (key, value) in zip(parsedKeys, values) where storage.updateValue(value, forKey: key) != nil {
            duplicates = true
        }
        guard duplicates else {
            keys = Array(parsedKeys)
            return
        }
        // Keep each key at its last occurrence: walk backwards, keep first sightings.
        var seen = Set<String>(minimumCapacity: storage.count)
        keys.reserveCapacity(storage.count)
        for key in parsedKeys.reversed() where seen.insert(key).inserted { keys.append(key) }
        keys.reverse()
    }

    /// Setting `nil` removes the member; setting an existing key keeps its position.
    public subscript(key: String) -> GeneratedContent? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }
    public var values: [GeneratedContent] { keys.map { storage[$0]! } }

    public func makeIterator() -> AnyIterator<(key: String, value: GeneratedContent)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, storage[key]!)
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool { lhs.storage == rhs.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }
}

// MARK: - Literals

extension GeneratedContent: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: GeneratedContent...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, GeneratedContent)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - Accessors

extension GeneratedContent {
    /// The JSON type name as JSON Schema spells it (`integer` for whole numbers).
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number(let n): n.isWholeNumber ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var doubleValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [GeneratedContent]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var isNull: Bool { self == .null }

    /// The number as an `Int` when it is whole and fits.
    public var intValue: Int? {
        guard case .number(let n) = self, n.isWholeNumber, let i = Int(exactly: n) else { return nil }
        return i
    }

    /// Member of an object; `nil` for other values or a missing key.
    public subscript(key: String) -> GeneratedContent? {
        if case .object(let o) = self { o[key] } else { nil }
    }
}

extension Double {
    /// True for finite numbers with no fractional part (JSON Schema's "integer").
    public var isWholeNumber: Bool { isFinite && rounded(.towardZero) == self }
}
