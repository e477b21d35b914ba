"""Drives the web app in headless chromium (selenium) against `agent serve` with a scripted model.

Usage: plan_page.py CONFIG.json — CONFIG names the servers (`plan`: the trip planner's script,
held half-way until the file `resume` exists; `words`: a script that reads words with no place;
`playground`: a script that calls a tool), the `output` folder for screenshots, and the places
the plan must show in order. Prints one line per check; exits 1 with the reason on the first
failure. Written for WebAppBrowserTests.swift.
"""
import json
import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.action_chains import ActionChains

config = json.load(open(sys.argv[1]))
# What the plan shows, read at one instant.
SNAPSHOT = """
const plan = document.getElementById('plan');
return {
  state: plan.dataset.state,
  title: document.getElementById('trip-title').textContent,
  headings: [...document.querySelectorAll('#itinerary-days h3')].map(h => h.textContent),
  places: [...document.querySelectorAll('#itinerary-days .activity:not(.pending)')].map(a => a.dataset.place),
  abouts: [...document.querySelectorAll('#itinerary-days .activity:not(.pending)')].map(a => (a.querySelector('.about') || {}).textContent || ''),
};
"""
output = config["output"]
shots = []


def check(condition, message):
    if not condition:
        print("FAILED: " + message, flush=True)
        raise SystemExit(1)
    print("ok: " + message, flush=True)


def wait(driver, condition, what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition(driver)
            if value:
                return value
        except Exception:  # the page is still changing under us
            pass
        time.sleep(0.05)
    body = driver.find_element(By.TAG_NAME, "body").text[:2000]
    check(False, f"timed out waiting for {what}; the page says:\n{body}")


def screenshot(driver, name, width, height):
    driver.set_window_size(width, height)
    time.sleep(0.2)
    path = os.path.join(output, name)
    # The whole page, not only the window: as tall as its content.
    full = driver.execute_script("return Math.max(document.body.scrollHeight, document.documentElement.scrollHeight)")
    driver.set_window_size(width, min(max(height, full + 100), 6000))
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.1)
    driver.save_screenshot(path)
    driver.set_window_size(width, height)
    shots.append(path)
    print("screenshot: " + path, flush=True)


