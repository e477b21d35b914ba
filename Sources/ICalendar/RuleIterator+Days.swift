/// Daily and longer rules: period by period (a day, a week, a month, a year), every day of the
/// period that passes the day filters, at every time of day the rule gives.
///
/// A period's occurrences are never built as a list: a year of every second is 31.6 M of them,
/// which took minutes before one unit of the budget was checked. Without BYSETPOS they are
/// produced day by day, one unit each; days before DTSTART or wholly before the window are
/// skipped, or counted at once for a COUNT; the rest of a day its caller does not want is
/// counted, not produced. With BYSETPOS the chosen positions are computed: the period's
/// occurrences are its passing days × the times of day, in that order.
extension RuleIterator {
    func runByDays(skipTo: Int64, state: inout RunState, _ body: (WallClock) -> Next) -> Outcome {
        let times = timesOfDay
        let startDay = start.date.dayNumber
        var period = firstPeriod(skipTo: skipTo)
        let lastDay = Int(floorDivide(state.end, 86_400)) + LocalDate.epochDayNumber
        while true {
            let (days, year, month) = self.days(ofPeriod: period, startDay: startDay)
            guard let first = days.first, first <= lastDay else { return .finished }
            state.budget -= 1 + days.count
            if state.budget < 0 { return .truncated(reached: LocalDate(dayNumber: first)) }
            let numbered = filter.numberedDays(year: year, month: rule.frequency == .monthly ? month : nil)
            let passing = days.filter { filter.passes($0, numbered: numbered) }
            if let positions = rule.bySetPos {
                let chosen = Self.chosen(positions, days: passing, times: times)
                state.budget -= chosen.count
                for seconds in chosen where state.emit(seconds, body) == .stop { return .finished }
            } else {
                for day in passing {
                    switch produce(day, times: times, skipTo: skipTo, state: &state, body) {
                    case .more: continue
                    case .stop: return .finished
                    case .outOfBudget: return .truncated(reached: LocalDate(dayNumber: day))
                    }
                }
            }
            period += 1
        }
    }

    /// The rule's times of day, in seconds, ascending (each list is sorted and has no repeats).
    private var timesOfDay: [Int64] {
        var times: [Int64] = []
        for hour in hours ?? [0] {
            for minute in minutes ?? [0] {
                for second in seconds ?? [0] { times.append(Int64(hour * 3600 + minute * 60 + second)) }
            }
        }
        return times
    }

    private enum DayOutcome { case more, stop, outOfBudget }

    /// One day's occurrences, in order.
    private func produce(
        _ day: Int, times: [Int64], skipTo: Int64, state: inout RunState, _ body: (WallClock) -> Next
    ) -> DayOutcome {
        let midnight = Int64(day - LocalDate.epochDayNumber) * 86_400
        let tomorrow = midnight + 86_400
        let (first, end) = (state.startSeconds, state.end)
        if midnight > end { return .stop }
        // Before DTSTART nothing occurs or counts; before `skipTo` (set only without COUNT) nothing is looked at.
        if tomorrow <= first || tomorrow <= skipTo { return .more }
        if state.remaining != nil, tomorrow <= windowHint, tomorrow <= end {
            state.remaining! -= midnight >= first ? times.count : times.lazy.filter { midnight + $0 >= first }.count
            return state.remaining! > 0 ? .more : .stop
        }
        for index in times.indices {
            state.budget -= 1
            if state.budget < 0 { return .outOfBudget }
            switch state.emit(midnight + times[index], body) {
            case .more: continue
            case .stop: return .stop
            case .nextDay:
                guard state.remaining != nil else { return .more }
                // The rest of the day still counts towards COUNT (what lies after UNTIL never does).
                let rest = times[(index + 1)...]
                state.remaining! -= tomorrow - 1 <= end ? rest.count : rest.lazy.filter { midnight + $0 <= end }.count
                return state.remaining! > 0 ? .more : .stop
            }
        }
        return .more
    }

    /// BYSETPOS: the chosen occurrences of a period whose occurrences are `days` × `times` in
    /// order, ascending and without repeats.
    private static func chosen(_ positions: [Int], days: [Int], times: [Int64]) -> [Int64] {
        let total = days.count * times.count
        let indices = Set(positions.map { $0 > 0 ? $0 - 1 : total + $0 }.filter { (0..<total).contains($0) })
        return indices.sorted().map {
            Int64(days[$0 / times.count] - LocalDate.epochDayNumber) * 86_400 + times[$0 % times.count]
        }
    }

    /// The first period to expand: 0 (DTSTART's), or the one holding `skipTo` for rules without COUNT.
    private func firstPeriod(skipTo: Int64) -> Int {
        guard skipTo > start.secondsSince1970AsUTC else { return 0 }
        let target = LocalDate(dayNumber: Int(floorDivide(skipTo, 86_400)) + LocalDate.epochDayNumber)
        let interval = rule.interval
        switch rule.frequency {
        case .yearly: return max(0, (target.year - start.date.year) / interval)
        case .monthly: return max(0, ((target.year - start.date.year) * 12 + target.month - start.date.month) / interval)
        case .weekly: return max(0, (target.dayNumber - weekStart(of: start.date.dayNumber)) / (7 * interval))
        default: return max(0, (target.dayNumber - start.date.dayNumber) / interval)
        }
    }

    /// The days of period `index`, with its year and month (for numbered weekdays).
    private func days(ofPeriod index: Int, startDay: Int) -> (days: ClosedRange<Int>, year: Int, month: Int) {
        let steps = index * rule.interval
        switch rule.frequency {
        case .yearly:
            let year = start.date.year + steps
            let (first, last) = RuleDayFilter.yearRange(year)
            return (first...last, year, 1)
        case .monthly:
            let months = start.date.month - 1 + steps
            let year = start.date.year + months / 12
            let month = months % 12 + 1
            let (first, last) = RuleDayFilter.monthRange(year: year, month: month)
            return (first...last, year, month)
        case .weekly:
            let first = weekStart(of: startDay) + 7 * steps
            return (first...(first + 6), 0, 0)
        default:
            let day = startDay + steps
            return (day...day, 0, 0)
        }
    }

    private func weekStart(of day: Int) -> Int {
        day - (RuleDayFilter.weekday(day) - rule.weekStart + 7) % 7
    }
}
