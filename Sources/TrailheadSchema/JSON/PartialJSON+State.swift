extension PartialJSONParser {
    /// What the next byte may be.
    enum Mode: Sendable {
        /// A value (at the top, after `,` in an array, after `:` in an object).
        case value
        /// Just after `[`: a value or `]`.
        case firstElementOrEnd
        /// Just after `{`: a key or `}`.
        case firstKeyOrEnd
        /// After `,` in an object: a key.
        case key
        /// After a key: `:`.
        case colon
        /// After a value: `,` or the closing bracket, or only whitespace at the top.
        case afterValue
        /// Inside a string (a key or a value): see `StringState`.
        case string
        /// Inside a number: see `NumberState`.
        case number
        /// Inside `true`, `false` or `null`.
        case literal
    }

    /// An open array or object and its finished content.
    struct Frame: Sendable {
        var isArray: Bool
        var elements: [GeneratedContent] = []
        var members = JSONObject()
        /// The key of the member being read (set once the key's closing quote is read).
        var key: String?
        /// Whether the last snapshot put a provisional value in `elements` (appended last) or
        /// `members[key]` (replaced by `.null` until the next snapshot or the real value).
        var holdsProvisional = false

        /// The container as a value, sharing this frame's storage.
        var value: GeneratedContent { isArray ? .array(elements) : .object(members) }
    }

    /// The grammar of a JSON number, one state per position.
    enum NumberPhase: Sendable {
        case afterMinus, zero, integer, afterDot, fraction, afterE, afterExponentSign, exponent

        /// Whether the number may end here.
        var isComplete: Bool {
            switch self {
            case .zero, .integer, .fraction, .exponent: true
            default: false
            }
        }
    }

    struct NumberState: Sendable {
        var phase = NumberPhase.afterMinus
        var text: [UInt8] = []
        var start = 0
    }

    struct LiteralState: Sendable {
        var word: StaticString = "null"
        var value = GeneratedContent.null
        var matched = 0
        var start = 0
    }
}
