import CICal
import Foundation

/// Writes new events into a separate .ics file (never the user's own calendar), through libical
/// so the result is valid RFC 5545: a VCALENDAR with VERSION and PRODID, each VEVENT with UID and
/// DTSTAMP, timed events in the calendar's zone with its VTIMEZONE.
public enum EventWriter {
    /// At most this many events per call.
    public static let maximumEventsPerCall = 100

    /// What was written, for the tool's answer.
    public struct Written: Sendable, Hashable {
        public var uid: String
        public var draft: EventDraft
    }

    /// Appends `drafts` to the calendar file at `path`, creating it when it does not exist.
    ///
    /// - Parameters:
    ///   - zone: the zone local times are in (written as their TZID with a VTIMEZONE).
    ///   - protectedPaths: files that must never be written (the user's calendar); compared by
    ///     real path, so a symlink or `..` does not get around it.
    public static func append(
        _ drafts: [EventDraft], to path: String, zone: CalendarZone, protecting protectedPaths: [String],
        now: Date = Date()
    ) throws(CalendarError) -> [Written] {
        guard !drafts.isEmpty else { throw CalendarError("no events to add") }
        guard drafts.count <= maximumEventsPerCall else {
            throw CalendarError("\(drafts.count) events in one call; at most \(maximumEventsPerCall)")
        }
        guard path.lowercased().hasSuffix(".ics") else {
            throw CalendarError("'\(path)' must be an .ics file")
        }
        let target = try realPath(ofTarget: path)
        for protected in protectedPaths {
            if let real = realPath(ofExisting: protected), real == target {
                throw CalendarError(
                    "'\(path)' is the user's own calendar, which is never changed; write to a separate .ics file")
            }
        }
        for (index, draft) in drafts.enumerated() where draft.end.instant(in: zone) < draft.start.instant(in: zone) {
            throw CalendarError("events[\(index)] ends (\(draft.end)) before it starts (\(draft.start))")
        }
        let existing = try existingText(at: target)
        let uids = drafts.map { _ in UUID().uuidString.lowercased() + "@trailhead" }
        let text = try Libical.locked { () throws(CalendarError) -> String in
            let calendar = try calendarComponent(from: existing, path: path)
            defer { icalcomponent_free(calendar) }
            let tzid = addTimeZone(zone, to: calendar)
            for (draft, uid) in zip(drafts, uids) {
                icalcomponent_add_component(calendar, eventComponent(draft, uid: uid, tzid: tzid, zone: zone, now: now))
            }
            guard let text = takeText(icalcomponent_as_ical_string_r(calendar)) else {
                throw CalendarError("libical could not write the calendar")
            }
            return text
        }
        try replaceAtomically(target, with: text)
        return zip(uids, drafts).map { Written(uid: $0, draft: $1) }
    }

    // MARK: - Files

    private static func realPath(ofExisting path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The real path the file has or will have: its folder must exist.
    private static func realPath(ofTarget path: String) throws(CalendarError) -> String {
        if let existing = realPath(ofExisting: path) { return existing }
        let url = URL(fileURLWithPath: path)
        guard let folder = realPath(ofExisting: url.deletingLastPathComponent().path) else {
            throw CalendarError("the folder of '\(path)' does not exist")
        }
        return folder + "/" + url.lastPathComponent
    }

    /// The current text of the file, nil when it does not exist or is empty.
    private static func existingText(at path: String) throws(CalendarError) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw CalendarError("'\(path)' is not a regular file") }
        guard Int64(info.st_size) <= CalendarDocument.maximumFileSize else {
            throw CalendarError("'\(path)' is \(megabytes(Int64(info.st_size))); too large to append to")
        }
        guard info.st_size > 0 else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalendarError("cannot read '\(path)'")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func replaceAtomically(_ path: String, with text: String) throws(CalendarError) {
        let temporary = path + ".tmp-\(getpid())"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw CalendarError("cannot write '\(path)': \(error.localizedDescription)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CalendarError("cannot write '\(path)': \(reason)")
        }
    }

    // MARK: - Components

