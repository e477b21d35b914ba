/// Expands a `RecurrenceRule` from DTSTART in wall-clock time (RFC 5545 §3.3.10; the
/// expand/limit table is applied the way python-dateutil does: defaults taken from DTSTART,
/// every BY part a filter on the period's days and times), bounded by a budget of work.
///
/// Cost is counted, not assumed: every period visited, day tested and time produced spends one
/// unit. Periods jump over days, hours and minutes a filter rules out, so a sub-daily rule that
/// never matches costs a few units per day, not one per second; without COUNT the iterator
/// starts at the period around the window instead of at DTSTART. When the budget runs out the
/// expansion stops and says where (`truncated`), so a caller can report it: never silent.
struct RuleIterator {
    enum Outcome: Equatable {
        case finished
        /// The budget ran out; occurrences up to this day were produced.
        case truncated(reached: LocalDate)
    }

    let rule: RecurrenceRule
    /// DTSTART's wall clock (midnight for a DATE).
    let start: WallClock
    /// The last wall-clock second an occurrence may start at (UNTIL resolved), if any.
    let until: Int64?

    // Internal, not private: RuleIterator+Days.swift reads them.
    let filter: RuleDayFilter
    let hours: [Int]?
    let minutes: [Int]?
    let seconds: [Int]?

    init(rule: RecurrenceRule, start: WallClock, until: Int64?) {
        var rule = rule
        // python-dateutil's defaults: without day-level parts, DTSTART gives them.
        if rule.byWeekNo == nil, rule.byYearDay == nil, rule.byMonthDay == nil, rule.byDay == nil {
            switch rule.frequency {
            case .yearly:
                if rule.byMonth == nil { rule.byMonth = [start.date.month] }
                rule.byMonthDay = [start.date.day]
            case .monthly: rule.byMonthDay = [start.date.day]
            case .weekly: rule.byDay = [.init(weekday: RuleDayFilter.weekday(start.date.dayNumber), ordinal: nil)]
            default: break
            }
        }
        self.rule = rule
        self.start = start
        self.until = until
        filter = RuleDayFilter(rule: rule)
        hours = rule.byHour ?? (rule.frequency >= .daily ? [start.hour] : nil)
        minutes = rule.byMinute ?? (rule.frequency >= .hourly ? [start.minute] : nil)
        seconds = rule.bySecond ?? (rule.frequency >= .minutely ? [start.second] : nil)
    }

    /// What the caller wants after an occurrence.
    enum Next {
        case more
        case stop
        /// Nothing more of this day is wanted (a day's listing is full); COUNT still counts them.
        case nextDay
    }

    /// Calls `body` with each occurrence in order, from the period holding `from` when the rule
    /// has no COUNT (else from DTSTART), until `end` (wall seconds).
    func run(from: Int64, through end: Int64, budget: Int, _ body: (WallClock) -> Bool) -> Outcome {
        run(from: from, through: end, budget: budget) { body($0) ? .more : .stop }
    }

    func run(from: Int64, through end: Int64, budget: Int, _ body: (WallClock) -> Next) -> Outcome {
        var state = RunState(budget: budget, remaining: rule.count, startSeconds: start.secondsSince1970AsUTC, end: min(end, until ?? .max))
        let skipTo = rule.count == nil ? from : Int64.min
        return rule.frequency >= .daily
            ? runByDays(skipTo: skipTo, state: &state, body)
            : runByTimes(skipTo: skipTo, state: &state, body)
    }

    struct RunState {
        var budget: Int
        var remaining: Int?
        let startSeconds: Int64
        let end: Int64

        /// Emits one candidate.
        mutating func emit(_ seconds: Int64, _ body: (WallClock) -> Next) -> Next {
            guard seconds >= startSeconds else { return .more }
            guard seconds <= end else { return .stop }
            if let left = remaining {
                guard left > 0 else { return .stop }
                remaining = left - 1
            }
            return body(WallClock(secondsSince1970AsUTC: seconds))
        }
    }

    /// BYSETPOS over one period's sorted candidates.
    private func selected(_ candidates: [Int64]) -> [Int64] {
        guard let positions = rule.bySetPos else { return candidates }
        let sorted = candidates.sorted()
        var chosen = Set<Int64>()
        for position in positions {
            let index = position > 0 ? position - 1 : sorted.count + position
            if sorted.indices.contains(index) { chosen.insert(sorted[index]) }
        }
        return chosen.sorted()
    }

    // MARK: - Hourly and finer: a lattice of instants

