// Mythwind: the Innkeeper: the inn's 5x5 grid (accommodations, guests facing front or back, the
// party token), coins, the renown track, the season, day and weather, the guests waiting, the hand.
"use strict";

(() => {
  const { el, text, rect, target, gauge } = Draw;
  const FURNITURE = "#96704a", SERVICE = "#5684aa";
  const STYLE_COLORS = { cultured: "#d278c8", imperial: "#e6be46", frontier: "#6ebe6e" };
  const WEATHER_COLORS = { sunny: "#f2c84a", cloudy: "#a0a8b8", rainy: "#5a8cd2" };
  const S = 104, X0 = 10, Y0 = 44;

  function draw(svg, view) {
    const W = 1000, H = 660;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    // Top: season, day, weather.
    text(svg, X0, 20, view.over ? `Campaign over after ${view.days_done} days` : `Season ${view.season.index}/${view.season.count} (${view.season.name}), day ${view.day}/${view.days_per_season}`, { "font-weight": 700, "font-size": 15 });
    text(svg, X0, 37, `phase ${view.phase.replace("_", " ")}`, { "font-size": 12, fill: "#969caa" });
    // The inn.
    for (const s of view.slots) {
      const x = X0 + s.col * (S + 4), y = Y0 + s.row * (S + 4);
      const g = target(svg, `slot:${s.index}`, x, y, S, S);
      g.classList.add("slot");
      const a = s.accommodation;
      const fill = a ? (a.furniture ? FURNITURE : SERVICE) : s.outer ? "#2e3a2e" : "#3e3830";
      rect(g, x, y, S, S, fill, { class: "hit", opacity: a && a.damaged ? 0.45 : 1, stroke: s.outer ? "#506450" : "#5a5040", "stroke-dasharray": a ? "" : "4 3" });
      text(g, x + 5, y + 13, s.name, { "font-size": 10, fill: "#c8ccd6" });
      if (a) {
        text(g, x + 5, y + 29, a.type, { "font-weight": 700, "font-size": 13, fill: "#111" });
        if (a.style) { el("circle", { cx: x + S - 12, cy: y + 12, r: 7, fill: STYLE_COLORS[a.style] }, g); el("title", {}, g.lastChild).textContent = a.style; }
        if (a.damaged) {
          el("line", { x1: x + 4, y1: y + 4, x2: x + S - 4, y2: y + S - 4, stroke: "#c84848", "stroke-width": 3 }, g);
          text(g, x + S / 2, y + S - 6, "damaged", { "text-anchor": "middle", "font-size": 11, fill: "#ffb0b0", "font-weight": 700 });
        }
      } else {
        text(g, x + S / 2, y + S / 2 + 4, s.outer ? "outer slot" : "inner slot", { "text-anchor": "middle", "font-size": 10, fill: "#7a8070" });
      }
      if (s.guest) {
        const gu = s.guest, cx = x + S / 2, cy = y + 62;
        el("circle", { cx, cy, r: 22, fill: gu.back ? "#b4c8e6" : "#f0e6d2", stroke: "#111", "stroke-width": 1.5, "stroke-dasharray": gu.back ? "4 2" : "" }, g);
        text(g, cx, cy - 2, gu.name.split(" ").map((w) => w[0]).join("").slice(0, 3), { "text-anchor": "middle", "font-weight": 700, fill: "#111" });
        text(g, cx, cy + 12, gu.back ? "back" : "I".repeat(gu.level), { "text-anchor": "middle", "font-size": 10, fill: "#111" });
        el("title", {}, g).textContent = `${gu.name} (level ${gu.level})${gu.back ? ", pampered: back facing" : ", facing front"}: ${gu.furniture} + ${gu.services.join(" ") || "no service"}`;
      }
      if (s.party) {
        el("polygon", { points: star(x + 16, y + S - 18, 11), fill: "#facc50", stroke: "#111" }, g);
      }
    }
    // Right panel: coins, renown, styles, guests, hand, skills, dice.
    const px = X0 + 5 * (S + 4) + 14, pw = W - px - 8;
    let y = 10;
    text(svg, px, y + 16, `Coins ${view.coins}`, { "font-weight": 700, "font-size": 20, fill: "#facc50" });
    text(svg, px + 150, y + 16, `earned ${view.earned}` + (view.party_coins ? `   party coins ${view.party_coins}` : ""), { "font-size": 13 });
    y += 24;
    if (view.weather) {
      const w = view.weather;
      el("circle", { cx: px + 8, cy: y + 9, r: 8, fill: WEATHER_COLORS[w.type] }, svg);
      text(svg, px + 22, y + 14, `${w.type}${w.event ? " + event" : ""}, ${w.alignment}s' day (streak ${w.streak})`, { "font-size": 13 });
    }
    y += 24;
    // The renown track: a cell per slot, its level as roman numerals.
    text(svg, px, y + 12, "Renown", { "font-size": 12, fill: "#c8a0f0", "font-weight": 700 });
    const rn = view.renown, cw = Math.min(34, (pw - 60) / rn.length);
    rn.levels.forEach((lv, i) => {
      const on = i + 1 === rn.slot;
      rect(svg, px + 60 + i * cw, y, cw - 2, 20, on ? "#a070e0" : ["#2c2838", "#3a3050", "#4a3a68"][lv - 1], { rx: 3, class: on ? "renown-marker" : "" });
      text(svg, px + 60 + i * cw + cw / 2 - 1, y + 14, "I".repeat(lv), { "text-anchor": "middle", "font-size": 9, fill: on ? "#111" : "#b0a0d0" });
    });
    y += 28;
    text(svg, px, y + 12, `level ${"I".repeat(rn.level)} (slot ${rn.slot}/${rn.length})`, { "font-size": 12 });
    y += 20;
    gauge(svg, px, y, pw, "campaign day", view.days_done, view.total_days, "#5a8cdc");
    y += 24;
    text(svg, px, y + 12, "Styles embraced:", { "font-size": 12 });
    let sx = px + 110;
    for (const st of view.styles) {
      const on = view.embraced.includes(st);
      el("circle", { cx: sx + 6, cy: y + 8, r: 6, fill: on ? STYLE_COLORS[st] : "none", stroke: STYLE_COLORS[st] }, svg);
      text(svg, sx + 16, y + 12, st, { "font-size": 12, fill: on ? "#e1e4eb" : "#969caa" });
      sx += 90;
    }
    y += 26;
    const list = (title, items, color) => {
      text(svg, px, y + 12, title, { "font-size": 12, "font-weight": 700, fill: color || "#facc50" });
      y += 16;
      for (const it of items.slice(0, 7)) { text(svg, px + 10, y + 12, it, { "font-size": 12 }, Math.floor(pw / 6.4)); y += 15; }
      if (items.length > 7) { text(svg, px + 10, y + 12, `... and ${items.length - 7} more`, { "font-size": 11, fill: "#969caa" }); y += 15; }
      y += 6;
    };
    const req = (g) => `${g.name} (${"I".repeat(g.level)}): ${g.furniture}${g.services.length ? " + " + g.services.join(" ") : ""}${g.style ? " [" + g.style + "]" : ""}`;
    list(`Guests waiting (${view.waiting.length}), bag ${view.bag}`, view.waiting.map(req));
    if (view.quiet.length) list("Unseated, quiet", view.quiet.map(req));
    list("Gossip hand", view.hand.length ? view.hand : ["(empty)"]);
    if (view.served.length) list("Served gossip", view.served);
    if (view.skills.length) list("Skills", view.skills.map((k) => `${k.name} (row ${k.row})`));
    if (view.dice.length) list("Hired dice", view.dice.map((d) => `${d.type}: ${d.pips}`));
    text(svg, px, Math.min(y + 12, H - 40), `last dusk: ${view.last_dusk.seated} seated, ${view.last_dusk.unseated} unseated`, { "font-size": 12, fill: "#969caa" });
    // Under the inn: the income by source and the legend.
    const iy = Y0 + 5 * (S + 4) + 16;
    text(svg, X0, iy, "income: " + Object.entries(view.income).map(([k, v]) => `${k} ${v}`).join(", "), { "font-size": 12 });
    let lx = X0;
    const ly = iy + 24;
    [["furniture", FURNITURE], ["service", SERVICE]].forEach(([n, c]) => { rect(svg, lx, ly - 11, 14, 14, c, { rx: 2 }); text(svg, lx + 18, ly, n, { "font-size": 12, fill: "#969caa" }); lx += 90; });
    for (const [n, c] of Object.entries(STYLE_COLORS)) { el("circle", { cx: lx + 6, cy: ly - 4, r: 6, fill: c }, svg); text(svg, lx + 16, ly, n, { "font-size": 12, fill: "#969caa" }); lx += 80; }
    text(svg, lx, ly, "disc: guest (front, or dashed: back facing)   star: party", { "font-size": 12, fill: "#969caa" });
    if (view.over) text(svg, X0, H - 8, `Campaign over: ${view.coins} coins, worth ${view.worth}`, { fill: "#56b26c", "font-size": 16, "font-weight": 700 });
  }

  function star(cx, cy, r) {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = Math.PI / 5 * i - Math.PI / 2, rr = i % 2 ? r / 2.4 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
    }
    return pts.join(" ");
  }

  Draw.register("mythwind_innkeeper", draw);
})();
