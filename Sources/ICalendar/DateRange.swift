/// An inclusive range of days, as the calendar tools take it: start <= end, at most 366 days.
public struct DateRange: Sendable, Hashable {
    public let start: LocalDate
    public let end: LocalDate

    /// A year, leap or not.
    public static let maximumDays = 366

    public init(start: LocalDate, end: LocalDate) throws(CalendarError) {
        guard start <= end else {
            throw CalendarError("the range is reversed: start \(start) is after end \(end); give start <= end")
        }
        let count = start.days(to: end) + 1
        guard count <= Self.maximumDays else {
            throw CalendarError(
                "the range \(start) to \(end) covers \(count) days; at most \(Self.maximumDays) are allowed, ask in smaller ranges")
        }
        self.start = start
        self.end = end
    }

    /// From the tools' text arguments, `YYYY-MM-DD` each.
    public init(start: String, end: String) throws(CalendarError) {
        guard let first = LocalDate(iso: start) else {
            throw CalendarError("start '\(start)' is not a date of the form YYYY-MM-DD")
        }
        guard let last = LocalDate(iso: end) else {
            throw CalendarError("end '\(end)' is not a date of the form YYYY-MM-DD")
        }
        try self.init(start: first, end: last)
    }

    public var dayCount: Int { start.days(to: end) + 1 }

    public var days: [LocalDate] { (0..<dayCount).map { start.adding(days: $0) } }

    public func contains(_ day: LocalDate) -> Bool { start <= day && day <= end }
}