    private func runByTimes(skipTo: Int64, state: inout RunState, _ body: (WallClock) -> Next) -> Outcome {
        let unit: Int64 = rule.frequency == .hourly ? 3600 : rule.frequency == .minutely ? 60 : 1
        let step = unit * Int64(rule.interval)
        let base = state.startSeconds - floorModulo(state.startSeconds, unit)
        /// The first lattice point at or after `seconds`.
        func lattice(atOrAfter seconds: Int64) -> Int64 {
            seconds <= base ? base : base + ceilDivide(seconds - base, step) * step
        }
        var current = lattice(atOrAfter: skipTo)
        var numberedYear = Int.min
        var numbered = Set<Int>()
        while current <= state.end {
            state.budget -= 1
            let day = Int(floorDivide(current, 86_400)) + LocalDate.epochDayNumber
            if state.budget < 0 { return .truncated(reached: LocalDate(dayNumber: day)) }
            let date = LocalDate(dayNumber: day)
            if numberedYear != date.year { numberedYear = date.year; numbered = filter.numberedDays(year: date.year, month: nil) }
            let midnight = Int64(day - LocalDate.epochDayNumber) * 86_400
            guard filter.passes(day, numbered: numbered) else {
                current = lattice(atOrAfter: midnight + 86_400)
                continue
            }
            let secondOfDay = current - midnight
            let (hour, minute, second) = (Int(secondOfDay / 3600), Int(secondOfDay % 3600 / 60), Int(secondOfDay % 60))
            if let count = countWholeDay(from: current, midnight: midnight, step: step, state: state) {
                // A day entirely before the window, every lattice point a match: counted at once.
                state.remaining! -= count
                if state.remaining! <= 0 { return .finished }
                current = lattice(atOrAfter: midnight + 86_400)
                continue
            }
            if let hours, !hours.contains(hour) {
                current = lattice(atOrAfter: midnight + Int64(hour + 1) * 3600)
                continue
            }
            if rule.frequency <= .minutely, let minutes = rule.byMinute, !minutes.contains(minute) {
                current = lattice(atOrAfter: midnight + Int64(hour * 3600 + (minute + 1) * 60))
                continue
            }
            if rule.frequency == .secondly, let seconds = rule.bySecond, !seconds.contains(second) {
                current += step
                continue
            }
            var candidates: [Int64] = [current]
            if rule.frequency == .hourly {
                let hourStart = midnight + Int64(hour) * 3600
                candidates = []
                for m in minutes ?? [minute] {
                    for s in seconds ?? [second] { candidates.append(hourStart + Int64(m * 60 + s)) }
                }
            } else if rule.frequency == .minutely {
                let minuteStart = midnight + Int64(hour * 3600 + minute * 60)
                candidates = (seconds ?? [second]).map { minuteStart + Int64($0) }
            }
            state.budget -= candidates.count
            var next = Next.more
            for seconds in selected(candidates) {
                next = state.emit(seconds, body)
                if next != .more { break }
            }
            if next == .stop { return .finished }
            if next == .nextDay {
                let tomorrow = midnight + 86_400
                if state.remaining == nil {
                    current = lattice(atOrAfter: tomorrow)
                    continue
                }
                if let count = countRestOfDay(after: current, until: tomorrow, step: step) {
                    state.remaining! -= count
                    if state.remaining! <= 0 { return .finished }
                    current = lattice(atOrAfter: tomorrow)
                    continue
                }
            }
            current += step
        }
        return .finished
    }

    /// For a COUNT rule, a day (that passed the day filters) entirely before the window: how many
    /// occurrences it holds from `current` on, counted without stepping. Nil when it cannot be.
    private func countWholeDay(from current: Int64, midnight: Int64, step: Int64, state: RunState) -> Int? {
        guard state.remaining != nil, current > state.startSeconds, midnight + 86_400 <= state.end,
            midnight + 86_400 < windowHint
        else { return nil }
        return countRestOfDay(after: current - 1, until: midnight + 86_400, step: step)
    }

    /// Occurrences strictly after `after` and before `until` (both in one day), counted by
    /// lattice arithmetic, hour by hour when BYHOUR filters; nil when a finer filter or BYSETPOS
    /// makes that impossible without stepping.
    private func countRestOfDay(after: Int64, until: Int64, step: Int64) -> Int? {
        guard rule.bySetPos == nil else { return nil }
        switch rule.frequency {
        case .hourly: break
        case .minutely: guard rule.byMinute == nil else { return nil }
        default: guard rule.byMinute == nil, rule.bySecond == nil else { return nil }
        }
        let base = start.secondsSince1970AsUTC - floorModulo(start.secondsSince1970AsUTC, unitSeconds)
        /// Lattice points in [low, high).
        func points(_ low: Int64, _ high: Int64) -> Int {
            guard high > low else { return 0 }
            let first = low <= base ? base : base + ceilDivide(low - base, step) * step
            return first >= high ? 0 : Int((high - 1 - first) / step) + 1
        }
        let midnight = until - 86_400
        var total = 0
        if let hours = rule.byHour {
            for hour in hours {
                let low = max(after + 1, midnight + Int64(hour) * 3600)
                total += points(low, min(until, midnight + Int64(hour + 1) * 3600))
            }
        } else {
            total = points(after + 1, until)
        }
        let perPoint = rule.frequency == .hourly ? (minutes?.count ?? 1) * (seconds?.count ?? 1)
            : rule.frequency == .minutely ? (seconds?.count ?? 1) : 1
        return total * perPoint
    }

    private var unitSeconds: Int64 { rule.frequency == .hourly ? 3600 : rule.frequency == .minutely ? 60 : 1 }

    /// Days before this are only counted, never emitted; set by `counting(before:)`.
    var windowHint: Int64 = .min

    /// The same iterator, told that nothing before `seconds` will be looked at, so whole days
    /// before it may be counted instead of stepped through.
    func counting(before seconds: Int64) -> RuleIterator {
        var copy = self
        copy.windowHint = seconds
        return copy
    }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
func floorModulo(_ a: Int64, _ b: Int64) -> Int64 { a - floorDivide(a, b) * b }
func ceilDivide(_ a: Int64, _ b: Int64) -> Int64 { -floorDivide(-a, b) }