options = Options()
options.binary_location = config["chromium"]
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--no-first-run", "--disable-extensions", "--proxy-server=direct://", "--proxy-bypass-list=*"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service(config["chromedriver"]), options=options)
try:
    # 1. The plan page: the gallery, a landmark picked, Generate.
    driver.get(config["plan"])
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery button.landmark")) > 10, "the landmarks gallery")
    gallery = driver.find_elements(By.CSS_SELECTOR, "#gallery button.landmark")
    check(len(gallery) >= 40, f"the gallery shows the curated landmarks ({len(gallery)})")
    landmark = config["landmark"]
    button = driver.find_element(By.CSS_SELECTOR, f'#gallery button[data-name="{landmark}"]')
    driver.execute_script("arguments[0].scrollIntoView()", button)
    button.click()
    check(driver.find_element(By.ID, "landmark").get_attribute("value") == landmark, "picking a landmark fills the form")
    check(button.get_attribute("aria-pressed") == "true", "the picked landmark is marked pressed")
    days = driver.find_element(By.ID, "days")
    days.clear()
    days.send_keys(str(config["days"]))
    driver.execute_script("document.getElementById('from').value = arguments[0]; document.getElementById('to').value = arguments[1]",
                          config["from"], config["to"])
    driver.find_element(By.ID, "generate").click()

    # 2. Mid-stream: the model is held half-way through its answer.
    # Read in one script: the list is redrawn with each snapshot.
    def midway(d):
        seen = d.execute_script(SNAPSHOT)
        return seen if len(seen["places"]) >= config["heldActivities"] else None
    seen = wait(driver, midway, "the first activities while the plan streams")
    check(seen["state"] == "streaming", f"activities are on screen before the plan is finished (state {seen['state']}, {len(seen['places'])} activities)")
    headings = seen["headings"]
    check(len(headings) >= 1 and all(h.startswith(f"Day {i + 1}") for i, h in enumerate(headings)), f"each day is a heading 'Day N' ({headings})")
    places_so_far = seen["places"]
    check(places_so_far == config["places"][:len(places_so_far)], f"the places so far are the plan's first ({places_so_far})")
    check(not driver.find_element(By.ID, "downloads").is_displayed(), "no downloads before the plan is finished")
    screenshot(driver, "plan-desktop-streaming.png", 1280, 900)
    screenshot(driver, "plan-phone-streaming.png", 390, 844)
    driver.set_window_size(1280, 900)
    open(config["resume"], "w").close()

    # 3. The finished plan.
    wait(driver, lambda d: d.find_element(By.ID, "plan").get_attribute("data-state") == "finished", "the finished plan")
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#timeline li")) > 0, "the profile timeline")
    seen = driver.execute_script(SNAPSHOT)
    headings = seen["headings"]
    check(len(headings) == config["days"] and all(h.startswith(f"Day {i + 1}") for i, h in enumerate(headings)),
          f"the finished plan has {config['days']} days headed 'Day N' ({headings})")
    places = seen["places"]
    check(places == config["places"], f"the plan lists the scripted places in order ({places})")
    abouts = seen["abouts"]
    check(len(abouts) == len(places) and all(abouts), f"each place has the tool's description ({len(abouts)} of {len(places)})")
    check(seen["title"] == config["title"], f"the title is the plan's ({seen['title']!r})")

    # The map: an image named as a map; its numbered markers are the plan's places, titled.
    svg = driver.find_element(By.CSS_SELECTOR, "#map svg")
    check(svg.get_attribute("role") == "img" and "map" in svg.get_attribute("aria-label").lower(),
          f"the map is an image whose name says it is a map ({svg.get_attribute('aria-label')!r})")
    markers = driver.execute_script(
        "return [...document.querySelectorAll('#map .stop')].map(g => g.querySelector('title').textContent)")
    check(markers == places, f"the map's markers are the plan's places ({markers})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#map .landmark")) == 1, "the landmark is on the map")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#map .scale line")) >= 1, "the map has a scale bar")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#map polyline.route")) == config["days"], "each day's places are joined")
    first = driver.find_element(By.CSS_SELECTOR, "#itinerary-days .activity")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", first)
    ActionChains(driver).move_to_element(first).perform()
    highlighted = driver.execute_script("return [...document.querySelectorAll('#map .stop.highlight')].map(g => g.dataset.place)")
    check(highlighted == [places[0]], f"hovering a place in the list marks it on the map ({highlighted})")
    marker = driver.find_elements(By.CSS_SELECTOR, "#map .stop")[1]
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", marker)
    ActionChains(driver).move_to_element(marker).perform()
    marked = driver.execute_script("return [...document.querySelectorAll('#itinerary-days .activity.highlight')].map(li => li.dataset.place)")
    check(marked == [places[1]], f"hovering a marker marks its place in the list ({marked})")

    # The profile: the model turn and the tool calls with their arguments.
    tools = driver.execute_script("return [...document.querySelectorAll('#timeline li.tool')].map(li => li.dataset.tool)")
    for tool in config["tools"]:
        check(tool in tools, f"the timeline lists the call of {tool} ({tools})")
    model_turns = driver.find_elements(By.CSS_SELECTOR, "#timeline li.model")
    check(len(model_turns) >= 1 and "tok/s" in model_turns[0].text, "the timeline lists the model turn with tokens per second")
    tool_text = driver.find_element(By.CSS_SELECTOR, "#timeline li.tool").text
    check("{" in tool_text and "→" in tool_text, f"a tool call shows its arguments and output ({tool_text[:120]!r})")

    # A download in `agent plan`'s .ics.
    driver.find_element(By.CSS_SELECTOR, '#downloads button[data-format="ics"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "download-link").get_attribute("data-format") == "ics", "the .ics download")
    ics = driver.execute_async_script(
        "const done = arguments[0]; fetch(document.getElementById('download-link').href).then(r => r.text()).then(done)")
    check(ics.startswith("BEGIN:VCALENDAR") and ics.count("BEGIN:VEVENT") == len(places) and ics.rstrip().endswith("END:VCALENDAR"),
          f"the .ics download is a calendar with one event per place ({ics.count('BEGIN:VEVENT')} events)")
    screenshot(driver, "plan-desktop-finished.png", 1280, 900)
    screenshot(driver, "plan-phone-finished.png", 390, 844)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 390, f"the phone-sized page does not scroll sideways ({width} px wide)")
    driver.set_window_size(1280, 900)

    # 4. A request in words with no place gets a question back, not an error.
    driver.get(config["words"])
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#gallery button.landmark")) > 10, "the gallery (words server)")
    driver.find_element(By.ID, "words").send_keys("Plan a relaxed weekend away with Ana")
    driver.find_element(By.CSS_SELECTOR, "#words-form button").click()
    question = wait(driver, lambda d: d.find_element(By.ID, "question") if d.find_element(By.ID, "question").is_displayed() else None,
                    "the planner's question")
    check("Where would you like to go" in question.text, f"words without a place get a question ({question.text!r})")
    check(not driver.find_element(By.ID, "error").is_displayed(), "a question is not shown as an error")
    driver.find_element(By.ID, "words").send_keys("Joshua Tree")
    driver.find_element(By.CSS_SELECTOR, "#words-form button").click()
    wait(driver, lambda d: d.find_element(By.ID, "plan").get_attribute("data-state") == "finished", "the plan after the answer")
    seen = driver.execute_script(SNAPSHOT)
    check(len(seen["headings"]) == 2 and seen["places"] == config["places"][:4],
          f"the answer is read with the first words: two days at Joshua Tree ({seen['headings']}, {seen['places']})")
    request = driver.execute_script("return window.trailhead.request")
    check(request and request["landmark"] == "Joshua Tree National Park" and request["days"] == 2, f"the request the words became ({request})")

    # 5. An unknown landmark: the planner's error, in words.
    driver.find_element(By.ID, "landmark").send_keys("Qxzzyv Nowhereland")
    driver.find_element(By.ID, "generate").click()
    error = wait(driver, lambda d: d.find_element(By.ID, "error") if d.find_element(By.ID, "error").is_displayed() else None, "the error")
    check(len(error.text) > 10 and "{" not in error.text, f"an unknown landmark is an error in words ({error.text!r})")

    # 6. The playground runs a tool and shows its call.
    if config.get("playground"):
        driver.get(config["playground"])
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tools input[type=checkbox]")) > 0, "the playground's tools")
        for box in driver.find_elements(By.CSS_SELECTOR, "#tools input[type=checkbox]"):
            if box.get_attribute("value") == config["playgroundTool"] and not box.is_selected():
                box.click()
        driver.find_element(By.ID, "instructions").send_keys("You find free days in the user's calendar.")
        driver.find_element(By.ID, "prompt").send_keys("Which days are free in the first week of December?")
        driver.find_element(By.ID, "run").click()
        wait(driver, lambda d: d.find_element(By.ID, "playground-answer").get_attribute("data-state") == "finished", "the playground's answer")
        calls = driver.execute_script("return [...document.querySelectorAll('#calls li')].map(li => li.dataset.tool)")
        check(config["playgroundTool"] in calls, f"the playground shows the tool call ({calls})")
        call_text = driver.find_element(By.CSS_SELECTOR, "#calls li").text
        check("freeDays" in call_text or "free day" in call_text, f"the call shows the tool's output ({call_text[:160]!r})")
        answer = driver.find_element(By.ID, "playground-answer").text
        check(config["playgroundAnswer"] in answer, f"the playground shows the answer ({answer!r})")
        screenshot(driver, "playground-desktop.png", 1280, 900)
    print("SCREENSHOTS " + json.dumps(shots), flush=True)
finally:
    driver.quit()
