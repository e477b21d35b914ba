/// The state machine that cuts logical lines into cards: outside a card, or inside one
/// (collecting its properties and its first problem). Each card is built at its END.
///
/// Transitions:
/// - outside + `BEGIN:VCARD` → inside; outside + anything else → counted as stray, ignored.
/// - inside + property → collected (a line that is not a property marks the card as broken).
/// - inside + `END:VCARD` → the card is built (or skipped with its problem) → outside.
/// - inside + `BEGIN:VCARD` → the open card lacks its END: skipped; a new card starts —
///   unless the card's last property is a vCard 2.1 `AGENT:` with no value, whose value is the
///   embedded card that follows: its lines (to the matching END) belong to the outer card's AGENT
///   and are passed over; the outer card goes on after it.
/// - end of input while inside → the open card lacks its END: skipped.
struct CardSplitter {
    private enum State {
        case outside
        case inside(OpenCard)
    }

    private struct OpenCard {
        var startLine: Int
        var properties: [ContentLine] = []
        /// The first reason this card cannot be used; the rest of it is still consumed to find its END.
        var problem: String?
        /// How many embedded AGENT cards are open (their lines are not the outer card's).
        var agentDepth = 0

        /// `AGENT:` with nothing after it: the vCard 2.1 form whose value is the next card.
        var expectsEmbeddedCard: Bool {
            guard let last = properties.last, last.name == "AGENT" else { return false }
            return last.rawValue.allSatisfy { $0 == 0x20 || $0 == 0x09 }
        }
    }

    private var state = State.outside
    private var result = VCardReadResult()
    private var strayLines = 0
    private var firstStrayLine = 0
    private var groupCards: [GroupCard] = []

    mutating func consume(_ line: LogicalLine) {
        let marker = Self.marker(line)
        guard case .inside(var card) = state else {
            switch marker {
            case .begin:
                state = .inside(OpenCard(startLine: line.number))
            case .end:
                result.warnings.append(VCardWarning(line: line.number, message: "END:VCARD without BEGIN:VCARD; ignored"))
            case nil:
                if strayLines == 0 { firstStrayLine = line.number }
                strayLines += 1
            }
            return
        }
        // Take the card out of `state` so appending to its properties does not copy them.
        state = .outside
        if card.agentDepth > 0 || (marker == .begin && card.expectsEmbeddedCard) {
            switch marker {
            case .begin: card.agentDepth += 1
            case .end: card.agentDepth -= 1
            case nil: break
            }
            state = .inside(card)
            return
        }
        switch marker {
        case .begin:
            skip(card, because: "no END:VCARD before the next BEGIN:VCARD at line \(line.number)")
            state = .inside(OpenCard(startLine: line.number))
        case .end:
            finishCard(card)
        case nil:
            do {
                card.properties.append(try ContentLineParser.parse(line))
            } catch {
                if card.problem == nil { card.problem = error.message }
            }
            state = .inside(card)
        }
    }

    mutating func finish() -> VCardReadResult {
        if case .inside(let card) = state {
            skip(card, because: "no END:VCARD before the end of the file")
            state = .outside
        }
        if strayLines > 0 {
            result.warnings.append(VCardWarning(
                line: firstStrayLine,
                message: "\(strayLines) line\(strayLines == 1 ? "" : "s") outside BEGIN:VCARD…END:VCARD ignored"))
        }
        GroupCard.apply(groupCards, to: &result.contacts)
        return result
    }

    // MARK: - Cards

    private mutating func finishCard(_ card: OpenCard) {
        if let problem = card.problem { return skip(card, because: problem) }
        if let group = GroupCard(properties: card.properties) {
            groupCards.append(group)
            return
        }
        var builder = CardBuilder(startLine: card.startLine, properties: card.properties)
        do {
            let contact = try builder.build()
            result.contacts.append(contact)
            for note in builder.notes {
                result.warnings.append(VCardWarning(line: card.startLine, cardName: contact.formattedName, message: note))
            }
        } catch {
            skip(card, because: error.message)
        }
    }

    private mutating func skip(_ card: OpenCard, because problem: String) {
        let name = CardBuilder(startLine: card.startLine, properties: card.properties).nameForMessages()
        result.warnings.append(VCardWarning(line: card.startLine, cardName: name, message: "\(problem); card skipped"))
    }

    private enum Marker { case begin, end }

    /// `BEGIN:VCARD` / `END:VCARD`, case-insensitive and with an optional group (`home.begin:vcard`).
    private static func marker(_ line: LogicalLine) -> Marker? {
        // Cheap test first: this runs for every line.
        guard line.bytes.count <= 40,
              let last = line.bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }),
              line.bytes[last] | 0x20 == UInt8(ascii: "d")
        else { return nil }
        var text = String(decoding: line.bytes, as: UTF8.self).trimmingSpaces.uppercased()
        guard text.hasSuffix(":VCARD") else { return nil }
        text.removeLast(":VCARD".count)
        if let dot = text.lastIndex(of: ".") { text = String(text[text.index(after: dot)...]) }
        switch text {
        case "BEGIN": return .begin
        case "END": return .end
        default: return nil
        }
    }
}
