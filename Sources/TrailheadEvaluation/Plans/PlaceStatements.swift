import Foundation

/// What a plan's text says of a place the points-of-interest tool returned, checked against what
/// the tool said of it (`agent eval`'s "statements agree with the tools"). Only statements that
/// can be checked, and only in forms that leave no doubt about which place they are about:
///
/// - **a kind of place**: a kind word right after the name ("Jumbo Rocks Campground museum"; not
///   a word for what leads to it or looks at it: "the Mitre Peak viewpoint"), or
///   right before it after an article ("the museum Jumbo Rocks Campground"), or said of it
///   ("Jumbo Rocks Campground is a quiet museum", "Jumbo Rocks Campground, a museum"). It
///   contradicts the tool when the word's kind is not the tool's category and the tool's name and
///   description of the place do not use a word of that kind either ("Jumbo Rocks Campground …
///   central for stargazing" makes "stargazing" fine; no kind word is read from "stargazing at
///   Skull Rock": "at" separates them). Plural kind words ("the Grand Canyon trails") and a kind
///   word after a town's or a destination's name ("the Banff museum") say where, not what, and
///   are not read.
/// - **a number** (a length in km, miles, metres or feet, an elevation, a count) right before the
///   name ("the 5-mile Ryan Mountain Trail") or after it with only small words between ("Keys
///   View, at 6,000 feet", "Ryan Mountain Trail (5 miles)"). A length is compared with the
///   lengths the tool's description gives, a count with its counts of the same thing ("287
///   steps"), "… km away" or "… km from <the landmark>" with the tool's distance; a number the
///   tool has nothing to compare with, or a distance from somewhere else, is not checked. Numbers
///   agree within rounding: the stated number's last digit, or 10 %.
struct PlaceStatements {
    /// What the tool said of one place.
    struct Place {
        var name: String
        var category: String?
        var description: String?
        var distanceKm: Double?
        /// A town or a destination: a kind word after its name says where ("the Banff museum").
        var isArea: Bool
    }

    private let places: [Place]
    /// Each place's name as tokens, longest first (a longer name wins where both match).
    private let names: [(index: Int, tokens: [String])]
    /// The landmarks the tool searched around: "12 km from" one of them is its distance.
    private let landmarks: [[String]]

    init(places: [Place], landmarks: [String]) {
        self.places = places
        // A name that is only a kind word ("Beach") would match any beach the text mentions.
        self.names = places.enumerated().map { ($0.offset, Self.tokens(of: $0.element.name).map(\.text)) }
            .filter { !$0.tokens.allSatisfy { Self.kindOf[$0] != nil || Self.articles.contains($0) } }
            .sorted { $0.tokens.count > $1.tokens.count }
        self.landmarks = landmarks.map { Self.tokens(of: $0).map(\.text) }.filter { !$0.isEmpty }
    }

    /// The contradictions in `text`, each naming the place, what the text says and what the tool said.
    func contradictions(in text: String) -> [String] {
        let tokens = Self.tokens(of: text)
        let mentions = self.mentions(in: tokens)
        var covered = Set<Int>()
        for mention in mentions { covered.formUnion(mention.range) }
        var found: [String] = []
        for mention in mentions {
            let place = places[mention.place]
            found += kindContradictions(place, mention.range, tokens, covered)
            found += numberContradictions(place, mention.range, tokens, covered)
        }
        return found
    }

    // MARK: - Kinds

    /// The kind words, by the category they say; singular only (see the type's comment).
    static let kindWords: [String: [String]] = [
        "hike": ["trail", "trailhead"],
        "viewpoint": ["viewpoint", "overlook", "lookout"],
        "campground": ["campground", "campsite"],
        "lodging": ["hotel", "motel", "hostel", "inn", "lodge", "resort"],
        "restaurant": ["restaurant", "diner", "bistro", "eatery", "steakhouse"],
        "cafe": ["cafe", "coffeehouse"],
        "museum": ["museum", "gallery"],
        "marina": ["marina", "harbour", "harbor"],
        "beach": ["beach"],
        "stargazing": ["observatory", "planetarium", "stargazing"],
        "airport": ["airport", "airfield"],
        "town": ["town", "village"],
    ]

