import TrailheadPluginKit
import TrailheadSchema

/// The calendar plugin: reads the user's RFC 5545 calendar through libical (see the ICalendar
/// module) and answers which days are free, what is on, and adds events to a separate file.
///
/// Config: `{"calendar": <path to .ics>, "timeZone": <IANA name, optional>}`. Relative paths
/// are relative to the installation folder (`$home`). Without `timeZone` the calendar's
/// X-WR-TIMEZONE is used, else the machine's zone.
@_cdecl("trailhead_plugin_v1")
public func trailheadPluginV1() -> UnsafeRawPointer {
    let settings = CalendarSettings.shared
    return Plugin(
        name: "calendar", version: "1.0.0",
        tools: [
            CalendarFreeDaysTool(settings: settings),
            CalendarEventsTool(settings: settings),
            CalendarAddEventsTool(settings: settings),
        ],
        config: ["calendar": .string(CalendarSettings.defaultCalendar)],
        // calendarAddEvents writes its separate .ics files (the examples put them in the temporary folder).
        permissions: ["read": [.string(CalendarSettings.defaultCalendar)], "write": ["$TMPDIR"], "network": false],
        open: { config in try settings.open(config) }
    ).export()
}
