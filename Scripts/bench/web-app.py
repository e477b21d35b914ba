#!/usr/bin/env python3
"""The web app and the planner's words on the embedded model, beside `agent plan`.

    Scripts/bench/web-app.py [--agent .build/debug/agent] [--runs 3] [--skip-browser] [--skip-words]

Starts `agent serve` (the default, embedded model; a session store in a temporary folder), then:
1. Ten requests in words through the official `openai` client (model "trip-planner"): prints the
   typed request each became (`trailhead.request`), the plan's title and places or the question
   asked back, and the wall time.
2. The plan page in headless chromium (selenium), RUNS times Joshua Tree for 2 days: the time from
   Generate to the first activity on screen and to the finished plan, as the page measures them
   (its status line), beside `agent plan` for the same trip in the same run, and the model's
   speed from the server's own timings.
Needs `make setup` (the Python venv with openai and selenium, chromium and chromium-driver).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

WORDS = [
    "Plan a 2-day trip to Joshua Tree",
    "Three days in Yosmite in late December",
    "A weekend at Zion National Park with Ana",
    "I want to see Kyoto for 2 days between December 20 and December 30",
    "Take me to the Grand Canyon, one day, with Ben",
    "Plan a 2-day getaway with my sister",
    "Death Valley, 2 days, from 2026-12-19 to 2026-12-31",
    "One day at Joshua Tree on 2026-12-05",
    "4 days in Yellowstone with Ana and Ben",
    "Somewhere with beaches for three days",
]

LANDMARK = "Joshua Tree National Park"
DAYS = 2
WINDOW = ("2026-12-19", "2026-12-31")


def start_server(agent, folder):
    log = open(os.path.join(folder, "serve.log"), "w+")
    server = subprocess.Popen([agent, "serve", "--port", "0", "--store", os.path.join(folder, "sessions")], cwd=ROOT,
                              stdout=log, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        log.seek(0)
        found = re.search(r"127\.0\.0\.1:(\d+)", log.read())
        if found:
            base = "http://127.0.0.1:%s" % found.group(1)
            try:
                urllib.request.urlopen(base + "/health", timeout=2).read()
                return server, base
            except OSError:
                pass
        if server.poll() is not None:
            log.seek(0)
            sys.exit("agent serve exited:\n" + log.read())
        time.sleep(0.5)
    sys.exit("agent serve did not start within 600 s")


def words(base):
    from openai import OpenAI
    client = OpenAI(base_url=base + "/v1", api_key="unused")
    print("| words | request | answer | s |")
    print("|---|---|---|---:|")
    for sentence in WORDS:
        started = time.monotonic()
        try:
            response = client.chat.completions.create(model="trip-planner", messages=[{"role": "user", "content": sentence}])
            extra = response.model_extra or {}
            request = (extra.get("trailhead") or {}).get("request")
            content = response.choices[0].message.content or ""
            try:
                plan = json.loads(content)
                places = [a.get("place") for d in plan.get("days", []) for a in d.get("activities", [])]
                answer = "plan \"%s\": %s" % (plan.get("title"), ", ".join(p for p in places if p))
            except (ValueError, AttributeError):
                answer = content.replace("\n", " ")
        except Exception as error:  # an HTTP error is a row too
            request, answer = None, "error: %s" % error
        seconds = time.monotonic() - started
        print("| %s | %s | %s | %.1f |" % (sentence, json.dumps(request, ensure_ascii=False) if request else "-", answer[:300], seconds), flush=True)


def browser_runs(base, runs, folder):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    results = []
    try:
        for run in range(runs):
            driver.get(base + "/")
            deadline = time.monotonic() + 60
            while not driver.find_elements(By.ID, "generate") and time.monotonic() < deadline:
                time.sleep(0.1)
            driver.execute_script(
                "document.getElementById('landmark').value = arguments[0]; document.getElementById('days').value = arguments[1];"
                "document.getElementById('from').value = arguments[2]; document.getElementById('to').value = arguments[3];",
                LANDMARK, str(DAYS), WINDOW[0], WINDOW[1])
            clicked = time.monotonic()
            driver.find_element(By.ID, "generate").click()
            deadline = time.monotonic() + 600
            state = None
            while time.monotonic() < deadline:
                state = driver.find_element(By.ID, "plan").get_attribute("data-state")
                if state in ("finished", "failed", "question"):
                    break
                time.sleep(0.05)
            wall = time.monotonic() - clicked
            status = driver.find_element(By.ID, "status").text
            timings = driver.execute_script("return window.trailhead.timings") or {}
            driver.save_screenshot(os.path.join(folder, "plan-%d.png" % (run + 1)))
            results.append((state, status, wall))
            print("browser run %d: %s, %.1f s by the clock; the page: %s; its own drawing: %.0f ms in %d renders (slowest %.1f ms)" % (
                run + 1, state, wall, status, timings.get("renderMs", 0), timings.get("renders", 0), timings.get("slowestRenderMs", 0)), flush=True)
    finally:
        driver.quit()
    return results


def plan_runs(agent, runs):
    results = []
    for run in range(runs):
        started = time.monotonic()
        done = subprocess.run([agent, "plan", LANDMARK, "--days", str(DAYS), "--from", WINDOW[0], "--to", WINDOW[1], "--format", "json"],
                              cwd=ROOT, capture_output=True, text=True, timeout=900)
        wall = time.monotonic() - started
        results.append((done.returncode, wall))
        print("agent plan run %d: exit %d in %.1f s" % (run + 1, done.returncode, wall), flush=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default=os.path.join(ROOT, ".build/debug/agent"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--skip-words", action="store_true")
    arguments = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="trailhead-web-bench-")
    server, base = start_server(arguments.agent, folder)
    try:
        if not arguments.skip_words:
            words(base)
        if not arguments.skip_browser:
            browser_runs(base, arguments.runs, folder)
            plan_runs(arguments.agent, arguments.runs)
        speed = subprocess.run([arguments.agent, "model", "check"], cwd=ROOT, capture_output=True, text=True)
        print("model speed (agent model check): " + (speed.stdout.strip() or speed.stderr.strip()).replace("\n", "; "))
        print("screenshots and the server's log in " + folder)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
