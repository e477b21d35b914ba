import CICal

/// Turns the VEVENTs of a parsed calendar into `EventSeries` values.
struct EventReader {
    let resolver: TimeZoneResolver

    /// Every VEVENT under `root` (a VCALENDAR, or several under an XROOT).
    func series(under root: OpaquePointer) -> (events: [EventSeries], skipped: Int) {
        var events: [EventSeries] = []
        var skipped = 0
        for calendar in calendars(under: root) {
            for event in children(of: calendar, kind: ICAL_VEVENT_COMPONENT) {
                if let series = read(event) { events.append(series) } else { skipped += 1 }
            }
        }
        return (events, skipped)
    }

    private func calendars(under root: OpaquePointer) -> [OpaquePointer] {
        icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT
            ? [root] : children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
    }

    /// A VEVENT without a usable DTSTART cannot be placed in time: skipped (and counted).
    private func read(_ event: OpaquePointer) -> EventSeries? {
        guard let startProperty = icalcomponent_get_first_property(event, ICAL_DTSTART_PROPERTY),
            let start = time(of: startProperty, in: event)?.start
        else { return nil }
        var series = EventSeries(
            uid: text(icalcomponent_get_uid(event)) ?? "",
            summary: text(icalcomponent_get_summary(event)) ?? "(no title)",
            location: text(icalcomponent_get_location(event)),
            start: start,
            length: length(of: event, from: start))
        for property in properties(of: event, kind: ICAL_RRULE_PROPERTY) {
            if let value = icalproperty_get_value(property), let rule = takeText(icalvalue_as_ical_string_r(value)) {
                series.rules.append(rule)
            }
        }
        for property in properties(of: event, kind: ICAL_RDATE_PROPERTY) {
            if let value = time(of: property, in: event) {
                series.extraDates.append(RecurrenceDate(start: value.start, length: value.length))
            }
        }
        for property in properties(of: event, kind: ICAL_EXDATE_PROPERTY) {
            if let value = time(of: property, in: event) { series.exceptions.append(value.start) }
        }
        if let property = icalcomponent_get_first_property(event, ICAL_RECURRENCEID_PROPERTY) {
            series.recurrenceID = time(of: property, in: event)?.start
            if let range = icalproperty_get_first_parameter(property, ICAL_RANGE_PARAMETER) {
                series.isThisAndFuture = icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE
            }
            // An override is one instance (RFC 5545 §3.8.4.4): a copy of the master's RRULE that
            // some clients leave in it must not start a new endless series.
            if series.recurrenceID != nil { series.rules = [] }
        }
        series.sequence = Int(icalcomponent_get_sequence(event))
        series.isCancelled = icalcomponent_get_status(event) == ICAL_STATUS_CANCELLED
        if let property = icalcomponent_get_first_property(event, ICAL_TRANSP_PROPERTY) {
            let transparency = icalproperty_get_transp(property)
            series.isTransparent =
                transparency == ICAL_TRANSP_TRANSPARENT || transparency == ICAL_TRANSP_TRANSPARENTNOCONFLICT
        }
        return series
    }

    /// DTEND, else DURATION, else RFC 5545's defaults (one day for a date, nothing for a time).
    /// A DTEND before DTSTART is read as an instant event rather than refused.
    private func length(of event: OpaquePointer, from start: CalendarTime) -> EventLength {
        if let endProperty = icalcomponent_get_first_property(event, ICAL_DTEND_PROPERTY),
            let end = time(of: endProperty, in: event)?.start
        {
            return Self.length(from: start, to: end)
        }
        if let durationProperty = icalcomponent_get_first_property(event, ICAL_DURATION_PROPERTY) {
            let seconds = Int64(icaldurationtype_as_int(icalproperty_get_duration(durationProperty)))
            if start.isDate { return .days(max(1, Int((seconds + 86_399) / 86_400))) }
            return .seconds(max(0, seconds))
        }
        return start.isDate ? .days(1) : .seconds(0)
    }

    static func length(from start: CalendarTime, to end: CalendarTime) -> EventLength {
        if case .date(let first) = start {
            return .days(max(1, first.days(to: end.ownDate)))
        }
        // Two times in one zone (or both floating) differ by the same seconds anywhere; UTC
        // stands in for the reader's zone only when zones differ.
        let utc = CalendarZone(identifier: "UTC")!
        return .seconds(max(0, end.instant(in: utc) - start.instant(in: utc)))
    }

    /// A property's DATE, DATE-TIME or PERIOD value, with its TZID resolved.
    func time(of property: OpaquePointer, in event: OpaquePointer) -> (start: CalendarTime, length: EventLength?)? {
        guard let value = icalproperty_get_value(property) else { return nil }
        var raw: icaltimetype
        var periodEnd: icaltimetype?
        var periodSeconds: Int64?
        switch icalvalue_isa(value) {
        case ICAL_DATETIMEPERIOD_VALUE:
            let both = icalvalue_get_datetimeperiod(value)
            if !both.time.isNullOrInvalid {
                raw = both.time
            } else {
                raw = both.period.start
                if !both.period.end.isNullOrInvalid { periodEnd = both.period.end }
                else { periodSeconds = Int64(icaldurationtype_as_int(both.period.duration)) }
            }
        case ICAL_PERIOD_VALUE:
            let period = icalvalue_get_period(value)
            raw = period.start
            if !period.end.isNullOrInvalid { periodEnd = period.end }
            else { periodSeconds = Int64(icaldurationtype_as_int(period.duration)) }
        case ICAL_DATE_VALUE, ICAL_DATETIME_VALUE:
            raw = icalvalue_get_datetime(value)
        default:
            return nil
        }
        guard !raw.isNullOrInvalid, let start = calendarTime(raw, property: property, in: event) else { return nil }
        var length: EventLength?
        if let periodEnd, let end = start.sameKind(as: periodEnd) { length = Self.length(from: start, to: end) }
        if let periodSeconds { length = .seconds(max(0, periodSeconds)) }
        return (start, length)
    }

    private func calendarTime(_ raw: icaltimetype, property: OpaquePointer, in event: OpaquePointer) -> CalendarTime? {
        if raw.is_date != 0 { return raw.localDate.map { .date($0) } }
        guard let wall = raw.wallClock else { return nil }
        if icaltime_is_utc(raw) != 0 { return .zoned(wall, ICalZone(pointer: icaltimezone_get_utc_timezone())) }
        if let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let tzid = text(icalparameter_get_tzid(parameter)),
            let zone = resolver.zone(named: tzid, near: event)
        {
            return .zoned(wall, zone)
        }
        return .floating(wall)
    }
}

func children(of component: OpaquePointer, kind: icalcomponent_kind) -> [OpaquePointer] {
    var found: [OpaquePointer] = []
    var child = icalcomponent_get_first_component(component, kind)
    while let current = child {
        found.append(current)
        child = icalcomponent_get_next_component(component, kind)
    }
    return found
}

func properties(of component: OpaquePointer, kind: icalproperty_kind) -> [OpaquePointer] {
    var found: [OpaquePointer] = []
    var property = icalcomponent_get_first_property(component, kind)
    while let current = property {
        found.append(current)
        property = icalcomponent_get_next_property(component, kind)
    }
    return found
}
