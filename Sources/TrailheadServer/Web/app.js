// The plan page: pick a landmark (the curated gallery, or any place the index knows), Generate,
// and watch the trip-planner agent's itinerary stream in as typed snapshots — days and activities
// as the model writes them, drawn on a map; then the run's profile from its transcript, and
// downloads in `agent plan`'s formats.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const state = {
    landmarks: [],
    // Every place whose position is known: name → {name, lat, lon, category, description}.
    places: new Map(),
    landmark: null,          // {name, lat, lon}
    context: [],             // places the tools returned, drawn faintly
    itinerary: null,
    session: null,
    controller: null,
    timings: {},
  };
  window.trailhead = state;  // for the browser tests and for curious people

  // MARK: - Errors and the API key

  function showError(message) {
    const box = $("error");
    box.textContent = message;
    box.hidden = !message;
  }

  Api.onNeedsKey = () => {
    $("key-panel").hidden = false;
    $("api-key").focus();
  };

  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    Api.setKey($("api-key").value.trim());
    $("key-panel").hidden = true;
    showError("");
    loadLandmarks();
  });

  // MARK: - Landmarks

  function remember(place) {
    if (!place || !place.name || !Number.isFinite(place.lat) || !Number.isFinite(place.lon)) return;
    const known = state.places.get(place.name) || {};
    state.places.set(place.name, Object.assign(known, place));
  }

  function choose(landmark, button) {
    $("landmark").value = landmark.name;
    state.landmark = { name: landmark.name, lat: landmark.latitude, lon: landmark.longitude };
    remember(state.landmark);
    for (const point of landmark.pointsOfInterest || []) {
      remember({ name: point.name, lat: point.latitude, lon: point.longitude, category: point.category, description: point.description });
    }
    for (const other of document.querySelectorAll("#gallery button")) other.setAttribute("aria-pressed", String(other === button));
    $("days").focus();
  }

  async function loadLandmarks() {
    try {
      const body = await Api.getJSON("/app/api/landmarks");
      state.landmarks = body.landmarks || [];
      const gallery = $("gallery");
      gallery.textContent = "";
      for (const landmark of state.landmarks) {
        const item = document.createElement("li");
        const button = document.createElement("button");
        button.type = "button";
        button.className = "landmark";
        button.dataset.name = landmark.name;
        button.setAttribute("aria-pressed", "false");
        const name = document.createElement("strong");
        name.textContent = landmark.name;
        const meta = document.createElement("span");
        meta.className = "meta";
        meta.textContent = [landmark.kind, landmark.country].filter(Boolean).join(" · ");
        const about = document.createElement("span");
        about.className = "about";
        about.textContent = landmark.description || "";
        button.append(name, meta, about);
        button.addEventListener("click", () => choose(landmark, button));
        item.appendChild(button);
        gallery.appendChild(item);
      }
      if (!state.landmarks.length) gallery.textContent = "No curated landmarks were found (Data/landmarks); search for a place instead.";
    } catch (error) {
      showError("Could not load the landmarks: " + error.message);
    }
  }

  $("search-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const query = $("place-search").value.trim();
    const out = $("search-result");
    out.textContent = "";
    if (!query) return;
    out.textContent = "Searching…";
    try {
      const { place } = await Api.getJSON("/app/api/places/" + encodeURIComponent(query));
      out.textContent = "";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "search-hit";
      const name = document.createElement("strong");
      name.textContent = place.name + (place.country ? ` (${place.country})` : "");
      const about = document.createElement("span");
      about.className = "about";
      about.textContent = " " + (place.description || "") + (place.note ? " — " + place.note : "");
      button.append(name, about);
      button.addEventListener("click", () => choose({ name: place.name, latitude: place.latitude, longitude: place.longitude }, button));
      out.appendChild(button);
    } catch (error) {
      out.textContent = error.message;
    }
  });

  // MARK: - The itinerary, as it streams

  // An activity whose place is still being written (the planner has not matched it to a place the
  // tool returned, so it has no category yet) is shown greyed, as pending.
  function placeLine(activity, number, pending) {
    const item = document.createElement("li");
    item.className = pending ? "activity pending" : "activity";
    item.dataset.place = activity.place;
    item.tabIndex = 0;
    const known = state.places.get(activity.place);
    const head = document.createElement("div");
    const num = document.createElement("span");
    num.className = "number";
    num.textContent = number + ".";
    const time = document.createElement("span");
    time.className = "time";
    time.textContent = activity.time ? activity.time + " · " : "";
    const place = document.createElement("span");
    place.className = "place";
    place.textContent = activity.place;
    head.append(num, " ", time, place);
    const category = activity.category || (known && known.category);
    if (category) head.append(` (${category})`);
    item.appendChild(head);
    const about = activity.about || (known && known.description);
    if (about) {
      const p = document.createElement("p");
      p.className = "about";
      p.textContent = about;
      item.appendChild(p);
    }
    if (activity.note) {
      const p = document.createElement("p");
      p.className = "note";
      p.textContent = activity.note;
      item.appendChild(p);
    }
    return item;
  }

  // Snapshots can come faster than the screen refreshes: only the newest is drawn, once a frame.
  let pendingSnapshot = null, frame = 0;
  function scheduleSnapshot(itinerary) {
    pendingSnapshot = itinerary;
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      if (pendingSnapshot) renderItinerary(pendingSnapshot, true);
      pendingSnapshot = null;
    });
  }
  function cancelSnapshot() {
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    pendingSnapshot = null;
  }

  function renderItinerary(itinerary, streaming) {
    const began = performance.now();
    try { drawItinerary(itinerary, streaming); } finally {
      // The page's own cost: drawing each snapshot (list and map).
      const spent = performance.now() - began;
      state.timings.renderMs = (state.timings.renderMs || 0) + spent;
      state.timings.renders = (state.timings.renders || 0) + 1;
      state.timings.slowestRenderMs = Math.max(state.timings.slowestRenderMs || 0, spent);
    }
  }

  function drawItinerary(itinerary, streaming) {
    state.itinerary = itinerary;
    $("plan").hidden = false;
    $("trip-title").textContent = itinerary.title || "Planning…";
    $("trip-destination").textContent = itinerary.destination || "";
    $("trip-description").textContent = [itinerary.description, itinerary.rationale].filter(Boolean).join(" ");
    $("trip-lodging").hidden = !itinerary.lodging;
    $("trip-lodging").textContent = itinerary.lodging ? "Staying at " + itinerary.lodging : "";
    const companions = itinerary.companions || [];
    $("trip-companions").hidden = !companions.length;
    $("trip-companions").textContent = companions.length ? "With " + companions.join(", ") : "";
    const days = $("itinerary-days");
    days.textContent = "";
    let activities = 0;
    (itinerary.days || []).forEach((day, index) => {
      const section = document.createElement("section");
      section.className = "day";
      const heading = document.createElement("h3");
      heading.textContent = `Day ${index + 1}` + (day.date ? " · " + Format.day(day.date) : "");
      const list = document.createElement("ol");
      let number = 0;
      for (const activity of day.activities || []) {
        if (!activity || !activity.place) continue;
        number += 1;
        if (!streaming || activity.category) activities += 1;
        list.appendChild(placeLine(activity, number, streaming && !activity.category));
      }
      section.append(heading, list);
      days.appendChild(section);
    });
    if (activities && state.timings.firstActivity == null) state.timings.firstActivity = performance.now() - state.timings.start;
    drawMap();
  }

  function drawMap() {
    const itinerary = state.itinerary;
    if (!itinerary) return;
    const days = (itinerary.days || []).map((day) => (day.activities || []).filter((a) => a && a.place).map((a) => {
      const known = state.places.get(a.place);
      return known ? { name: a.place, lat: known.lat, lon: known.lon } : { name: a.place };
    }));
    $("map-panel").hidden = false;
    TrailMap.draw($("map"), { landmark: state.landmark, days, context: state.context, title: itinerary.title });
  }

  // Hovering (or focusing) a place in the list marks it on the map, and back.
  function highlight(name) {
    for (const node of document.querySelectorAll(".activity.highlight, .stop.highlight")) node.classList.remove("highlight");
    if (!name) return;
    const selector = `[data-place="${CSS.escape(name)}"]`;
    for (const node of document.querySelectorAll(`.activity${selector}, .stop${selector}`)) node.classList.add("highlight");
  }
  for (const type of ["mouseover", "focusin"]) {
    $("itinerary-days").addEventListener(type, (event) => {
      const item = event.target.closest(".activity");
      if (item) highlight(item.dataset.place);
    });
    $("map").addEventListener(type, (event) => {
      const marker = event.target.closest && event.target.closest(".stop");
      if (marker) highlight(marker.dataset.place);
    });
  }
  $("itinerary-days").addEventListener("mouseleave", () => highlight(null));
  $("map").addEventListener("mouseleave", () => highlight(null));

  // What the tools said: positions of places, the landmark, the context.
  function readToolOutput(tool, result) {
    if (!result || typeof result !== "object") return;
    if (tool === "findPointsOfInterest" && Array.isArray(result.results)) {
      if (result.landmark && !state.landmark) {
        state.landmark = { name: result.landmark.name, lat: result.landmark.latitude, lon: result.landmark.longitude };
      }
      for (const place of result.results) {
        const known = { name: place.name, lat: place.latitude, lon: place.longitude, category: place.category, description: place.description };
        remember(known);
        if (!state.context.some((p) => p.name === place.name)) state.context.push(known);
      }
    } else if (tool === "describeLandmark" && Number.isFinite(result.latitude)) {
      state.landmark = { name: result.name, lat: result.latitude, lon: result.longitude };
      remember(state.landmark);
    }
  }

  // MARK: - The profile

  function renderProfile(entries) {
    const list = $("timeline");
    list.textContent = "";
    const outputs = new Map();
    for (const entry of entries) if (entry.kind === "toolOutput") outputs.set(entry.id, entry);
    const rows = [];
    let modelMs = 0, toolMs = 0, tokensIn = 0, tokensOut = 0, turns = 0;
    for (const entry of entries) {
      if (entry.kind === "modelTurn") {
        turns += 1;
        modelMs += entry.latencyMs || 0;
        tokensIn += entry.tokensIn || 0;
        tokensOut += entry.tokensOut || 0;
        const decodeMs = entry.serverDecodeMs || entry.latencyMs;
        const rate = entry.tokensOut && decodeMs ? (entry.tokensOut / (decodeMs / 1000)).toFixed(1) + " tok/s" : "tok/s —";
        rows.push({
          kind: "model", label: `Model turn ${entry.turn}`, ms: entry.latencyMs,
          detail: `${entry.tokensIn ?? "—"} prompt tokens${entry.cachedTokensIn ? ` (${entry.cachedTokensIn} cached)` : ""}, ${entry.tokensOut ?? "—"} generated, ${rate}, ${Format.ms(entry.latencyMs)}${entry.finishReason ? ", " + entry.finishReason : ""}`,
        });
      } else if (entry.kind === "toolCall") {
        const output = outputs.get(entry.id);
        const ms = output ? output.latencyMs : undefined;
        toolMs += ms || 0;
        rows.push({
          kind: "tool", tool: entry.tool, label: entry.tool + (entry.prefetched ? " (prefetched)" : ""), ms,
          detail: `${Format.json(entry.arguments)} → ${output ? Format.summary(output.result, output.error) : "no output"}, ${Format.ms(ms)}`,
        });
      } else if (entry.kind === "repair") {
        rows.push({ kind: "repair", label: `Repair (turn ${entry.turn})`, detail: entry.message });
      } else if (entry.kind === "error") {
        rows.push({ kind: "repair", label: "Error", detail: entry.message });
      }
    }
    const longest = Math.max(1, ...rows.map((r) => r.ms || 0));
    for (const row of rows) {
      const item = document.createElement("li");
      item.className = row.kind;
      if (row.tool) item.dataset.tool = row.tool;
      const kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = row.label;
      const body = document.createElement("div");
      const code = document.createElement("code");
      code.textContent = row.detail;
      const bar = document.createElement("div");
      bar.className = "bar";
      bar.style.width = `${Math.max(0.5, 100 * (row.ms || 0) / longest)}%`;
      bar.setAttribute("aria-hidden", "true");
      body.append(code, bar);
      item.append(kind, body);
      list.appendChild(item);
    }
    $("profile-summary").textContent = `${turns} model turn${turns === 1 ? "" : "s"} (${Format.ms(modelMs)}, ${tokensIn} prompt and ${tokensOut} generated tokens); tools ${Format.ms(toolMs)}.`;
    $("profile-panel").hidden = false;
  }

  async function loadProfile(session) {
    if (!session) return;
    try {
      const body = await Api.getJSON("/app/api/sessions/" + encodeURIComponent(session));
      for (const entry of body.entries || []) if (entry.kind === "toolOutput") readToolOutput(entry.tool, entry.result);
      renderProfile(body.entries || []);
      drawMap();
    } catch (error) {
      $("profile-summary").textContent = "The profile could not be loaded: " + error.message;
      $("profile-panel").hidden = false;
    }
  }

  // MARK: - Generate

  function tripRequest() {
    const request = { landmark: $("landmark").value.trim(), days: Number($("days").value) };
    if ($("from").value) request.from = $("from").value;
    if ($("to").value) request.to = $("to").value;
    const companions = $("companions").value.split(",").map((s) => s.trim()).filter(Boolean);
    if (companions.length) request.companions = companions;
    const tools = [...document.querySelectorAll('input[name="tools"]')].filter((box) => box.checked).map((box) => box.value);
    if (tools.length < 3) request.tools = tools;
    return request;
  }

  function reset() {
    showError("");
    $("question").hidden = true;
    state.itinerary = null;
    state.context = [];
    state.session = null;
    state.timings = { start: performance.now() };
    $("itinerary-days").textContent = "";
    $("timeline").textContent = "";
    $("profile-panel").hidden = true;
    $("downloads").hidden = true;
    $("plan").dataset.state = "streaming";
    if (state.landmark && state.landmark.name !== $("landmark").value.trim()) state.landmark = null;
  }

  // After the planner asked something, the next words answer it: the conversation goes along.
  async function run(content, continuing) {
    const messages = (continuing && state.asked ? state.asked : []).concat([{ role: "user", content }]);
    state.asked = null;
    reset();
    const controller = new AbortController();
    state.controller = controller;
    $("generate").disabled = true;
    $("stop").hidden = false;
    $("status").textContent = "Planning… the itinerary appears as the model writes it.";
    let final = null, text = "";
    try {
      state.session = await Api.stream({
        model: "trip-planner", stream: true, stream_options: { include_snapshots: true },
        messages,
      }, (chunk, session) => {
        state.session = session || state.session;
        const extra = chunk.trailhead;
        const choice = (chunk.choices || [])[0];
        if (choice && choice.delta && typeof choice.delta.content === "string") text += choice.delta.content;
        if (extra && extra.type === "snapshot") scheduleSnapshot(extra.answer || {});
        else if (extra && extra.type === "tool_output") { readToolOutput(extra.tool, extra.result); drawMap(); }
        else if (extra && extra.type === "tool_call") $("status").textContent = `Planning… asked ${extra.tool}.`;
        else if (extra && extra.type === "trip_request") {
          // What the planner understood (words are read by the model first).
          const r = extra.request || {};
          state.request = r;
          $("status").textContent = `Planning ${r.days} day${r.days === 1 ? "" : "s"} at ${r.landmark}, free days between ${r.from} and ${r.to}` +
            ((r.companions || []).length ? `, with ${r.companions.join(", ")}` : "") + "…";
        }
        if (choice && choice.finish_reason && extra) final = extra;
      }, controller.signal);
      state.timings.finished = performance.now() - state.timings.start;
      if (final && final.answer && typeof final.answer === "object") {
        cancelSnapshot();
        renderItinerary(final.answer, false);
        $("plan").dataset.state = "finished";
        $("downloads").hidden = false;
        const first = state.timings.firstActivity;
        $("status").textContent = `Finished in ${Format.ms(state.timings.finished)}` + (first != null ? ` (first activity on screen after ${Format.ms(first)}).` : ".");
      } else {
        // The planner asked something back (a request in words missing the place).
        const question = (final && typeof final.answer === "string") ? final.answer : text;
        $("question").textContent = question || "The planner gave no plan.";
        if (question) state.asked = messages.concat([{ role: "assistant", content: question }]);
        $("words").focus();
        $("question").hidden = false;
        $("plan").dataset.state = "question";
        $("status").textContent = "The planner needs more to go on.";
      }
      await loadProfile(state.session);
    } catch (error) {
      cancelSnapshot();
      $("plan").dataset.state = "failed";
      if (error.name === "AbortError") {
        $("status").textContent = "Stopped.";
      } else {
        showError(error.message);
        $("status").textContent = "";
      }
      await loadProfile(state.session);
    } finally {
      $("generate").disabled = false;
      $("stop").hidden = true;
      state.controller = null;
    }
  }

  $("plan-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const request = tripRequest();
    if (!request.landmark) { showError("Pick a landmark or type a place's name."); return; }
    run(JSON.stringify(request));
  });
  $("words-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const words = $("words").value.trim();
    if (!words) { showError("Write what trip you would like."); return; }
    state.landmark = null;
    $("words").value = "";
    run(words, true);
  });
  $("stop").addEventListener("click", () => state.controller && state.controller.abort());

  // MARK: - Downloads, in `agent plan`'s formats

  const suffixes = { ics: "ics", geojson: "geojson", markdown: "md" };
  $("downloads").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-format]");
    if (!button || !state.itinerary) return;
    const format = button.dataset.format;
    const places = {};
    for (const [name, place] of state.places) places[name] = [place.lat, place.lon];
    try {
      const response = await Api.post("/app/api/render/" + format, { itinerary: state.itinerary, places });
      const blob = await response.blob();
      const link = $("download-link");
      if (link.href) URL.revokeObjectURL(link.href);
      link.href = URL.createObjectURL(blob);
      link.download = "trip." + suffixes[format];
      link.dataset.format = format;
      link.textContent = link.download;
      link.hidden = false;
      link.click();
    } catch (error) {
      showError("The download failed: " + error.message);
    }
  });

  loadLandmarks();
})();
