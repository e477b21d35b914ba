/// Recognises rows that are not places one can visit, by their names: Wikipedia geotags
/// events, lines and other abstractions at a point ("Solar eclipse of September 8, 1885",
/// "136th meridian west", "Tristan hotspot"). Imports skip them, counted as "not a place".
///
/// The rule, on the name folded to lower case without accents, with whole words:
/// 1. lines of the globe: "<ordinal> meridian|parallel [east|west|north|south]", "equator",
///    "tropic of cancer|capricorn", "prime meridian", "international date line";
/// 2. sky and Earth events: "solar|lunar eclipse …", "… hotspot" (a geological hotspot), a
///    name that is only "hotspot" or "tsunami", "… impact event";
/// 3. events named by what happened: a name that begins with "battle of", "siege of",
///    "murder of", "killing of", "assassination of", "death of", "sinking of", "attack on",
///    or "<airline> flight <number>";
///    a name that ends in earthquake, massacre, bombing(s), attack, riot(s), disaster,
///    explosion, crash, derailment, collision, oil spill, shooting, killings, protests,
///    incident, championship(s), world cup, olympics, rally, expedition(s), fire — unless it
///    also says memorial, monument or museum ("Memorial to the Victims of … Killings");
/// 4. lists and templates: a name that begins with "list of", "sortable list of",
///    "listed buildings in", "infobox".
/// A place named after an event keeps its name and stays ("Canterbury Earthquake National
/// Memorial", "Earthquake Valley", "Great Siege Tunnels"): only the event's own article goes.
public enum NonPlaceFilter {
    /// True when `name` names an event, a line or a list rather than a place.
    public static func isNonPlace(_ name: String) -> Bool {
        let words = TextFolding.words(of: TextFolding.key(name))
        guard let first = words.first, let last = words.last else { return false }
        let text = words.joined(separator: " ")
        if exactNames.contains(text) { return true }
        if words.count >= 2, isOrdinal(first), lineWords.contains(words[1]),
           words.count == 2 || (words.count == 3 && directions.contains(words[2])) { return true }
        if text.contains("solar eclipse") || text.contains("lunar eclipse") || text.hasSuffix("impact event") { return true }
        if last == "hotspot" { return true }
        if leadingPhrases.contains(where: { text.hasPrefix($0 + " ") }) { return true }
        if words.count >= 3, words[words.count - 2] == "flight", Int(last) != nil { return true }
        let endsInEvent = (words.count >= 2 && trailingWords.contains(last)) || trailingPhrases.contains { text.hasSuffix(" " + $0) }
        return endsInEvent && !words.contains(where: keptWords.contains)
    }

    private static let exactNames: Set<String> = [
        "equator", "tropic of cancer", "tropic of capricorn", "prime meridian", "international date line",
        "hotspot", "tsunami", "typhoon",
    ]
    private static let lineWords: Set<String> = ["meridian", "parallel"]
    private static let directions: Set<String> = ["east", "west", "north", "south"]
    private static let leadingPhrases = [
        "battle of", "siege of", "murder of", "killing of", "assassination of", "death of", "sinking of",
        "attack on", "list of", "sortable list of", "listed buildings in", "infobox",
    ]
    private static let trailingWords: Set<String> = [
        "earthquake", "massacre", "bombing", "bombings", "attack", "riot", "riots", "disaster", "explosion",
        "crash", "derailment", "collision", "shooting", "killings", "protests", "incident", "championship",
        "championships", "olympics", "rally", "expedition", "expeditions", "fire",
    ]
    private static let trailingPhrases = ["oil spill", "world cup"]
    private static let keptWords: Set<String> = ["memorial", "monument", "museum"]

    /// "136th", "1st", "22nd", "3rd".
    private static func isOrdinal(_ word: String) -> Bool {
        let digits = word.prefix { $0.isNumber }
        return !digits.isEmpty && ["st", "nd", "rd", "th"].contains(String(word.dropFirst(digits.count)))
    }
}