    /// Words in the tool's name or description of a place that say it is of a kind too (Calton
    /// Hill, a viewpoint with "views", is no contradiction of "the Calton Hill lookout"), beside
    /// the kind words themselves.
    static let evidence: [String: Set<String>] = [
        "hike": ["walk", "walks", "hike", "hikes", "hiking", "path", "loop", "climb", "trek"],
        "viewpoint": ["view", "views", "panorama", "vista", "overlooks"],
        "campground": ["camp", "camping", "campgrounds", "campsites"],
        "lodging": ["hotels", "lodges", "rooms", "cabins", "stay"],
        "restaurant": ["restaurants", "dining", "meals", "dinner", "lunch", "food"],
        "cafe": ["coffee", "tea"],
        "museum": ["museums", "exhibits", "exhibit", "exhibition", "collection", "galleries"],
        "marina": ["boats", "boat", "harbours"],
        "beach": ["beaches", "sand", "sandy", "swimming"],
        "stargazing": ["stars", "star", "skies", "sky"],
        "airport": ["airports", "flights"],
        "town": ["towns", "villages"],
    ]

    /// Kind words that, right after a name, say what leads to it or looks at it ("the Mitre Peak
    /// viewpoint", "the Skull Rock trail"), not what it is.
    static let relational: Set<String> = ["trail", "trailhead", "viewpoint", "overlook", "lookout"]

    private static let kindOf: [String: String] = Dictionary(
        kindWords.flatMap { category, words in words.map { ($0, category) } }, uniquingKeysWith: { a, _ in a })

    private func kindContradictions(_ place: Place, _ range: Range<Int>, _ tokens: [Token], _ covered: Set<Int>) -> [String] {
        guard let category = place.category else { return [] }
        var said: [String] = []
        // "<name> museum" (but "the Mitre Peak viewpoint" is a viewpoint of the peak)
        if !place.isArea, let next = tokens[safe: range.upperBound], next.isWord, !covered.contains(range.upperBound), Self.kindOf[next.text] != nil,
            !Self.relational.contains(next.text)
        {
            said.append(next.text)
        }
        // "the museum <name>"
        if range.lowerBound >= 2, let before = tokens[safe: range.lowerBound - 1], before.isWord, Self.kindOf[before.text] != nil,
            Self.articles.contains(tokens[range.lowerBound - 2].text)
        {
            said.append(before.text)
        }
        // "<name> is a quiet museum", "<name>, a museum"
        var index = range.upperBound
        let comma = tokens[safe: index]?.text == ","
        if comma { index += 1 }
        if !comma, ["is", "was"].contains(tokens[safe: index]?.text ?? "") { index += 1 }
        if index > range.upperBound, let article = tokens[safe: index]?.text, comma ? ["a", "an"].contains(article) : Self.articles.contains(article) {
            index += 1
            for offset in 0..<3 {
                guard let word = tokens[safe: index + offset], word.isWord, !covered.contains(index + offset) else { break }
                if Self.kindOf[word.text] != nil {
                    said.append(word.text)
                    break
                }
                if Self.smallWords.contains(word.text) { break }
            }
        }
        let told = Set(Self.tokens(of: [place.name, place.description ?? ""].joined(separator: " ")).map(\.text))
        return said.compactMap { word in
            guard let kind = Self.kindOf[word], kind != category, told.isDisjoint(with: Set(Self.kindWords[kind] ?? []).union(Self.evidence[kind] ?? [])) else {
                return nil
            }
            return "\(place.name) is called a \(word), but the tool gives it as a \(category)"
        }
    }

    // MARK: - Numbers

    /// A number and what follows it: a unit of length (then `metres` is set) or a noun counted.
    struct Quantity: Equatable {
        var value: Double
        /// Half the stated number's last digit ("2,000" → 500, "1.8" → 0.05), at most a quarter of it.
        var precision: Double
        var unit: String
        var metres: Double?
        /// As written: "5 mile".
        var text: String

        var counted: String { Self.singular(unit) }

