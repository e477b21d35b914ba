import Foundation

/// A type an option's value can have: read from one word of the command line, and named in the
/// error when a word is not one ("--days must be an integer from 1 to 14, not '20'").
public protocol ArgumentValue: Sendable {
    /// The value `word` stands for; nil when it stands for none.
    init?(argument word: String)
    /// What a word must be, for errors: "an integer", "a date YYYY-MM-DD".
    static var expectation: String { get }
    /// The value as errors write it (a bound of a range: "14", "2").
    var argumentText: String { get }
}

extension String: ArgumentValue {
    public init?(argument word: String) { self = word }
    public static var expectation: String { "a text" }
    public var argumentText: String { self }
}

extension Int: ArgumentValue {
    public init?(argument word: String) { self.init(word) }
    public static var expectation: String { "an integer" }
    public var argumentText: String { String(self) }
}

extension Double: ArgumentValue {
    public init?(argument word: String) {
        guard let value = Double(word), value.isFinite else { return nil }
        self = value
    }
    public static var expectation: String { "a number" }
    /// `2`, not `2.0`.
    public var argumentText: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

/// A closed set of words (`text`, `json`, …): a `String` enum is an option's type as it is.
extension ArgumentValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public init?(argument word: String) { self.init(rawValue: word) }
    public static var expectation: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
    public var argumentText: String { rawValue }
}

/// A TCP port, 0…65535 (an option's range narrows it: 0 often means "a free one"). Not `Port`:
/// Foundation has a class of that name.
public struct PortNumber: ArgumentValue, Comparable, Hashable {
    public var number: Int

    public init(_ number: Int) { self.number = number }
    public init?(argument word: String) {
        guard let number = Int(word), (0...65535).contains(number) else { return nil }
        self.number = number
    }
    public static var expectation: String { "a port" }
    public var argumentText: String { String(number) }
    public static func < (a: PortNumber, b: PortNumber) -> Bool { a.number < b.number }

    /// Every port, 0 included.
    public static let any = PortNumber(0)...PortNumber(65535)
    /// A port to listen on as given (0, "a free one", excluded).
    public static let fixed = PortNumber(1)...PortNumber(65535)
}

/// Names given as one comma-separated word (`--tools poi,calendar`), spaces around them trimmed and
/// empty ones dropped.
public struct NameList: ArgumentValue, Equatable, ExpressibleByArrayLiteral {
    public var names: [String]

    public init(_ names: [String]) { self.names = names }
    public init(arrayLiteral names: String...) { self.names = names }
    public init?(argument word: String) {
        names = word.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    public static var expectation: String { "names, comma-separated" }
    public var argumentText: String { names.joined(separator: ",") }
}

/// The bounds an option's value must lie in: `1...14` or `1...` (written "from 1 to 14", "≥ 1").
public protocol ArgumentBounds<Bound>: Sendable {
    associatedtype Bound: ArgumentValue & Comparable
    func contains(_ value: Bound) -> Bool
    /// How errors write the bounds.
    var phrase: String { get }
}

extension ClosedRange: ArgumentBounds where Bound: ArgumentValue {
    public var phrase: String { "from \(lowerBound.argumentText) to \(upperBound.argumentText)" }
}

extension PartialRangeFrom: ArgumentBounds where Bound: ArgumentValue {
    public var phrase: String { "≥ \(lowerBound.argumentText)" }
}

/// Reads one word as a `Value` inside optional bounds, or says what the word should have been.
struct ValueReader<Value: ArgumentValue>: Sendable {
    var phrase: String?
    var contains: @Sendable (Value) -> Bool

    static var unbounded: ValueReader { ValueReader(phrase: nil) { _ in true } }

    static func bounded<Bounds: ArgumentBounds<Value>>(_ bounds: Bounds) -> ValueReader {
        ValueReader(phrase: bounds.phrase) { bounds.contains($0) }
    }

    func read(_ word: String, option name: String) throws(UsageError) -> Value {
        guard let value = Value(argument: word), contains(value) else {
            throw UsageError("--\(name) must be \(Value.expectation)\(phrase.map { " " + $0 } ?? ""), not '\(word)'")
        }
        return value
    }
}
