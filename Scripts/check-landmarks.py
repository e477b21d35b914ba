#!/usr/bin/env python3
"""Validate Data/landmarks/*.json: JSON, required fields, enums, >= 12 points,
distances from the landmark centre, duplicate names. Prints counts.
Exit status 1 on errors (warnings do not fail)."""
import glob, json, math, os, re, sys
from collections import Counter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Data", "landmarks")
KINDS = {"national park", "city", "reef", "mountain", "canyon", "coast", "lake",
         "region", "island", "waterfall", "desert"}
CATEGORIES = {"hike", "viewpoint", "campground", "lodging", "restaurant", "cafe", "museum",
              "marina", "beach", "stargazing", "landmark", "town", "airport"}
TOP_FIELDS = {"name": str, "aliases": list, "country": str, "kind": str, "latitude": (int, float),
              "longitude": (int, float), "description": str, "pointsOfInterest": list}
POI_FIELDS = {"name": str, "category": str, "latitude": (int, float), "longitude": (int, float),
              "description": str}


def km(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = (math.sin((p2 - p1) / 2) ** 2
         + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lon2 - lon1) / 2) ** 2)
    return 2 * 6371 * math.asin(math.sqrt(h))


def main():
    errors, warnings = [], []
    categories, kinds, landmark_names = Counter(), Counter(), {}
    files = sorted(glob.glob(os.path.join(ROOT, "*.json")))
    for path in files:
        where = os.path.basename(path)
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*\.json", where):
            errors.append(f"{where}: file name is not a kebab-case slug")
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (ValueError, UnicodeDecodeError) as e:
            errors.append(f"{where}: invalid JSON: {e}")
            continue
        for k, t in TOP_FIELDS.items():
            if not isinstance(d.get(k), t):
                errors.append(f"{where}: field '{k}' missing or not {t}")
        if errors and errors[-1].startswith(where + ": field"):
            continue
        if set(d) - set(TOP_FIELDS):
            errors.append(f"{where}: unknown fields {sorted(set(d) - set(TOP_FIELDS))}")
        if d["name"] in landmark_names:
            errors.append(f"{where}: landmark name duplicates {landmark_names[d['name']]}")
        landmark_names[d["name"]] = where
        if not re.fullmatch(r"[A-Z]{2}", d["country"]):
            errors.append(f"{where}: country '{d['country']}' is not ISO 3166-1 alpha-2")
        if d["kind"] not in KINDS:
            errors.append(f"{where}: kind '{d['kind']}' not in enum")
        kinds[d["kind"]] += 1
        if not (-90 <= d["latitude"] <= 90 and -180 <= d["longitude"] <= 180):
            errors.append(f"{where}: centre out of range")
        pois = d["pointsOfInterest"]
        if len(pois) < 12:
            errors.append(f"{where}: only {len(pois)} points of interest (need >= 12)")
        seen = set()
        for i, p in enumerate(pois):
            pw = f"{where}: pointsOfInterest[{i}]"
            bad = [k for k, t in POI_FIELDS.items() if not isinstance(p.get(k), t)]
            if bad:
                errors.append(f"{pw}: fields {bad} missing or wrong type")
                continue
            pw += f" '{p['name']}'"
            if set(p) - set(POI_FIELDS):
                errors.append(f"{pw}: unknown fields {sorted(set(p) - set(POI_FIELDS))}")
            if p["name"] in seen:
                errors.append(f"{pw}: duplicate name")
            seen.add(p["name"])
            if p["category"] not in CATEGORIES:
                errors.append(f"{pw}: category '{p['category']}' not in enum")
            categories[p["category"]] += 1
            if not p["description"].strip():
                errors.append(f"{pw}: empty description")
            dist = km(d["latitude"], d["longitude"], p["latitude"], p["longitude"])
            limit = 150 if p["category"] == "airport" else 60
            if dist > limit:
                warnings.append(f"{pw}: {dist:.0f} km from the centre (limit {limit})")
    for w in warnings:
        print("WARN ", w)
    for e in errors:
        print("ERROR", e)
    total = sum(categories.values())
    print(f"{len(files)} landmarks, {total} points of interest, "
          f"{len(errors)} errors, {len(warnings)} warnings")
    print("kinds:", ", ".join(f"{k} {n}" for k, n in kinds.most_common()))
    print("categories:", ", ".join(f"{k} {n}" for k, n in categories.most_common()))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
