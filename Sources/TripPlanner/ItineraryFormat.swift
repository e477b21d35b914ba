import Foundation
import TrailheadSchema

/// The ways `agent plan --format` prints an itinerary.
public enum ItineraryFormat: String, Sendable, CaseIterable {
    case text, markdown, json, ics, geojson

    /// Renders `itinerary`. `places` gives coordinates of places the tools returned (for geojson).
    public func render(_ itinerary: GeneratedContent, places: [String: Coordinate] = [:]) -> String {
        switch self {
        case .json: itinerary.prettyJSONString + "\n"
        case .text: Self.text(itinerary)
        case .markdown: Self.markdown(itinerary)
        case .ics: Self.ics(itinerary)
        case .geojson: Self.geojson(itinerary, places: places)
        }
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

    static func text(_ it: GeneratedContent) -> String {
        var out = ""
        if let title = it["title"]?.stringValue { out += title + "\n" + String(repeating: "=", count: title.count) + "\n" }
        if let destination = it["destination"]?.stringValue { out += destination + "\n" }
        if let description = it["description"]?.stringValue { out += "\n" + description + "\n" }
        if let rationale = it["rationale"]?.stringValue { out += "Why: " + rationale + "\n" }
        // A day or activity still being written (no date or place yet) is left out, so the text of
        // a partial itinerary only ever grows: the streaming view relies on it.
        for day in it["days"]?.arrayValue ?? [] {
            guard let date = day["date"]?.stringValue else { continue }
            out += "\n" + dayHeading(date) + "\n"
            for activity in day["activities"]?.arrayValue ?? [] where activity["place"] != nil {
                let time = activity["time"]?.stringValue ?? ""
                let place = activity["place"]?.stringValue ?? ""
                let category = activity["category"]?.stringValue.map { " (\($0))" } ?? ""
                out += "  \(time.padding(toLength: 10, withPad: " ", startingAt: 0))\(place)\(category)\n"
                if let note = activity["note"]?.stringValue { out += "            \(note)\n" }
            }
        }
        if let companions = it["companions"]?.arrayValue?.compactMap(\.stringValue), !companions.isEmpty {
            out += "\nWith " + companions.joined(separator: ", ") + "\n"
        }
        return out
    }

    static func markdown(_ it: GeneratedContent) -> String {
        var out = "# \(it["title"]?.stringValue ?? "Trip")\n\n"
        if let destination = it["destination"]?.stringValue { out += "**\(destination)**\n\n" }
        if let description = it["description"]?.stringValue { out += description + "\n\n" }
        if let rationale = it["rationale"]?.stringValue { out += "_Why:_ " + rationale + "\n\n" }
        for day in it["days"]?.arrayValue ?? [] {
            out += "## " + (day["date"]?.stringValue.map(dayHeading) ?? "…") + "\n\n"
            for activity in day["activities"]?.arrayValue ?? [] {
                let time = activity["time"]?.stringValue ?? ""
                let place = activity["place"]?.stringValue ?? ""
                let category = activity["category"]?.stringValue ?? ""
                let note = activity["note"]?.stringValue ?? ""
                out += "- **\(time.capitalized)** — \(place) _(\(category))_: \(note)\n"
            }
            out += "\n"
        }
        if let companions = it["companions"]?.arrayValue?.compactMap(\.stringValue), !companions.isEmpty {
            out += "With " + companions.joined(separator: ", ") + ".\n"
        }
        return out
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
    static let hours: [String: (Int, Int)] = ["morning": (9, 12), "afternoon": (13, 17), "evening": (18, 21)]

    static func ics(_ it: GeneratedContent) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Trailhead//agent plan//EN", "CALSCALE:GREGORIAN"]
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime, .withTimeZone])
            .replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        let title = it["title"]?.stringValue ?? "Trip"
        for (dayIndex, day) in (it["days"]?.arrayValue ?? []).enumerated() {
            guard let date = day["date"]?.stringValue, parseDay(date) != nil else { continue }
            let compact = date.replacingOccurrences(of: "-", with: "")
            for (index, activity) in (day["activities"]?.arrayValue ?? []).enumerated() {
                let (start, end) = hours[activity["time"]?.stringValue ?? ""] ?? (9, 12)
                lines += [
                    "BEGIN:VEVENT",
                    "UID:\(compact)-\(dayIndex)-\(index)-\(abs(title.hashValue))@trailhead",
                    "DTSTAMP:\(stamp)",
                    String(format: "DTSTART:%@T%02d0000", compact, start),
                    String(format: "DTEND:%@T%02d0000", compact, end),
                    "SUMMARY:" + escape(activity["place"]?.stringValue ?? ""),
                    "DESCRIPTION:" + escape(activity["note"]?.stringValue ?? ""),
                    "CATEGORIES:" + escape(activity["category"]?.stringValue ?? ""),
                    "LOCATION:" + escape(it["destination"]?.stringValue ?? ""),
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

    static func geojson(_ it: GeneratedContent, places: [String: Coordinate]) -> String {
        var features: [GeneratedContent] = []
        for day in it["days"]?.arrayValue ?? [] {
            for activity in day["activities"]?.arrayValue ?? [] {
                guard let place = activity["place"]?.stringValue, let at = places[place] else { continue }
                features.append([
                    "type": "Feature",
                    "geometry": ["type": "Point", "coordinates": [.number(at.longitude), .number(at.latitude)]],
                    "properties": ["name": .string(place), "date": day["date"] ?? .null, "time": activity["time"] ?? .null,
                                   "category": activity["category"] ?? .null, "note": activity["note"] ?? .null],
                ])
            }
        }
        let collection: GeneratedContent = ["type": "FeatureCollection", "properties": ["title": it["title"] ?? .null], "features": .array(features)]
        return collection.prettyJSONString + "\n"
    }
}
