// mythzoo viewer: the page's controls. It asks the server for the game (/api/game), a frame's
// view model from a seat (/api/frame), the narrated log (/api/log), and in a live game posts the
// person's moves (/api/act) and saves the record (/api/save). Drawing is in draw.js and the games' files.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const ui = { meta: null, index: 0, seat: "all", log: [], frame: null, timer: null, busy: false };

  async function api(path, body) {
    const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
    const r = await fetch(path, opts);
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }

  function who(seat) {
    const m = ui.meta;
    const label = m.labels[seat];
    return `${m.agents[seat]}${label && label !== m.agents[seat] ? " (" + (label === "human" ? "you" : label) + ")" : ""}`;
  }

  function fillSeats() {
    const sel = $("seat"), m = ui.meta;
    sel.textContent = "";
    const add = (value, label) => { const o = document.createElement("option"); o.value = value; o.textContent = label; sel.appendChild(o); };
    if (m.mode === "live") {
      add(String(m.human_seat), `${m.agents[m.human_seat]} (you)`);
      sel.disabled = true;
      ui.seat = String(m.human_seat);
    } else {
      add("all", "all hands (omniscient)");
      m.agents.forEach((a, i) => add(String(i), `${who(i)}'s view`));
      const asked = new URLSearchParams(location.search).get("seat");
      if (asked !== null && asked !== "all" && Number(asked) < m.agents.length) ui.seat = asked;
      sel.value = ui.seat;
    }
  }

  function renderLog() {
    const ol = $("log");
    ol.textContent = "";
    for (const e of ui.log) {
      const li = document.createElement("li");
      li.dataset.index = e.index;
      const head = document.createElement("div");
      const w = document.createElement("span");
      w.className = "who";
      w.textContent = `${e.index + 1}. ${who(e.seat)}`;
      head.append(w, `: ${e.label}`);
      li.appendChild(head);
      if (e.effects.length) {
        const ul = document.createElement("ul");
        for (const x of e.effects) { const it = document.createElement("li"); it.textContent = x; ul.appendChild(it); }
        li.appendChild(ul);
      }
      li.addEventListener("click", () => { stop(); show(e.index + 1); });
      ol.appendChild(li);
    }
  }

  function markLog() {
    for (const li of $("log").children) {
      const on = Number(li.dataset.index) === ui.index - 1;
      li.classList.toggle("current", on);
      if (on) { // scroll the log alone, not the page
        const box = $("log").parentElement, top = li.offsetTop - box.offsetTop;
        if (top < box.scrollTop || top + li.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = top - box.clientHeight / 2;
      }
    }
  }

  function caption() {
    const c = $("caption"), f = ui.frame;
    c.textContent = "";
    const prev = ui.log[ui.index - 1];
    if (prev) {
      const w = document.createElement("span");
      w.className = "who";
      w.textContent = who(prev.seat);
      c.append(w, ` played ${prev.label}`);
      if (prev.effects.length) {
        const e = document.createElement("span");
        e.className = "effect";
        e.textContent = ": " + prev.effects.join("; ");
        c.append(e);
      }
      c.append(".  ");
    }
    c.append(f.agent ? `Next: ${who(f.seat)} to move.` : ui.meta.finished ? "The game is over." : "The record ends here (unfinished).");
  }

  function result() {
    const box = $("result"), m = ui.meta;
    const atEnd = ui.index === m.frames - 1 && m.finished;
    box.hidden = !atEnd;
    if (!atEnd) return;
    const lines = m.agents.map((a, i) => `${who(i)}: reward ${m.final_rewards[i]}` + (m.scores ? `, score ${m.scores[i]}` : ""));
    box.textContent = "Game over. " + lines.join("; ");
  }

  function actions() {
    const live = ui.meta.mode === "live";
    $("live").hidden = !live;
    if (!live) return;
    const ul = $("actions"), legal = ui.frame.legal;
    ul.textContent = "";
    $("prompt").textContent = legal.length ? `${legal.length} legal action${legal.length > 1 ? "s" : ""}: click one here or on the board (outlined).`
      : ui.meta.finished ? "The game is over." : ui.index < ui.meta.frames - 1 ? "Go to the last position to move." : "Waiting for the others.";
    for (const a of legal) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.className = "action";
      b.dataset.action = a.action;
      if (a.target) b.dataset.target = a.target;
      b.textContent = a.label;
      b.addEventListener("click", () => act(a.action));
      li.appendChild(b);
      ul.appendChild(li);
    }
    // The board elements legal actions point at: one action plays at a click, several are hinted in the list.
    const svg = $("board").querySelector("svg");
    if (!svg) return;
    const byTarget = {};
    for (const a of legal) if (a.target) (byTarget[a.target] = byTarget[a.target] || []).push(a);
    for (const [t, list] of Object.entries(byTarget)) {
      const g = svg.querySelector(`[data-target="${t}"]`);
      if (!g) continue;
      g.classList.add("clickable");
      const tip = Draw.el("title", {}, g);
      tip.textContent = list.map((a) => a.label).join(" / ");
      g.addEventListener("click", () => {
        if (list.length === 1) return act(list[0].action);
        for (const b of ul.querySelectorAll("button")) b.classList.toggle("hinted", b.dataset.target === t);
        $("prompt").textContent = `${list.length} actions on ${t}: choose one in the list (highlighted).`;
      });
    }
  }

  async function show(i) {
    const m = ui.meta;
    i = Math.max(0, Math.min(m.frames - 1, i));
    const f = await api(`/api/frame?i=${i}&seat=${ui.seat}`);
    ui.index = i;
    ui.frame = f;
    Draw.draw($("board"), f.view);
    $("status").textContent = f.view.status;
    $("text").textContent = f.text;
    $("slider").max = m.frames - 1;
    $("slider").value = i;
    $("step").textContent = `position ${i} of ${m.frames - 1}`;
    $("prev").disabled = $("first").disabled = i === 0;
    $("next").disabled = $("last").disabled = i === m.frames - 1;
    document.body.dataset.frame = i;
    caption();
    markLog();
    result();
    actions();
  }

  async function refresh() {
    ui.meta = await api("/api/game");
    ui.log = await api("/api/log");
    renderLog();
  }

  async function act(action) {
    if (ui.busy) return;
    ui.busy = true;
    document.body.dataset.busy = "1";
    try {
      const r = await api("/api/act", { action });
      await refresh();
      await show(ui.meta.frames - 1);
      if (r.saved) $("saved").textContent = `Record saved to ${r.saved}`;
    } catch (e) {
      $("prompt").textContent = `Error: ${e.message}`;
    } finally {
      ui.busy = false;
      document.body.dataset.busy = "0";
    }
  }

  function stop() {
    if (ui.timer) clearInterval(ui.timer);
    ui.timer = null;
    $("play").textContent = "\u25B6";
  }

  function play() {
    if (ui.timer) return stop();
    if (ui.index >= ui.meta.frames - 1) show(0);
    $("play").textContent = "||";
    ui.timer = setInterval(() => {
      if (ui.index >= ui.meta.frames - 1) return stop();
      show(ui.index + 1);
    }, Number($("speed").value));
  }

  async function start() {
    await refresh();
    const m = ui.meta;
    $("title").textContent = m.title;
    document.title = `${m.title}: mythzoo viewer`;
    $("mode").textContent = (m.mode === "live" ? "live game" : "replay") + `, seed ${m.seed}`;
    fillSeats();
    $("seat").addEventListener("change", (e) => { ui.seat = e.target.value; show(ui.index); });
    $("first").addEventListener("click", () => { stop(); show(0); });
    $("prev").addEventListener("click", () => { stop(); show(ui.index - 1); });
    $("next").addEventListener("click", () => { stop(); show(ui.index + 1); });
    $("last").addEventListener("click", () => { stop(); show(ui.meta.frames - 1); });
    $("play").addEventListener("click", play);
    $("speed").addEventListener("change", () => { if (ui.timer) { stop(); play(); } });
    $("slider").addEventListener("input", (e) => { stop(); show(Number(e.target.value)); });
    $("show-text").addEventListener("change", (e) => { $("text").hidden = !e.target.checked; });
    $("save").addEventListener("click", async () => {
      try { $("saved").textContent = `Record saved to ${(await api("/api/save", {})).saved}`; } catch (e) { $("saved").textContent = `Error: ${e.message}`; }
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
      const keys = { ArrowLeft: () => show(ui.index - 1), ArrowRight: () => show(ui.index + 1), Home: () => show(0), End: () => show(ui.meta.frames - 1), " ": play };
      if (keys[e.key]) { e.preventDefault(); if (e.key !== " ") stop(); keys[e.key](); }
    });
    await show(m.mode === "live" ? m.frames - 1 : 0);
    document.body.dataset.ready = "1";
  }

  start().catch((e) => { $("status").textContent = `Error: ${e.message}`; });
})();
