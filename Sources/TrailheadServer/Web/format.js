// What the plan page and the playground share: requests to the server (with the API key when
// it needs one), server-sent events read as they arrive, errors in words, small formatting.
"use strict";

const Api = (() => {
  const KEY = "trailhead-api-key";
  let onNeedsKey = () => {};

  function headers(extra) {
    const all = Object.assign({}, extra || {});
    const key = sessionStorage.getItem(KEY);
    if (key) all["Authorization"] = "Bearer " + key;
    return all;
  }

  // The message of an OpenAI-style error body, or the body's text.
  function errorMessage(status, text) {
    try {
      const body = JSON.parse(text);
      if (body && body.error && body.error.message) return body.error.message;
    } catch (_) { /* not JSON */ }
    return text ? `${status}: ${text}` : `the server answered ${status}`;
  }

  async function check(response) {
    if (response.ok) return response;
    const text = await response.text();
    if (response.status === 401) onNeedsKey();
    const error = new Error(errorMessage(response.status, text));
    error.status = response.status;
    throw error;
  }

  async function getJSON(path) {
    let response;
    try { response = await fetch(path, { headers: headers() }); } catch (e) { throw new Error("the server cannot be reached: is `agent serve` running?"); }
    return (await check(response)).json();
  }

  async function post(path, body) {
    let response;
    try {
      response = await fetch(path, { method: "POST", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body) });
    } catch (e) { throw new Error("the server cannot be reached: is `agent serve` running?"); }
    return check(response);
  }

  // POSTs a streamed chat completion and calls `onChunk` with each event's JSON as it arrives;
  // an error the stream carries (`{"error": …}`) is thrown.
  async function stream(body, onChunk, signal) {
    let response;
    try {
      response = await fetch("/v1/chat/completions", {
        method: "POST", headers: headers({ "Content-Type": "application/json", "Accept": "text/event-stream" }),
        body: JSON.stringify(body), signal,
      });
    } catch (e) {
      if (e.name === "AbortError") throw e;
      throw new Error("the server cannot be reached: is `agent serve` running?");
    }
    await check(response);
    const session = response.headers.get("X-Trailhead-Session");
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, "")).join("\n");
        if (!data || data === "[DONE]") continue;
        let chunk;
        try { chunk = JSON.parse(data); } catch (_) { continue; }
        if (chunk.error) throw new Error(chunk.error.message || "the run failed");
        onChunk(chunk, session);
      }
    }
    return session;
  }

  return {
    getJSON, post, stream, errorMessage,
    setKey(key) { if (key) sessionStorage.setItem(KEY, key); else sessionStorage.removeItem(KEY); },
    hasKey() { return !!sessionStorage.getItem(KEY); },
    set onNeedsKey(handler) { onNeedsKey = handler; },
  };
})();

const Format = {
  // "Saturday 19 December 2026" for YYYY-MM-DD (UTC, as `agent plan` writes it).
  day(date) {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date || "");
    if (!match) return date || "";
    const when = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
    const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
    const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    return `${weekdays[when.getUTCDay()]} ${when.getUTCDate()} ${months[when.getUTCMonth()]} ${when.getUTCFullYear()}`;
  },
  ms(value) {
    if (!Number.isFinite(value)) return "—";
    return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
  },
  // A tool's result in a few words: how many results, or its keys.
  summary(result, error) {
    if (error) return "error: " + error;
    if (result == null) return "no result";
    if (typeof result !== "object") return String(result).slice(0, 120);
    if (Array.isArray(result.results)) {
      const names = result.results.slice(0, 3).map((r) => r.name).filter(Boolean).join(", ");
      return `${result.results.length} result${result.results.length === 1 ? "" : "s"}${names ? ": " + names + (result.results.length > 3 ? ", …" : "") : ""}`;
    }
    if (Array.isArray(result.freeDays)) return `${result.freeDays.length} free day${result.freeDays.length === 1 ? "" : "s"}: ${result.freeDays.slice(0, 4).join(", ")}${result.freeDays.length > 4 ? ", …" : ""}`;
    if (Array.isArray(result.contacts)) return `${result.contacts.length} contact${result.contacts.length === 1 ? "" : "s"}: ${result.contacts.map((c) => c.name).join(", ")}`;
    if (result.name) return result.name + (result.country ? ` (${result.country})` : "");
    const text = JSON.stringify(result);
    return text.length > 120 ? text.slice(0, 119) + "…" : text;
  },
  json(value) {
    const text = JSON.stringify(value);
    return text && text.length > 300 ? text.slice(0, 299) + "…" : text;
  },
};
