import Foundation
import ICalendar
import TrailheadPluginKit

/// What the plugin was opened with, and the calendars it has parsed so far.
final class CalendarSettings: @unchecked Sendable {
    static let shared = CalendarSettings()
    static let defaultCalendar = "Data/sample/calendar.ics"

    private let lock = NSLock()
    private var config = PluginConfig(["calendar": .string(defaultCalendar)])
    let cache = CalendarCache()

    /// Checks the config; a missing or broken calendar file is reported by each call instead,
    /// so that fixing the file needs no restart.
    func open(_ config: PluginConfig) throws {
        guard let calendar = config.content["calendar"] else {
            throw ToolFailure("config needs \"calendar\": the path of the user's .ics file")
        }
        guard calendar.stringValue?.isEmpty == false else {
            throw ToolFailure("config \"calendar\" must be a non-empty path, got \(calendar.jsonString)")
        }
        if let zone = config.content["timeZone"], !zone.isNull {
            guard let name = zone.stringValue, CalendarZone(identifier: name) != nil else {
                throw ToolFailure("config \"timeZone\" \(zone.jsonString) is not a known IANA time zone")
            }
        }
        lock.withLock { self.config = config }
        _ = try? cache.document(at: calendarPath)  // parse ahead of the first call when possible
    }

    /// The user's calendar, made absolute against the installation folder.
    var calendarPath: String {
        lock.withLock { config.path("calendar") ?? Self.defaultCalendar }
    }

    /// A path from tool arguments, resolved the way config paths are.
    func resolve(_ path: String) -> String {
        let home = lock.withLock { config.home }
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/") { return NSHomeDirectory() + path.dropFirst(1) }
        guard let home else { return path }
        return home + "/" + path
    }

    /// The parsed calendar (from the cache unless the file changed) and the zone to read it in.
    func calendar() throws -> (document: CalendarDocument, zone: CalendarZone) {
        let preferred = lock.withLock { config.string("timeZone") }
        do {
            let document = try cache.document(at: calendarPath)
            return (document, try document.zone(preferring: preferred))
        } catch {
            throw ToolFailure(error.message)
        }
    }

    /// The zone new events are written in: as for reading, but a broken calendar file does
    /// not stop the user from writing a separate one.
    func writingZone() throws(CalendarError) -> CalendarZone {
        let preferred = lock.withLock { config.string("timeZone") }
        if let preferred, !preferred.isEmpty {
            guard let zone = CalendarZone(identifier: preferred) else {
                throw CalendarError("unknown time zone '\(preferred)'")
            }
            return zone
        }
        return (try? cache.document(at: calendarPath).zone()) ?? .machine
    }
}
