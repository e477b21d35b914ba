// The playground: choose the server's tools, write instructions, a prompt and optionally an
// answer schema, run it streamed as a plain-model request (`plugins` names the tools, run on the
// server), and see the answer, each tool call with its arguments and output, the tokens.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let model = "local";

  function showError(message) {
    $("error").textContent = message;
    $("error").hidden = !message;
  }
  Api.onNeedsKey = () => { $("key-panel").hidden = false; $("api-key").focus(); };
  $("key-form").addEventListener("submit", (event) => {
    event.preventDefault();
    Api.setKey($("api-key").value.trim());
    $("key-panel").hidden = true;
    showError("");
    loadTools();
  });

  async function loadTools() {
    try {
      const body = await Api.getJSON("/app/api/tools");
      model = (body.models || ["local"])[0];
      const box = $("tools");
      for (const old of box.querySelectorAll("label")) old.remove();
      for (const tool of body.tools || []) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "checkbox";
        input.value = tool.name;
        label.title = tool.description;
        label.append(input, ` ${tool.name} `);
        const plugin = document.createElement("small");
        plugin.textContent = `(${tool.plugin})`;
        label.appendChild(plugin);
        box.appendChild(label);
      }
    } catch (error) {
      showError("Could not load the tools: " + error.message);
    }
  }

  function callItem(id, tool, args) {
    const item = document.createElement("li");
    item.dataset.tool = tool;
    item.dataset.id = id;
    const name = document.createElement("strong");
    name.textContent = tool;
    const code = document.createElement("code");
    code.textContent = " " + JSON.stringify(args);
    const output = document.createElement("p");
    output.className = "output";
    output.textContent = "running…";
    item.append(name, code, output);
    return item;
  }

  function agentEntry(tools, instructions, schema) {
    const entry = { name: "my-agent", instructions: instructions || "You are a helpful assistant.", tools };
    if (schema) entry.answer = schema;
    return JSON.stringify({ agents: [entry] }, null, 2);
  }

  $("playground-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const tools = [...document.querySelectorAll("#tools input:checked")].map((box) => box.value);
    const instructions = $("instructions").value.trim();
    const prompt = $("prompt").value.trim();
    let schema = null;
    if ($("schema").value.trim()) {
      try { schema = JSON.parse($("schema").value); } catch (error) { showError("The answer schema is not JSON: " + error.message); return; }
    }
    const messages = [];
    if (instructions) messages.push({ role: "system", content: instructions });
    messages.push({ role: "user", content: prompt });
    const request = { model, stream: true, messages, stream_options: { include_usage: true } };
    if (tools.length) { request.plugins = tools; request.tool_choice = $("mode").value; }
    if (schema) request.response_format = { type: "json_schema", json_schema: { name: "answer", schema } };
    $("agent-entry").textContent = agentEntry(tools, instructions, schema);

    const answer = $("playground-answer"), calls = $("calls");
    answer.textContent = "";
    answer.dataset.state = "running";
    calls.textContent = "";
    $("usage").textContent = "";
    $("run").disabled = true;
    $("status").textContent = "Running…";
    const started = performance.now();
    let text = "", final = null;
    try {
      await Api.stream(request, (chunk) => {
        const extra = chunk.trailhead;
        const choice = (chunk.choices || [])[0];
        if (choice && choice.delta && typeof choice.delta.content === "string") { text += choice.delta.content; answer.textContent = text; }
        if (extra && extra.type === "tool_call") calls.appendChild(callItem(extra.id, extra.tool, extra.arguments));
        if (extra && extra.type === "tool_output") {
          const item = calls.querySelector(`li[data-id="${CSS.escape(extra.id)}"]`);
          if (item) item.querySelector(".output").textContent = "→ " + Format.summary(extra.result, extra.error);
        }
        if (extra && extra.type === "answer_replaced") answer.textContent = extra.answer;
        if (choice && choice.finish_reason) final = chunk;
        if (chunk.usage && (!choice)) $("usage").textContent = `${chunk.usage.prompt_tokens} prompt tokens, ${chunk.usage.completion_tokens} generated.`;
      });
      const answerValue = final && final.trailhead ? final.trailhead.answer : null;
      if (answerValue != null && typeof answerValue !== "string") answer.textContent = JSON.stringify(answerValue, null, 2);
      answer.dataset.state = "finished";
      $("status").textContent = `Finished in ${Format.ms(performance.now() - started)}` + (final && final.trailhead ? `, ${final.trailhead.turns} turn(s).` : ".");
    } catch (error) {
      answer.dataset.state = "failed";
      showError(error.message);
      $("status").textContent = "";
    } finally {
      $("run").disabled = false;
    }
  });

  loadTools();
})();
