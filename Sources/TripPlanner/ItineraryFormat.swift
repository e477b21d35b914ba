import Foundation
import TrailheadSchema

/// The ways `agent plan --format` prints an itinerary.
public enum ItineraryFormat: String, Sendable, CaseIterable {
    case text, markdown, json, ics, geojson

    /// Renders `itinerary`, whole or still being written. `places` gives coordinates of places the
    /// tools returned (for geojson).
    public func render(_ itinerary: Partial<Itinerary>, places: [String: Coordinate] = [:]) -> String {
        switch self {
        case .json: itinerary.content.prettyJSONString + "\n"
        case .text: Self.text(itinerary)
        case .markdown: Self.markdown(itinerary)
        case .ics: Self.ics(itinerary)
        case .geojson: Self.geojson(itinerary, places: places)
        }
    }

    public func render(_ itinerary: Itinerary, places: [String: Coordinate] = [:]) -> String {
        render(Partial((try? itinerary.generatedContent()) ?? [:]), places: places)
    }

    public struct Coordinate: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    // MARK: - Text and Markdown (also used for partial, streamed itineraries)

    static func text(_ it: Partial<Itinerary>) -> String {
        var out = ""
        if let title = it.title { out += title + "\n" + String(repeating: "=", count: title.count) + "\n" }
        if let destination = it.destination { out += destination + "\n" }
        if let lodging = it.lodging { out += "Staying at " + lodging + "\n" }
        if let description = it.description { out += "\n" + description + "\n" }
        if let rationale = it.rationale { out += "Why: " + rationale + "\n" }
        // A day or activity still being written (no date or place yet) is left out, so the text of
        // a partial itinerary only ever grows: the streaming view relies on it.
        for day in it.days ?? [] {
            guard let date = day.date else { continue }
            out += "\n" + dayHeading(date) + "\n"
            for activity in day.activities ?? [] {
                guard let place = activity.place else { continue }
                let time = activity.time?.rawValue ?? ""
                let category = activity.category.map { " (\($0))" } ?? ""
                out += "  \(time.padding(toLength: 10, withPad: " ", startingAt: 0))\(place)\(category)\n"
                if let about = activity.about { out += "            \(Self.firstSentence(about))\n" }
                if let note = activity.note { out += "            \(note)\n" }
            }
        }
        if let companions = it.companions, !companions.isEmpty {
            out += "\nWith " + companions.joined(separator: ", ") + "\n"
        }
        return out
    }

    static func markdown(_ it: Partial<Itinerary>) -> String {
        var out = "# \(it.title ?? "Trip")\n\n"
        if let destination = it.destination { out += "**\(destination)**\n\n" }
        if let lodging = it.lodging { out += "Staying at \(lodging).\n\n" }
        if let description = it.description { out += description + "\n\n" }
        if let rationale = it.rationale { out += "_Why:_ " + rationale + "\n\n" }
        for day in it.days ?? [] {
            out += "## " + (day.date.map(dayHeading) ?? "…") + "\n\n"
            for activity in day.activities ?? [] {
                let time = activity.time?.rawValue ?? ""
                let about = activity.about.map { Self.firstSentence($0) + " " } ?? ""
                out += "- **\(time.capitalized)** — \(activity.place ?? "") _(\(activity.category ?? ""))_: \(about)\(activity.note ?? "")\n"
            }
            out += "\n"
        }
        if let companions = it.companions, !companions.isEmpty {
            out += "With " + companions.joined(separator: ", ") + ".\n"
        }
        return out
    }

    /// The first sentence of a tool's description (all of it when it has one).
    static func firstSentence(_ text: String) -> String {
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }

    /// "Saturday 19 December 2026" for a valid date, the text itself otherwise.
    static func dayHeading(_ date: String) -> String {
        guard let day = parseDay(date) else { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        return formatter.string(from: day)
    }

    public static func parseDay(_ date: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: date)
    }

    // MARK: - iCalendar

    /// Hours of each part of the day, as floating local times (the trip's own time zone).
    static let hours: [TimeOfDay: (Int, Int)] = [.morning: (9, 12), .afternoon: (13, 17), .evening: (18, 21)]

    static func ics(_ it: Partial<Itinerary>) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Trailhead//agent plan//EN", "CALSCALE:GREGORIAN"]
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        let title = it.title ?? "Trip"
        for (dayIndex, day) in (it.days ?? []).enumerated() {
            guard let date = day.date, parseDay(date) != nil else { continue }
            let compact = date.replacingOccurrences(of: "-", with: "")
            for (index, activity) in (day.activities ?? []).enumerated() {
                let (start, end) = activity.time.flatMap { hours[$0] } ?? (9, 12)
                lines += [
                    "BEGIN:VEVENT",
                    "UID:\(compact)-\(dayIndex)-\(index)-\(abs(title.hashValue))@trailhead",
                    "DTSTAMP:\(stamp)",
                    String(format: "DTSTART:%@T%02d0000", compact, start),
                    String(format: "DTEND:%@T%02d0000", compact, end),
                    "SUMMARY:" + escape(activity.place ?? ""),
                    "DESCRIPTION:" + escape(activity.note ?? ""),
                    "CATEGORIES:" + escape(activity.category ?? ""),
                    "LOCATION:" + escape(it.destination ?? ""),
                    "END:VEVENT",
                ]
            }
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ";", with: "\\;")
            .replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// RFC 5545 §3.1: lines longer than 75 octets continue on the next line after a space,
    /// never splitting a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var out = ""
        var width = 0
        for character in line {
            let size = String(character).utf8.count
            if width + size > 75 {
                out += "\r\n "
                width = 1
            }
            out.append(character)
            width += size
        }
        return out
    }

    // MARK: - GeoJSON

    static func geojson(_ it: Partial<Itinerary>, places: [String: Coordinate]) -> String {
        var features: [GeoJSON.Feature] = []
        for day in it.days ?? [] {
            for activity in day.activities ?? [] {
                guard let place = activity.place, let at = places[place] else { continue }
                features.append(GeoJSON.Feature(
                    geometry: .init(coordinates: [at.longitude, at.latitude]),
                    properties: .init(name: place, date: day.date, time: activity.time, category: activity.category, note: activity.note)))
            }
        }
        let collection = GeoJSON.FeatureCollection(properties: .init(title: it.title), features: features)
        return ((try? GeneratedContent(encoding: collection)) ?? .null).prettyJSONString + "\n"
    }

    /// RFC 7946 documents, as `geojson` writes them (a member not known is null).
    enum GeoJSON {
        struct FeatureCollection: Encodable {
            var type = "FeatureCollection"
            var properties: Title
            var features: [Feature]
        }

        struct Title: Encodable {
            var title: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(title, forKey: .title)
            }
            enum CodingKeys: CodingKey { case title }
        }

        struct Feature: Encodable {
            var type = "Feature"
            var geometry: Point
            var properties: Properties
        }

        struct Point: Encodable {
            var type = "Point"
            var coordinates: [Double]
        }

        struct Properties: Encodable {
            var name: String
            var date: String?
            var time: TimeOfDay?
            var category: String?
            var note: String?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try container.encode(date, forKey: .date)
                try container.encode(time, forKey: .time)
                try container.encode(category, forKey: .category)
                try container.encode(note, forKey: .note)
            }
            enum CodingKeys: CodingKey { case name, date, time, category, note }
        }
    }
}
