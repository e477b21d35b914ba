import CICal

/// Checks the RRULEs of a calendar's VTIMEZONEs before libical ever expands them.
///
/// libical expands a zone's STANDARD/DAYLIGHT rules, unbounded, the first time a time in that
/// zone is converted (while the plugin reads a DTEND): a sub-daily or never-matching rule there
/// hangs it. Zone rules are yearly in every real calendar, so a rule that is not yearly, has
/// time-of-day or set-position parts, or gives no date in 30 years from its DTSTART (checked by
/// our bounded `RuleIterator`) is removed, with a note; the zone keeps its fixed offsets and RDATEs.
enum ZoneRuleGuard {
    /// Removes the unusable rules under `root`; returns one note per rule removed.
    static func sanitize(_ root: OpaquePointer) -> [String] {
        var notes: [String] = []
        let calendars = icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT ? [root] : children(of: root, kind: ICAL_VCALENDAR_COMPONENT)
        for calendar in calendars {
            for zone in children(of: calendar, kind: ICAL_VTIMEZONE_COMPONENT) {
                let tzid = icalcomponent_get_first_property(zone, ICAL_TZID_PROPERTY).flatMap { text(icalproperty_get_tzid($0)) } ?? "?"
                for kind in [ICAL_XSTANDARD_COMPONENT, ICAL_XDAYLIGHT_COMPONENT] {
                    for observance in children(of: zone, kind: kind) {
                        for property in properties(of: observance, kind: ICAL_RRULE_PROPERTY) {
                            guard let value = icalproperty_get_value(property),
                                let ruleText = takeText(icalvalue_as_ical_string_r(value))
                            else { continue }
                            if let reason = problem(ruleText, observance: observance) {
                                icalcomponent_remove_property(observance, property)
                                icalproperty_free(property)
                                notes.append("time zone '\(tzid)': its rule \(ruleText) was ignored (\(reason)); its fixed offsets are used")
                            }
                        }
                    }
                }
            }
        }
        return notes
    }

    /// Why a zone's rule cannot be expanded safely, or nil.
    static func problem(_ ruleText: String, observance: OpaquePointer?) -> String? {
        guard let rule = try? RecurrenceRule(parsing: ruleText) else { return "no FREQ" }
        guard rule.frequency == .yearly else { return "zone rules must be yearly" }
        guard rule.byHour == nil, rule.byMinute == nil, rule.bySecond == nil, rule.bySetPos == nil else {
            return "zone rules change offsets once a year, not at several times"
        }
        var start = WallClock(date: LocalDate(year: 1970, month: 1, day: 1)!, hour: 0, minute: 0)
        if let observance, let property = icalcomponent_get_first_property(observance, ICAL_DTSTART_PROPERTY),
            let wall = icalproperty_get_dtstart(property).wallClock
        {
            start = wall
        }
        var found = false
        let end = start.secondsSince1970AsUTC + 30 * 366 * 86_400
        _ = RuleIterator(rule: rule, start: start, until: nil).run(from: .min, through: end, budget: 200_000) { _ in
            found = true
            return false
        }
        return found ? nil : "it gives no date in 30 years"
    }
}
