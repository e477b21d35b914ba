/// How long each occurrence lasts: whole days for all-day events, exact seconds otherwise.
enum EventLength: Hashable {
    case days(Int)
    case seconds(Int64)
}

/// An extra occurrence from RDATE, possibly a PERIOD with its own length.
struct RecurrenceDate {
    var start: CalendarTime
    var length: EventLength?
}

/// One VEVENT as read from the file: a single event, a recurring series (RRULE/RDATE/EXDATE),
/// or an override of one occurrence of a series (RECURRENCE-ID).
struct EventSeries {
    var uid: String
    var summary: String
    var location: String?
    var start: CalendarTime
    var length: EventLength
    /// RRULE values as text; parsed again for each expansion (libical's rule struct points into
    /// the component that held it).
    var rules: [String] = []
    var extraDates: [RecurrenceDate] = []
    var exceptions: [CalendarTime] = []
    /// Set on an override: the occurrence of the series (same UID) that this one replaces.
    var recurrenceID: CalendarTime?
    /// `RECURRENCE-ID;RANGE=THISANDFUTURE`: the override also changes every later occurrence.
    var isThisAndFuture = false
    /// SEQUENCE: of two versions of one event (same UID and RECURRENCE-ID), the higher wins.
    var sequence = 0
    /// STATUS:CANCELLED — never shown, never busy.
    var isCancelled = false
    /// TRANSP:TRANSPARENT — shown, but leaves the time free.
    var isTransparent = false

    var isRecurring: Bool { !rules.isEmpty || !extraDates.isEmpty }
}
