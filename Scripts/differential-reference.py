#!/usr/bin/env python3
"""The reference side of the differential test (Tests/ICalendarTests/DifferentialTests.swift and
Tests/VCardTests/DifferentialTests.swift): reads files with python's icalendar +
recurring-ical-events and vobject, and prints one JSON object per line.

    differential-reference.py ics FILE...   -> {"file", "zone", "windows": [{"start", "busy": [days]}]} or {"file", "error"}
    differential-reference.py vcf FILE...   -> {"file", "contacts": [{"name", "emails", "city"}]} or {"file", "error"}

Calendars are read in their X-WR-TIMEZONE when it names a known zone, else Europe/Berlin; each is
checked over 42-day windows starting on its first two distinct event start days. A day is busy
when an event that is not cancelled and not transparent occupies any part of it (an event ending
at midnight does not occupy the next day; an instant occupies its own day).
"""
import datetime as dt
import json
import sys
import zoneinfo

WINDOW_DAYS = 42
DEFAULT_ZONE = "Europe/Berlin"


def ics(path):
    import icalendar
    import recurring_ical_events
    with open(path, "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    zone_name = DEFAULT_ZONE
    declared = calendar.get("X-WR-TIMEZONE")
    if declared:
        try:
            zoneinfo.ZoneInfo(str(declared).strip())
            zone_name = str(declared).strip()
        except Exception:
            pass
    zone = zoneinfo.ZoneInfo(zone_name)
    starts = set()
    for event in calendar.walk("VEVENT"):
        start = event.get("DTSTART")
        if start is None:
            continue
        value = start.dt
        if isinstance(value, dt.datetime):
            value = (value.astimezone(zone) if value.tzinfo else value).date()
        starts.add(value)
    windows = []
    for first in sorted(starts)[:2]:
        last = first + dt.timedelta(days=WINDOW_DAYS - 1)
        busy = set()
        query = recurring_ical_events.of(calendar)
        for event in query.between(first - dt.timedelta(days=2), last + dt.timedelta(days=3)):
            if str(event.get("STATUS", "")).upper() == "CANCELLED":
                continue
            if str(event.get("TRANSP", "")).upper() in ("TRANSPARENT", "TRANSPARENT-NOCONFLICT"):
                continue
            for day in occupied_days(event, zone):
                if first <= day <= last:
                    busy.add(day)
        windows.append({"start": first.isoformat(), "busy": sorted(d.isoformat() for d in busy)})
    return {"zone": zone_name, "windows": windows}


def occupied_days(event, zone):
    start = event["DTSTART"].dt
    end = event["DTEND"].dt if "DTEND" in event else None
    if end is None and "DURATION" in event:
        end = start + event["DURATION"].dt
    if not isinstance(start, dt.datetime):
        if isinstance(end, dt.datetime):
            end = end.date()
        days = max(1, ((end or start + dt.timedelta(days=1)) - start).days)
        return [start + dt.timedelta(days=i) for i in range(days)]
    if end is None or not isinstance(end, dt.datetime):
        end = start
    start = start.astimezone(zone) if start.tzinfo else start
    end = end.astimezone(zone) if end.tzinfo else end
    if end < start:
        end = start
    last = end.date()
    if end > start and end.time() == dt.time(0, 0):
        last -= dt.timedelta(days=1)
    last = max(last, start.date())
    return [start.date() + dt.timedelta(days=i) for i in range((last - start.date()).days + 1)]


def vcf(path):
    import vobject
    with open(path, "rb") as handle:
        data = handle.read()
    text = data.decode("utf-8", errors="replace")
    contacts = []
    for card in vobject.readComponents(text, ignoreUnreadable=True):
        if card.name != "VCARD":
            continue
        name = str(card.fn.value).strip() if hasattr(card, "fn") else ""
        emails = [str(e.value).strip() for e in card.contents.get("email", []) if str(e.value).strip()]
        city = ""
        addresses = card.contents.get("adr", [])
        home = [a for a in addresses if "HOME" in [t.upper() for t in a.params.get("TYPE", [])]]
        for address in home + addresses:
            locality = getattr(address.value, "city", "")
            if isinstance(locality, list):
                locality = " ".join(locality)
            if str(locality).strip():
                city = str(locality).strip()
                break
        contacts.append({"name": name, "emails": emails, "city": city})
    return {"contacts": contacts}


def main():
    kind, files = sys.argv[1], sys.argv[2:]
    reader = ics if kind == "ics" else vcf
    for path in files:
        try:
            result = reader(path)
        except Exception as error:  # every failure is a refusal, named
            result = {"error": f"{type(error).__name__}: {error}"[:300]}
        result["file"] = path
        print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
