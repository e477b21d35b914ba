import CICal
import Foundation

/// A parsed RFC 5545 calendar: its events, read once, ready to be expanded over any range.
///
/// Parsing goes through libical. The libical tree stays alive with the document because time
/// zones defined by the file's VTIMEZONEs live inside it.
public final class CalendarDocument: @unchecked Sendable {
    /// Larger files are refused before they are read, so memory stays bounded.
    public static let maximumFileSize: Int64 = 50 * 1024 * 1024

    /// Where the text came from, for messages.
    public let source: String
    /// X-WR-TIMEZONE, the zone the calendar's owner reads it in, when the file names one.
    public let declaredTimeZone: String?
    /// Lines libical could not read and kept as X-LIC-ERROR (the rest of the file is used).
    public let unreadableLineCount: Int
    /// VEVENTs without a usable DTSTART, left out.
    public let skippedEventCount: Int

    private let root: OpaquePointer
    let series: [EventSeries]
    /// The series by version and override (see `EventVersions`).
    let versions: EventVersions
    /// What reading changed or could not use (a zone rule ignored, an unknown X-WR-TIMEZONE),
    /// repeated in every query's notes.
    public let readingNotes: [String]

    /// Reads a file, refusing one that is missing, larger than `maximumFileSize`, or not iCalendar.
    public convenience init(contentsOfFile path: String) throws(CalendarError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CalendarError("cannot read calendar '\(path)': \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw CalendarError("calendar '\(path)' is not a regular file")
        }
        let size = Int64(info.st_size)
        guard size <= Self.maximumFileSize else {
            throw CalendarError(
                "calendar '\(path)' is \(megabytes(size)); files over \(megabytes(Self.maximumFileSize)) are refused")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CalendarError("cannot read calendar '\(path)'")
        }
        try self.init(text: String(decoding: data, as: UTF8.self), source: path)
    }

    /// Parses iCalendar text; `source` names it in errors.
    public init(text: String, source: String = "calendar text") throws(CalendarError) {
        try CalendarTextCheck.check(text, source: source)
        let parsed = try Libical.locked { () throws(CalendarError) -> (OpaquePointer, [EventSeries], Int, Int, String?, [String]) in
            trailhead_icalerrno_clear()
            guard let root = text.withCString({ icalparser_parse_string($0) }) else {
                // libical may fail while its error number still says "No error": check both.
                let reason =
                    Libical.errorText
                    ?? (text.uppercased().contains("END:VCALENDAR")
                        ? "libical could not parse it" : "it is truncated or malformed (no END:VCALENDAR)")
                throw CalendarError("'\(source)' is not a valid iCalendar file: \(reason)")
            }
            let kind = icalcomponent_isa(root)
            let calendars =
                kind == ICAL_VCALENDAR_COMPONENT ? [root] : children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
            guard !calendars.isEmpty else {
                icalcomponent_free(root)
                throw CalendarError("'\(source)' is not a valid iCalendar file: it holds no VCALENDAR")
            }
            let zoneNotes = ZoneRuleGuard.sanitize(root)
            let read = EventReader(resolver: TimeZoneResolver()).series(under: root)
            let declared = calendars.lazy.compactMap(declaredZone(of:)).first
            return (root, read.events, read.skipped, Int(icalcomponent_count_errors(root)), declared, zoneNotes)
        }
        self.source = source
        root = parsed.0
        series = parsed.1
        versions = EventVersions(parsed.1)
        skippedEventCount = parsed.2
        unreadableLineCount = parsed.3
        declaredTimeZone = parsed.4
        var notes = parsed.5
        if let declared = parsed.4, CalendarZone(identifier: declared) == nil {
            notes.append("X-WR-TIMEZONE '\(declared)' is not a known time zone; it was not used")
        }
        readingNotes = notes
    }

    deinit {
        let root = self.root
        try? Libical.locked { () throws(CalendarError) in icalcomponent_free(root) }
    }

    /// The zone to read the calendar in: `preferred` when given, else X-WR-TIMEZONE, else the machine's.
    public func zone(preferring preferred: String? = nil) throws(CalendarError) -> CalendarZone {
        if let preferred, !preferred.isEmpty {
            guard let zone = CalendarZone(identifier: preferred) else {
                throw CalendarError("unknown time zone '\(preferred)'; use an IANA name like 'Europe/Berlin'")
            }
            return zone
        }
        if let declared = declaredTimeZone, let zone = CalendarZone(identifier: declared) { return zone }
        return .machine
    }
}

private func declaredZone(of calendar: OpaquePointer) -> String? {
    for property in properties(of: calendar, kind: ICAL_X_PROPERTY)
    where text(icalproperty_get_x_name(property))?.uppercased() == "X-WR-TIMEZONE" {
        // Apple writes `X-WR-TIMEZONE;VALUE=TEXT:…`, whose value libical keeps as text, not as an X value.
        if let value = text(icalproperty_get_x(property)) ?? text(icalproperty_get_value_as_string(property)) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { return trimmed }
        }
    }
    return nil
}

func megabytes(_ bytes: Int64) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}
