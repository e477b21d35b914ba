/// Something in a vCard file that was skipped or read with a fallback, named so a user can
/// find it: "line 12 (Ana Lima): missing END:VCARD; card skipped".
public struct VCardWarning: Sendable, Hashable, CustomStringConvertible {
    /// The line the problem is about (a card's `BEGIN:VCARD`, or the offending line).
    public var line: Int
    /// The card's name when one could be read.
    public var cardName: String?
    public var message: String

    public init(line: Int, cardName: String? = nil, message: String) {
        self.line = line
        self.cardName = cardName
        self.message = message
    }

    public var description: String {
        if let cardName, !cardName.isEmpty { return "card at line \(line) (\(cardName)): \(message)" }
        return "line \(line): \(message)"
    }
}

/// What reading a file yields: the cards that could be read, and what was skipped and why.
public struct VCardReadResult: Sendable {
    public var contacts: [Contact]
    public var warnings: [VCardWarning]

    public init(contacts: [Contact] = [], warnings: [VCardWarning] = []) {
        self.contacts = contacts
        self.warnings = warnings
    }
}

/// A whole file that cannot be read (as opposed to a card, which is skipped with a warning).
public enum VCardFileError: Error, Sendable, CustomStringConvertible, Equatable {
    case missing(path: String)
    case unreadable(path: String, reason: String)
    case tooLarge(path: String, bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .missing(let path):
            "contacts file not found: \(path)"
        case .unreadable(let path, let reason):
            "cannot read contacts file \(path): \(reason)"
        case .tooLarge(let path, let bytes, let limit):
            "contacts file \(path) is \(bytes) bytes; the limit is \(limit) bytes (split it or remove photos)"
        }
    }
}