        static func singular(_ noun: String) -> String {
            for ending in ["ches", "shes", "sses", "xes"] where noun.hasSuffix(ending) { return String(noun.dropLast(2)) }
            if noun.hasSuffix("ies") { return String(noun.dropLast(3)) + "y" }
            return noun.hasSuffix("s") && !noun.hasSuffix("ss") ? String(noun.dropLast()) : noun
        }

        func agrees(with other: Double, inUnitsOf scale: Double = 1, slack: Double = 0.1) -> Bool {
            abs(other / scale - value) <= max(precision, slack * value) + 1e-9
        }
    }

    private static let lengths: [String: Double] = [
        "km": 1000, "kilometre": 1000, "kilometres": 1000, "kilometer": 1000, "kilometers": 1000,
        "mi": 1609.344, "mile": 1609.344, "miles": 1609.344,
        "m": 1, "metre": 1, "metres": 1, "meter": 1, "meters": 1,
        "ft": 0.3048, "foot": 0.3048, "feet": 0.3048,
    ]

    /// The quantity whose number is `tokens[index]`, when a unit or a noun follows it.
    static func quantity(at index: Int, in tokens: [Token]) -> Quantity? {
        guard let number = tokens[safe: index], number.isNumber, let unit = tokens[safe: index + 1], unit.isWord,
            let value = Double(number.text.replacingOccurrences(of: ",", with: "")), value > 0
        else { return nil }
        var precision = 0.5
        if let dot = number.text.firstIndex(of: ".") {
            precision = 0.5 * pow(10, -Double(number.text.distance(from: dot, to: number.text.endIndex) - 1))
        } else {
            let zeros = number.text.reversed().prefix { $0 == "0" || $0 == "," }.filter { $0 == "0" }.count
            precision = min(0.5 * pow(10, Double(zeros)), max(0.5, value / 4))
        }
        let scale = lengths[unit.text]
        return Quantity(
            value: value, precision: precision, unit: unit.text, metres: scale.map { $0 * value },
            text: number.text + (unit.joinedByHyphen ? "-" : " ") + unit.text)
    }

    /// Every quantity in a tool's text.
    static func quantities(in text: String) -> [Quantity] {
        let tokens = Self.tokens(of: text)
        return tokens.indices.compactMap { quantity(at: $0, in: tokens) }
    }

