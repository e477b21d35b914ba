import TrailheadSchema

/// The calendar tools' results as JSON, in the exact shape their manifests promise.
///
/// Times are local times in the reported `timeZone` without an offset ("2026-12-07T09:00"):
/// short for a model to read and to copy into a plan, and unambiguous together with the zone.
/// All-day events carry dates ("2026-12-14") with an exclusive end, as RFC 5545's DTEND.
public enum CalendarReport {
    /// Events listed in one answer; past this, the first ones are listed and `omitted` counts
    /// the rest (only then is the member present), so a huge calendar gives a bounded answer.
    public static let maximumEvents = 500

    /// `{"timeZone", "events": [{"summary", "start", "end", "allDay", "location"?}], "omitted"?}`
    public static func events(_ events: [CalendarEvent], zone: CalendarZone, notes: [String] = []) -> GeneratedContent {
        var object: JSONObject = [
            "timeZone": .string(zone.identifier),
            "events": .array(events.prefix(maximumEvents).map(content(of:))),
        ]
        if events.count > maximumEvents { object["omitted"] = .number(Double(events.count - maximumEvents)) }
        addWarnings(notes, to: &object)
        return .object(object)
    }

    /// `{"timeZone", "freeDays": ["YYYY-MM-DD", …], "busyDays": [{"date", "events": [summary, …]}]}`
    public static func freeDays(_ availability: DayAvailability, zone: CalendarZone, notes: [String] = []) -> GeneratedContent {
        var object: JSONObject = [
            "timeZone": .string(zone.identifier),
            "freeDays": .array(availability.freeDays.map { .string($0.description) }),
            "busyDays": .array(
                availability.busyDays.map { day in
                    ["date": .string(day.date.description), "events": .array(day.events.map { .string($0) })]
                }),
        ]
        addWarnings(notes, to: &object)
        return .object(object)
    }

    /// Notes shown with an answer; the rest are counted, so a calendar with thousands of broken
    /// rules still gives a short answer.
    public static let maximumWarnings = 5

    /// `"warnings": [...]`, present only when there is something to say (a rule cut short, a zone
    /// rule ignored…): what the answer could not do exactly is never silent.
    private static func addWarnings(_ notes: [String], to object: inout JSONObject) {
        guard !notes.isEmpty else { return }
        var listed = notes.prefix(maximumWarnings).map { GeneratedContent.string($0) }
        if notes.count > maximumWarnings { listed.append(.string("and \(notes.count - maximumWarnings) more notes")) }
        object["warnings"] = .array(listed)
    }

    private static func content(of event: CalendarEvent) -> GeneratedContent {
        var object: JSONObject = [
            "summary": .string(event.summary),
            "start": .string(event.start),
            "end": .string(event.end),
            "allDay": .bool(event.allDay),
        ]
        if let location = event.location { object["location"] = .string(location) }
        return .object(object)
    }
}

extension CalendarReport {
    /// `{"file", "timeZone", "added": [{"uid", "summary", "start", "end", "allDay"}]}`
    public static func added(_ written: [EventWriter.Written], file: String, zone: CalendarZone) -> GeneratedContent {
        [
            "file": .string(file),
            "timeZone": .string(zone.identifier),
            "added": .array(
                written.map { item in
                    [
                        "uid": .string(item.uid), "summary": .string(item.draft.summary),
                        "start": .string(item.draft.start.description), "end": .string(item.draft.end.description),
                        "allDay": .bool(item.draft.allDay),
                    ]
                }),
        ]
    }
}
