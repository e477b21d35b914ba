/// Which RRULEs are expanded.
///
/// libical steps a sub-daily rule one second, minute or hour at a time while looking for a
/// matching day, inside a single call that cannot be interrupted: measured here,
/// `FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30` (never matches) takes 16 s and
/// `FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30` did not finish in 2 minutes. So a rule repeating
/// within a day may only filter by time of day (BYHOUR only for MINUTELY and HOURLY); others are
/// not expanded and the series keeps its DTSTART and RDATEs. Calendar programs do not create
/// such rules; daily and longer rules are always expanded.
enum RecurrenceRuleLimits {
    static func isExpandable(_ rule: String) -> Bool {
        var frequency = ""
        var filters: Set<String> = []
        for part in rule.uppercased().split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "FREQ" { frequency = pair[1] } else if pair[0].hasPrefix("BY") { filters.insert(pair[0]) }
        }
        switch frequency {
        case "SECONDLY": return filters.isSubset(of: ["BYSECOND", "BYMINUTE"])
        case "MINUTELY", "HOURLY": return filters.isSubset(of: ["BYSECOND", "BYMINUTE", "BYHOUR"])
        default: return true
        }
    }
}
