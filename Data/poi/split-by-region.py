#!/usr/bin/env python3
"""Split the Wikipedia places file into one gzip file per region, each well under 5 MB.

    split-by-region.py ../shared/data/poi/enwiki-geotagged-20250220.geojsonseq.gz Data/poi

Lines are copied unchanged and in their order; only which file a line goes to is decided here
(see README.md beside this script for the regions). The gzip files carry no name or time, so the
same input always gives the same bytes (the index build hashes them).
"""
import gzip
import json
import os
import sys


def region(longitude, latitude):
    """A rough continent by longitude and latitude boxes (the rule is in README.md)."""
    if longitude < -30:
        return "americas-north" if latitude >= 15 else "americas-south"
    if longitude < 60:
        return "europe" if latitude >= 35 else "africa-middle-east"
    if (latitude < -10 and longitude >= 110) or (longitude >= 160 and latitude < 30):
        return "oceania"
    return "asia"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: split-by-region.py INPUT.geojsonseq.gz OUTDIR")
    source, outdir = sys.argv[1:]
    lines = {}
    with gzip.open(source, "rb") as rows:
        for line in rows:
            longitude, latitude = json.loads(line)["geometry"]["coordinates"]
            lines.setdefault(region(longitude, latitude), []).append(line)
    for name, chunk in sorted(lines.items()):
        path = os.path.join(outdir, f"enwiki-{name}.geojsonseq.gz")
        with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as out:
            out.writelines(chunk)
        print(f"{path}: {len(chunk)} places, {os.path.getsize(path)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
