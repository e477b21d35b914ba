import TrailheadSchema

/// The calendar tools' results, typed: their schemas (in the plugin's manifest) are derived from
/// these declarations, so the results have the exact shape the manifests promise.
///
/// Times are local times in the reported `timeZone` without an offset ("2026-12-07T09:00"):
/// short for a model to read and to copy into a plan, and unambiguous together with the zone.
/// All-day events carry dates ("2026-12-14") with an exclusive end, as RFC 5545's DTEND.
public enum CalendarReport {
    /// Events listed in one answer; past this, the first ones are listed and `omitted` counts
    /// the rest (only then is the member present), so a huge calendar gives a bounded answer.
    public static let maximumEvents = 500

    /// Notes shown with an answer; the rest are counted, so a calendar with thousands of broken
    /// rules still gives a short answer.
    public static let maximumWarnings = 5

    /// What `calendarEvents` returns.
    public struct Events: Generable, Sendable, Equatable {
        public var timeZone: String
        public var events: [Event]
        public var omitted: Int?
        public var warnings: [String]?

        public static let guides = GuideTable(CodingKeys.self, [
            .omitted: [.description("Events past the first \(maximumEvents), not listed.")],
            .warnings: [.description("What could not be read exactly.")],
        ])
    }

    public struct Event: Generable, Sendable, Equatable {
        public var summary: String
        public var start: String
        public var end: String
        public var allDay: Bool
        public var location: String?
    }

    /// What `calendarFreeDays` returns.
    public struct FreeDays: Generable, Sendable, Equatable {
        public var timeZone: String
        public var freeDays: [String]
        public var busyDays: [BusyDay]
        public var warnings: [String]?

        public static let guides = GuideTable(CodingKeys.self, [.warnings: [.description("What could not be read exactly.")]])
    }

    public struct BusyDay: Generable, Sendable, Equatable {
        public var date: String
        /// What makes the day busy, each as "summary, time, place" ("Team sync, 14:00–15:00, Room
        /// 4B"): a question about a busy day (where is the meeting, when does it start) is answered
        /// from this one call.
        public var events: [String]
    }

    /// What `calendarAddEvents` returns.
    public struct Added: Generable, Sendable, Equatable {
        public var file: String
        public var timeZone: String
        public var added: [AddedEvent]
    }

    public struct AddedEvent: Generable, Sendable, Equatable {
        public var uid: String
        public var summary: String
        public var start: String
        public var end: String
        public var allDay: Bool
    }

    public static func events(_ events: [CalendarEvent], zone: CalendarZone, notes: [String] = []) -> Events {
        Events(
            timeZone: zone.identifier,
            events: events.prefix(maximumEvents).map {
                Event(summary: $0.summary, start: $0.start, end: $0.end, allDay: $0.allDay, location: $0.location)
            },
            omitted: events.count > maximumEvents ? events.count - maximumEvents : nil, warnings: warnings(notes))
    }

    public static func freeDays(_ availability: DayAvailability, zone: CalendarZone, notes: [String] = []) -> FreeDays {
        FreeDays(
            timeZone: zone.identifier, freeDays: availability.freeDays.map(\.description),
            busyDays: availability.busyDays.map { day in
                BusyDay(date: day.date.description, events: DayAvailability.listed(day.occupiedBy.map { described($0, on: day.date) }))
            },
            warnings: warnings(notes))
    }

    /// "Team sync, 14:00–15:00, Room 4B"; "Cloud Summit, all day"; a time on another day than
    /// `day` keeps its date ("Release deploy window, 2026-12-17T23:00–01:00").
    static func described(_ event: CalendarEvent, on day: LocalDate) -> String {
        func time(_ local: String) -> String {
            let parts = local.split(separator: "T", maxSplits: 1)
            return parts.count == 2 && parts[0] == day.description ? String(parts[1]) : local
        }
        let when = event.allDay ? "all day" : "\(time(event.start))–\(time(event.end))"
        let place = event.location.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        return [event.summary, when, place].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    public static func added(_ written: [EventWriter.Written], file: String, zone: CalendarZone) -> Added {
        Added(file: file, timeZone: zone.identifier, added: written.map { item in
            AddedEvent(
                uid: item.uid, summary: item.draft.summary, start: item.draft.start.description, end: item.draft.end.description,
                allDay: item.draft.allDay)
        })
    }

    /// Present only when there is something to say (a rule cut short, a zone rule ignored…): what
    /// the answer could not do exactly is never silent.
    private static func warnings(_ notes: [String]) -> [String]? {
        guard !notes.isEmpty else { return nil }
        var listed = Array(notes.prefix(maximumWarnings))
        if notes.count > maximumWarnings { listed.append("and \(notes.count - maximumWarnings) more notes") }
        return listed
    }
}
