#!/usr/bin/env bash
# Debian packages Trailhead builds against or uses. Runs `apt-get update` once, and only when
# something is missing, so a second run costs nothing.
set -euo pipefail
# postgresql-15 and libpq-dev: the session store of `agent serve --store postgresql://…`; the tests
# start clusters of their own with its initdb and pg_ctl.
# libmicrohttpd-dev and libcurl4-openssl-dev: the HTTP server and client.
# chromium and chromium-driver: the browser the web app's tests drive (headless, through selenium).
# haproxy: the load balancer the tests put in front of two `agent serve` replicas; iproute2: the
# network namespace a test cuts a worker off the database in.
packages=(libffi-dev libsqlite3-dev libical-dev pkg-config osmium-tool python3-venv postgresql-15 libpq-dev libmicrohttpd-dev libcurl4-openssl-dev chromium chromium-driver haproxy iproute2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "[setup] installing ${missing[*]}" >&2
sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
