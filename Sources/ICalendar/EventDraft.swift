import TrailheadSchema

/// An event someone asked to add, checked and ready to be written.
public struct EventDraft: Sendable, Hashable {
    /// A time as the write tool takes it.
    public enum Time: Sendable, Hashable, CustomStringConvertible {
        /// `YYYY-MM-DD`: a whole day.
        case date(LocalDate)
        /// `YYYY-MM-DDTHH:MM[:SS]`: a wall clock in the calendar's zone.
        case local(WallClock)
        /// `…Z` or `…±HH:MM`: an absolute moment, seconds since 1970.
        case instant(Int64)

        public var description: String {
            switch self {
            case .date(let date): date.description
            case .local(let wall): wall.description
            case .instant(let seconds): "\(CalendarZone(identifier: "UTC")!.wallClock(at: seconds))Z"
            }
        }
    }

    public var summary: String
    public var start: Time
    /// All-day events: exclusive (RFC 5545), or equal to `start` for a single day.
    public var end: Time
    public var location: String?
    public var notes: String?

    public var allDay: Bool { if case .date = start { true } else { false } }

    /// Builds a draft from the tool's argument object `events[index]`, with messages naming the field.
    public init(content: GeneratedContent, index: Int) throws(CalendarError) {
        guard let summary = content["summary"]?.stringValue, !summary.isEmpty else {
            throw CalendarError("events[\(index)].summary is required and must be a non-empty string")
        }
        guard let startText = content["start"]?.stringValue, let endText = content["end"]?.stringValue else {
            throw CalendarError("events[\(index)] needs 'start' and 'end' (YYYY-MM-DD or YYYY-MM-DDTHH:MM)")
        }
        try self.init(
            summary: summary, start: startText, end: endText, allDay: content["allDay"]?.boolValue,
            location: content["location"]?.stringValue, notes: content["description"]?.stringValue, index: index)
    }

    /// Builds a draft from the fields of `events[index]`, with messages naming the field.
    public init(
        summary: String, start startText: String, end endText: String, allDay: Bool?, location: String?, notes: String?, index: Int
    ) throws(CalendarError) {
        let at = "events[\(index)]"
        guard !summary.isEmpty else { throw CalendarError("\(at).summary is required and must be a non-empty string") }
        var start = try Self.time(startText, field: "\(at).start")
        var end = try Self.time(endText, field: "\(at).end")
        if allDay == true {
            start = .date(try Self.day(of: start, text: startText, field: "\(at).start"))
            end = .date(try Self.day(of: end, text: endText, field: "\(at).end"))
        } else if allDay == false, start.isDate || end.isDate {
            throw CalendarError("\(at) is not all-day, so start and end need times (YYYY-MM-DDTHH:MM)")
        }
        guard start.isDate == end.isDate else {
            throw CalendarError("\(at): start and end must both be dates (all-day) or both be times")
        }
        if case .date(let first) = start, end == start {
            end = .date(first.adding(days: 1))  // "end == start" means that one day
        }
        self.summary = summary
        self.start = start
        self.end = end
        self.location = location
        self.notes = notes
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS]`, optionally ending in `Z` or `±HH:MM`.
    static func time(_ text: String, field: String) throws(CalendarError) -> Time {
        let problem = CalendarError("\(field) '\(text)' is not YYYY-MM-DD or YYYY-MM-DDTHH:MM")
        if let date = LocalDate(iso: text) { return .date(date) }
        let parts = text.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2, let date = LocalDate(iso: parts[0]) else { throw problem }
        var clock = parts[1]
        var offset: Int64?
        if clock.hasSuffix("Z") || clock.hasSuffix("z") {
            offset = 0
            clock.removeLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let zone = clock[clock.index(after: sign)...].split(separator: ":")
            guard zone.count == 2, let h = Int(zone[0]), let m = Int(zone[1]), h <= 14, m < 60 else { throw problem }
            offset = Int64(h * 3600 + m * 60) * (clock[sign] == "-" ? -1 : 1)
            clock = String(clock[..<sign])
        }
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0 != nil }),
            let hour = fields[0], let minute = fields[1], (0...23).contains(hour), (0...59).contains(minute)
        else { throw problem }
        let second = fields.count == 3 ? fields[2]! : 0
        guard (0...59).contains(second) else { throw problem }
        let wall = WallClock(date: date, hour: hour, minute: minute, second: second)
        guard let offset else { return .local(wall) }
        return .instant(CalendarZone(identifier: "UTC")!.instant(of: wall) - offset)
    }

    private static func day(of time: Time, text: String, field: String) throws(CalendarError) -> LocalDate {
        switch time {
        case .date(let date): return date
        case .local(let wall): return wall.date
        case .instant: throw CalendarError("\(field) '\(text)': an all-day event takes a date, YYYY-MM-DD")
        }
    }
}

extension EventDraft.Time {
    var isDate: Bool { if case .date = self { true } else { false } }

    /// Seconds since 1970, reading dates and local times in `zone` (for ordering checks).
    func instant(in zone: CalendarZone) -> Int64 {
        switch self {
        case .date(let date): zone.instant(startOf: date)
        case .local(let wall): zone.instant(of: wall)
        case .instant(let seconds): seconds
        }
    }
}
