import CICal
import Foundation

/// libical keeps global state (the builtin time zone cache, a component's iteration cursor,
/// the error number): every use goes through this one lock.
enum Libical {
    private static let lock = NSLock()
    private static let configured: Bool = {
        // A library built with fatal errors would abort the process on a malformed value.
        icalerror_set_errors_are_fatal(0)
        // Builtin zones come from the system's zoneinfo; point libical at it when it has no
        // directory of its own.
        if icaltzutil_get_zone_directory() == nil, FileManager.default.fileExists(atPath: "/usr/share/zoneinfo") {
            set_zone_directory("/usr/share/zoneinfo")
        }
        return true
    }()

    static func locked<T>(_ body: () throws(CalendarError) -> T) throws(CalendarError) -> T {
        lock.lock()
        defer { lock.unlock() }
        _ = configured
        return try body()
    }

    /// The library's current error text, or nil when it says there was none.
    static var errorText: String? {
        let number = trailhead_icalerrno()
        guard number != ICAL_NO_ERROR else { return nil }
        return icalerror_strerror(number).map { String(cString: $0) }
    }
}

/// A libical time zone owned by libical (builtin zones) or by a parsed calendar (VTIMEZONE).
struct ICalZone: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

extension icaltimetype {
    var isNullOrInvalid: Bool { year <= 0 || month < 1 || month > 12 || day < 1 }

    var localDate: LocalDate? { LocalDate(year: Int(year), month: Int(month), day: Int(day)) }

    var wallClock: WallClock? {
        guard let date = localDate, (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return WallClock(date: date, hour: Int(hour), minute: Int(minute), second: Int(min(second, 59)))
    }
}

/// Reads a C string libical owns, nil for NULL or empty.
func text(_ pointer: UnsafePointer<CChar>?) -> String? {
    guard let pointer, pointer.pointee != 0 else { return nil }
    return String(cString: pointer)
}

/// Takes over a C string libical allocated for us (`_r` functions) and frees it.
func takeText(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
}