    /// The file's VCALENDAR, or a new one. A file that is not a calendar is left alone.
    private static func calendarComponent(from text: String?, path: String) throws(CalendarError) -> OpaquePointer {
        guard let text else {
            let calendar = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
            icalcomponent_add_property(calendar, icalproperty_new_version("2.0"))
            icalcomponent_add_property(calendar, icalproperty_new_prodid("-//Trailhead//Calendar 1.0//EN"))
            return calendar
        }
        do {
            try CalendarTextCheck.check(text, source: path)
        } catch {
            throw CalendarError("\(error.message); it was left unchanged")
        }
        trailhead_icalerrno_clear()
        guard let root = text.withCString({ icalparser_parse_string($0) }) else {
            throw CalendarError("'\(path)' exists but is not a valid iCalendar file; it was left unchanged")
        }
        guard icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT else {
            icalcomponent_free(root)
            throw CalendarError("'\(path)' holds several calendars or none; it was left unchanged")
        }
        return root
    }

    /// Adds the zone's VTIMEZONE under its IANA name unless the calendar has it; returns the
    /// TZID to write, or nil to write times in UTC (for UTC itself, or a zone libical lacks).
    private static func addTimeZone(_ zone: CalendarZone, to calendar: OpaquePointer) -> String? {
        let tzid = zone.identifier
        if icalcomponent_get_timezone(calendar, tzid) != nil { return tzid }
        guard TimeZoneResolver.builtin(tzid).map({ $0.pointer != icaltimezone_get_utc_timezone() }) == true,
            let builtin = TimeZoneResolver.builtin(tzid),
            let definition = icaltimezone_get_component(builtin.pointer),
            let copy = icalcomponent_new_clone(definition)
        else { return nil }
        // libical names its builtin zones with a prefix; other programs expect the IANA name.
        if let property = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) {
            icalproperty_set_tzid(property, tzid)
        }
        icalcomponent_add_component(calendar, copy)
        return tzid
    }

    private static func eventComponent(
        _ draft: EventDraft, uid: String, tzid: String?, zone: CalendarZone, now: Date
    ) -> OpaquePointer {
        let event = icalcomponent_new(ICAL_VEVENT_COMPONENT)!
        let utc = icaltimezone_get_utc_timezone()
        icalcomponent_add_property(event, icalproperty_new_uid(uid))
        icalcomponent_add_property(
            event, icalproperty_new_dtstamp(icaltime_from_timet_with_zone(time_t(now.timeIntervalSince1970), 0, utc)))
        icalcomponent_add_property(event, icalproperty_new_summary(draft.summary))
        icalcomponent_add_property(event, timeProperty(draft.start, start: true, tzid: tzid, zone: zone))
        icalcomponent_add_property(event, timeProperty(draft.end, start: false, tzid: tzid, zone: zone))
        if let location = draft.location, !location.isEmpty {
            icalcomponent_add_property(event, icalproperty_new_location(location))
        }
        if let notes = draft.notes, !notes.isEmpty {
            icalcomponent_add_property(event, icalproperty_new_description(notes))
        }
        return event
    }

    private static func timeProperty(
        _ time: EventDraft.Time, start: Bool, tzid: String?, zone: CalendarZone
    ) -> OpaquePointer {
        let make = start ? icalproperty_new_dtstart : icalproperty_new_dtend
        switch time {
        case .date(let date):
            let property = make(CalendarTime.date(date).icalTime)!
            icalproperty_add_parameter(property, icalparameter_new_value(ICAL_VALUE_DATE))
            return property
        case .local(let wall):
            guard let tzid else { return utcProperty(zone.instant(of: wall), make) }
            let property = make(icaltimetype(wall, zone: nil))!
            icalproperty_add_parameter(property, icalparameter_new_tzid(tzid))
            return property
        case .instant(let seconds):
            return utcProperty(seconds, make)
        }
    }

    private static func utcProperty(_ seconds: Int64, _ make: (icaltimetype) -> OpaquePointer?) -> OpaquePointer {
        make(icaltime_from_timet_with_zone(time_t(seconds), 0, icaltimezone_get_utc_timezone()))!
    }
}
