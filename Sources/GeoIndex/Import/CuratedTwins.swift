import PointsOfInterestTypes

/// Finds the curated place that an imported row duplicates, so the curated entry wins: the row
/// is left out, and the curated place takes the row's Wikipedia article and its popularity when
/// that is higher.
///
/// Two places are the same when they are close and their names agree. Names are compared by
/// their distinctive words: folded (case, accents), without a qualifier after a comma or in
/// parentheses ("Ocean Beach, San Francisco"), without words that say what kind of place it
/// is in several languages (museum, musée, hotel, the, of…). Then, for a curated point of
/// interest, an imported row is its twin when
/// 1. both keep the same words, within 2 km ("Musée Picasso" and "Picasso Museum"), or
/// 2. the row's words are all among the curated place's, within 1 km and of the same category
///    or within 100 m ("Banff Springs Hotel" and "Fairmont Banff Springs"; not "Louvre Pyramid"
///    for "Louvre Museum", a part of it, nor the "Hôtel du Louvre" 200 m away), or
/// 3. they have the same category and share a word, within 100 m ("Meiji Shrine", "Meiji Jingu").
/// A curated landmark (a city, a park) only takes a row of exactly its name within 25 km.
struct CuratedTwins {
    private struct Entry {
        var index: Int
        var place: Place
        var words: Set<String>
        /// The landmark itself, not one of its points of interest.
        var isLandmark: Bool
    }

    /// Curated places by 1° cell.
    private var cells: [Cell: [Entry]] = [:]
    private(set) var places: [Place]

    /// The landmarks' places (`Landmark.places`), ready to take in their twins.
    init(_ landmarks: [Landmark]) {
        self.init(landmarks.flatMap { landmark in landmark.places().enumerated().map { ($1, $0 == 0) } })
    }

    /// Curated places, each saying whether it is a landmark itself or one of its points.
    init(_ curated: [(place: Place, isLandmark: Bool)]) {
        places = []
        for (place, isLandmark) in curated {
            let entry = Entry(index: places.count, place: place, words: Self.words(place.name), isLandmark: isLandmark)
            cells[Cell(place.coordinate), default: []].append(entry)
            places.append(place)
        }
    }

    /// The positions in `places` of those that took something from a twin.
    private(set) var changed = Set<Int>()

    /// When `row` duplicates a curated place, records what the curated place takes from it and
    /// returns true; the caller leaves the row out.
    mutating func absorb(_ row: Place) -> Bool {
        guard !row.isCurated, row.category != .town, row.category != .airport else { return false }
        guard let twin = twin(of: row) else { return false }
        if row.popularity > places[twin].popularity {
            places[twin].popularity = row.popularity
            changed.insert(twin)
        }
        if places[twin].wikipedia == nil, row.wikipedia != nil {
            places[twin].wikipedia = row.wikipedia
            changed.insert(twin)
        }
        return true
    }

    private func twin(of row: Place) -> Int? {
        let words = Self.words(row.name)
        guard !words.isEmpty else { return nil }
        var best: (index: Int, distance: Double)?
        for cell in Cell(row.coordinate).neighbourhood {
            for entry in cells[cell] ?? [] {
                let distance = entry.place.coordinate.distanceKm(to: row.coordinate)
                guard Self.same(entry, words, row.category, distance) else { continue }
                if best == nil || distance < best!.distance { best = (entry.index, distance) }
            }
        }
        return best?.index
    }

    private static func same(_ curated: Entry, _ words: Set<String>, _ category: PoiCategory, _ distance: Double) -> Bool {
        if curated.isLandmark {
            return distance <= 25 && words == curated.words
        }
        if distance <= 2, words == curated.words { return true }
        if distance <= 1, words.isSubset(of: curated.words), distance <= 0.1 || category == curated.place.category { return true }
        return distance <= 0.1 && category == curated.place.category && !words.isDisjoint(with: curated.words)
    }

    /// The distinctive words of a name (see the type's documentation).
    static func words(_ name: String) -> Set<String> {
        var text = name
        if let comma = text.firstIndex(of: ",") { text = String(text[..<comma]) }
        if let parenthesis = text.firstIndex(of: "(") { text = String(text[..<parenthesis]) }
        return Set(TextFolding.words(of: TextFolding.key(text)).filter { $0.count > 1 && !genericWords.contains($0) })
    }

    private static let genericWords: Set<String> = [
        "the", "of", "de", "du", "des", "del", "della", "di", "da", "la", "le", "les", "el", "los", "las", "and", "at",
        "museum", "museu", "museo", "musee", "museen", "hotel", "tree",
    ]

    private struct Cell: Hashable {
        var latitude: Int
        var longitude: Int

        init(_ coordinate: Coordinate) {
            latitude = Int(coordinate.latitude.rounded(.down))
            longitude = Int(coordinate.longitude.rounded(.down))
        }

        init(latitude: Int, longitude: Int) {
            self.latitude = latitude
            self.longitude = (longitude + 540) % 360 - 180
        }

        /// This cell and the eight around it (25 km never reaches past them below 75° latitude).
        var neighbourhood: [Cell] {
            (-1...1).flatMap { dy in (-1...1).map { dx in Cell(latitude: latitude + dy, longitude: longitude + dx) } }
        }
    }
}
