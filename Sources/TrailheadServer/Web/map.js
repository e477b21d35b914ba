// The trip's map, drawn as inline SVG from the places' coordinates (no tiles, no network):
// the landmark, each day's places numbered and joined in order, nearby places as faint context,
// a scale bar. Markers carry data-place and a <title> with the place's name.
"use strict";

const TrailMap = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const WIDTH = 600, HEIGHT = 420, PAD = 34;
  const DAY_COLOURS = ["#2f6b4f", "#1f5f9e", "#8a3fa0", "#b8741a", "#a23b3b", "#347a86", "#5d6b1e"];

  function element(name, attributes, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, String(value));
    if (parent) parent.appendChild(node);
    return node;
  }

  // Great-circle distance in km.
  function haversine(a, b) {
    const rad = Math.PI / 180, r = 6371;
    const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
    const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
    return 2 * r * Math.asin(Math.min(1, Math.sqrt(h)));
  }

  // A projection fitting `points` (equirectangular, scaled by the cosine of the middle latitude).
  function projection(points) {
    let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
    for (const p of points) {
      minLat = Math.min(minLat, p.lat); maxLat = Math.max(maxLat, p.lat);
      minLon = Math.min(minLon, p.lon); maxLon = Math.max(maxLon, p.lon);
    }
    const midLat = (minLat + maxLat) / 2;
    const k = Math.cos(midLat * Math.PI / 180);
    const spanX = Math.max((maxLon - minLon) * k, 0.01), spanY = Math.max(maxLat - minLat, 0.01);
    const scale = Math.min((WIDTH - 2 * PAD) / spanX, (HEIGHT - 2 * PAD) / spanY);
    const offsetX = (WIDTH - spanX * scale) / 2, offsetY = (HEIGHT - spanY * scale) / 2;
    const project = (p) => ({
      x: offsetX + ((p.lon - minLon) * k + (spanX - (maxLon - minLon) * k) / 2) * scale,
      y: offsetY + ((maxLat - p.lat) + (spanY - (maxLat - minLat)) / 2) * scale,
    });
    // Kilometres per pixel along the middle latitude.
    const kmPerPixel = haversine({ lat: midLat, lon: 0 }, { lat: midLat, lon: 1 }) / (k * scale);
    return { project, kmPerPixel };
  }

  // A round length (1, 2 or 5 × 10ⁿ km) about a fifth of the map's width.
  function scaleLength(kmPerPixel) {
    const target = kmPerPixel * WIDTH / 5;
    const power = 10 ** Math.floor(Math.log10(target));
    for (const step of [5, 2, 1]) if (step * power <= target) return step * power;
    return power;
  }

  // Draws into `container`: `landmark` {name, lat, lon} or null; `days` [[{name, lat, lon}]]
  // (places without coordinates are left out of the drawing but keep their number); `context`
  // [{name, lat, lon}] faint.
  function draw(container, { landmark, days, context, title }) {
    container.textContent = "";
    const stops = [];
    days.forEach((day, dayIndex) => day.forEach((place, index) => {
      if (place && Number.isFinite(place.lat) && Number.isFinite(place.lon)) stops.push({ ...place, day: dayIndex, number: index + 1 });
    }));
    const all = stops.concat(landmark ? [landmark] : []);
    const near = (context || []).filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lon));
    if (all.length === 0) {
      const note = document.createElement("p");
      note.textContent = "The map appears when the plan has places with known positions.";
      container.appendChild(note);
      return;
    }
    // Context places only widen the view a little: fit the trip, keep context nearby.
    const { project, kmPerPixel } = projection(all);
    const label = `Map of ${title || "the trip"}: ${landmark ? landmark.name + " and " : ""}${stops.length} place${stops.length === 1 ? "" : "s"} numbered by day`;
    const svg = element("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label });
    element("title", {}, svg).textContent = label;

    const contextLayer = element("g", { class: "context-layer" }, svg);
    for (const place of near) {
      const at = project(place);
      if (at.x < 0 || at.y < 0 || at.x > WIDTH || at.y > HEIGHT) continue;
      if (stops.some((s) => s.name === place.name)) continue;
      const g = element("g", { class: "context", "data-place": place.name }, contextLayer);
      element("circle", { cx: at.x.toFixed(1), cy: at.y.toFixed(1), r: 3.5 }, g);
      element("title", {}, g).textContent = place.name;
    }

    days.forEach((_, dayIndex) => {
      const points = stops.filter((s) => s.day === dayIndex).map(project);
      if (points.length < 2) return;
      element("polyline", {
        class: "route", stroke: DAY_COLOURS[dayIndex % DAY_COLOURS.length],
        points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" "),
      }, svg);
    });

    if (landmark) {
      const at = project(landmark);
      const g = element("g", { class: "landmark", "data-place": landmark.name }, svg);
      element("path", { d: `M${at.x.toFixed(1)},${(at.y - 11).toFixed(1)} l6,11 l-6,11 l-6,-11 z` }, g);
      element("title", {}, g).textContent = landmark.name;
    }

    for (const stop of stops) {
      const at = project(stop);
      const g = element("g", { class: "stop marker", "data-place": stop.name, "data-day": stop.day + 1, tabindex: -1 }, svg);
      element("circle", { cx: at.x.toFixed(1), cy: at.y.toFixed(1), r: 10, fill: DAY_COLOURS[stop.day % DAY_COLOURS.length] }, g);
      element("text", { x: at.x.toFixed(1), y: at.y.toFixed(1) }, g).textContent = String(stop.number);
      element("title", {}, g).textContent = stop.name;
    }

    const km = scaleLength(kmPerPixel);
    const length = km / kmPerPixel;
    const scale = element("g", { class: "scale" }, svg);
    const y = HEIGHT - 14;
    element("line", { x1: 14, y1: y, x2: (14 + length).toFixed(1), y2: y }, scale);
    element("line", { x1: 14, y1: y - 5, x2: 14, y2: y + 1 }, scale);
    element("line", { x1: (14 + length).toFixed(1), y1: y - 5, x2: (14 + length).toFixed(1), y2: y + 1 }, scale);
    element("text", { x: 14, y: y - 7 }, scale).textContent = `${km < 1 ? km.toFixed(1) : km} km`;

    const legend = element("g", { class: "legend" }, svg);
    const dayCount = days.filter((d) => d.length).length;
    for (let index = 0; index < dayCount; index++) {
      const x = WIDTH - 14 - (dayCount - index) * 52;
      element("rect", { x, y: 8, width: 10, height: 10, fill: DAY_COLOURS[index % DAY_COLOURS.length] }, legend);
      element("text", { x: x + 14, y: 17 }, legend).textContent = `Day ${index + 1}`;
    }
    container.appendChild(svg);
  }

  return { draw, haversine };
})();
