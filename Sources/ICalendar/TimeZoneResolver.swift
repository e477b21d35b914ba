import CICal
import Foundation

/// Finds the zone a TZID names: the calendar's own VTIMEZONE first (RFC 5545 says it defines
/// the name), then libical's builtin zones from the system zoneinfo — also under prefixed names
/// like `/freeassociation.sourceforge.net/Europe/Berlin` or `/mozilla.org/20050126_1/Europe/Berlin`.
/// Windows zone names map to IANA zones through CLDR's windowsZones table.
/// A name nobody knows reads as floating time (the calendar's own zone), not as an error.
final class TimeZoneResolver {
    private var cache: [String: ICalZone?] = [:]

    /// The zone for a TZID seen inside `component` (its VCALENDAR holds the VTIMEZONEs).
    func zone(named tzid: String, near component: OpaquePointer?) -> ICalZone? {
        if let known = cache[tzid] { return known }
        let found = fromCalendar(tzid, near: component) ?? TimeZoneResolver.builtin(tzid)
        cache[tzid] = found
        return found
    }

    private func fromCalendar(_ tzid: String, near component: OpaquePointer?) -> ICalZone? {
        var current = component
        while let node = current {
            if icalcomponent_isa(node) == ICAL_VCALENDAR_COMPONENT,
                let zone = icalcomponent_get_timezone(node, tzid)
            {
                return ICalZone(pointer: zone)
            }
            current = icalcomponent_get_parent(node)
        }
        return nil
    }

    /// A builtin zone for an IANA name, a libical-prefixed name, or a UTC alias.
    static func builtin(_ tzid: String) -> ICalZone? {
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        if ["UTC", "GMT", "Z", "Etc/UTC", "Etc/GMT", "Universal", "Zulu"].contains(trimmed) {
            return ICalZone(pointer: icaltimezone_get_utc_timezone())
        }
        if let zone = icaltimezone_get_builtin_timezone_from_tzid(trimmed) { return ICalZone(pointer: zone) }
        if let zone = icaltimezone_get_builtin_timezone(trimmed) { return ICalZone(pointer: zone) }
        // Prefixed names: try the trailing "Area/Location" and "Area/Sub/Location".
        let parts = trimmed.split(separator: "/").map(String.init)
        for count in [3, 2] where parts.count > count {
            let location = parts.suffix(count).joined(separator: "/")
            if let zone = icaltimezone_get_builtin_timezone(location) { return ICalZone(pointer: zone) }
        }
        // Outlook's Windows names ("Pacific Standard Time") through CLDR's table.
        if let iana = WindowsZones.iana[trimmed], let zone = icaltimezone_get_builtin_timezone(iana) {
            return ICalZone(pointer: zone)
        }
        return nil
    }
}