    private func numberContradictions(_ place: Place, _ range: Range<Int>, _ tokens: [Token], _ covered: Set<Int>) -> [String] {
        var stated: [(Quantity, isDistance: Bool)] = []
        // "the 5-mile <name>", "the 5-mile strenuous <name>"
        for gap in 0...1 {
            let number = range.lowerBound - 2 - gap
            guard number >= 0, !covered.contains(number), let quantity = Self.quantity(at: number, in: tokens) else { continue }
            if gap == 1, !(tokens[number + 2].isWord && !Self.smallWords.contains(tokens[number + 2].text) && !Self.articles.contains(tokens[number + 2].text)) {
                continue
            }
            stated.append((quantity, false))
            break
        }
        // "<name>, at 6,000 feet", "<name> (5 miles)", "<name> is about 12 km away"
        var index = range.upperBound
        if let mark = tokens[safe: index], ["(", ",", ":", "—", "–"].contains(mark.text) { index += 1 }
        var fillers = 0
        while fillers < 3, let word = tokens[safe: index], Self.fillers.contains(word.text) {
            index += 1
            fillers += 1
        }
        if !covered.contains(index), let quantity = Self.quantity(at: index, in: tokens) {
            // The words after it, up to a mark: "away", "from …" or "to …" make it a distance
            // ("12 km away", "a 30-minute walk from the castle").
            let after = tokens.dropFirst(index + 2).prefix { $0.isWord }.prefix(3)
            if let direction = after.firstIndex(where: { $0.text == "away" || Self.directions.contains($0.text) }) {
                // From the landmark searched around: the tool's distance; from anywhere else: not checked.
                let rest = tokens.dropFirst(direction + 1).prefix(12).map(\.text).drop { $0 == "the" }
                let fromLandmark = ["from", "to"].contains(tokens[direction].text) && landmarks.contains { rest.starts(with: $0) }
                if tokens[direction].text == "away" || fromLandmark { stated.append((quantity, true)) }
            } else {
                stated.append((quantity, false))
            }
        }
        let told = Self.quantities(in: place.description ?? "")
        return stated.compactMap { quantity, isDistance in
            let agrees: Bool
            var said: [String]
            if isDistance {
                guard let distance = place.distanceKm, let metres = quantity.metres else { return nil }
                agrees = quantity.agrees(with: distance * 1000, inUnitsOf: metres / quantity.value, slack: 0.15)
                said = ["\(distance) km from the landmark"]
            } else if let metres = quantity.metres {
                let lengths = told.filter { $0.metres != nil }
                guard !lengths.isEmpty else { return nil }
                agrees = lengths.contains { quantity.agrees(with: $0.metres!, inUnitsOf: metres / quantity.value) }
                said = lengths.map(\.text)
            } else {
                let counts = told.filter { $0.metres == nil && $0.counted == quantity.counted }
                guard !counts.isEmpty else { return nil }
                agrees = counts.contains { quantity.agrees(with: $0.value) }
                said = counts.map(\.text)
            }
            return agrees ? nil : "\(place.name): \"\(quantity.text)\", but the tool says \(said.map { "\"\($0)\"" }.joined(separator: ", "))"
        }
    }

    private static let articles: Set<String> = ["a", "an", "the"]
    /// Words that may stand between a name and a number said of it.
    private static let fillers: Set<String> = [
        "is", "was", "at", "about", "around", "roughly", "some", "only", "just", "nearly", "almost", "over", "under", "a", "an", "its",
        "with", "has", "offers", "approximately", "of",
    ]
    /// Words after a quantity that make it a distance to or from somewhere else.
    private static let directions: Set<String> = ["from", "to", "past", "beyond", "north", "south", "east", "west", "outside", "off", "behind", "before", "after", "into", "toward", "towards"]
    /// Words that end the search for a kind after "<name> is a …".
    private static let smallWords: Set<String> = [
        "of", "from", "to", "near", "by", "with", "and", "or", "at", "in", "on", "for", "the", "a", "an", "that", "which", "where", "but",
    ]

    // MARK: - Tokens

    /// A word, a number or a mark of punctuation, folded (lower case, no accents).
    struct Token {
        var text: String
        var isWord: Bool { text.first?.isLetter ?? false }
        var isNumber: Bool { text.first?.isNumber ?? false }
        /// Written right after a hyphen ("3-mile").
        var joinedByHyphen = false
    }

    /// Words (with an apostrophe inside: "harriet's"), numbers ("2,790", "1.8") and marks.
    static func tokens(of text: String) -> [Token] {
        let folded = Array(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).replacingOccurrences(of: "’", with: "'"))
        var tokens: [Token] = []
        var index = 0
        var hyphen = false
        while index < folded.count {
            let character = folded[index]
            if character.isLetter || character.isNumber {
                var end = index + 1
                let number = character.isNumber
                while end < folded.count {
                    let next = folded[end]
                    if number ? next.isNumber : (next.isLetter || next.isNumber) { end += 1; continue }
                    // "2,790" and "1.8" inside a number, "harriet's" inside a word.
                    let joins = number ? (next == "," || next == ".") : next == "'"
                    if joins, end + 1 < folded.count, number ? folded[end + 1].isNumber : folded[end + 1].isLetter { end += 2; continue }
                    break
                }
                tokens.append(Token(text: String(folded[index..<end]), joinedByHyphen: hyphen))
                hyphen = false
                index = end
            } else {
                hyphen = character == "-" && !tokens.isEmpty && (index > 0 && !folded[index - 1].isWhitespace)
                if !character.isWhitespace, character != "-" { tokens.append(Token(text: String(character))) }
                index += 1
            }
        }
        return tokens
    }

    /// The places named in `tokens`, in order, the longest name where several start at one token.
    private func mentions(in tokens: [Token]) -> [(place: Int, range: Range<Int>)] {
        var found: [(Int, Range<Int>)] = []
        var index = 0
        while index < tokens.count {
            if let name = names.first(where: { tokens.dropFirst(index).prefix($0.tokens.count).map(\.text) == $0.tokens }) {
                found.append((name.index, index..<index + name.tokens.count))
                index += name.tokens.count
            } else {
                index += 1
            }
        }
        return found
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
