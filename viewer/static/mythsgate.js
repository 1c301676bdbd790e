// Mythsgate: the map (regions, paths, bridges, the Portal and the Treasure Chamber) with heroes
// and minions, the Great Invoker's board (gems, tracks, tokens, piles), the League, the combat.
"use strict";

(() => {
  const { el, text, rect, target, gauge } = Draw;
  const REGION_COLORS = { town: "#b0966a", mine: "#767680", forest: "#4a7c4a", castle: "#684c80" };
  const HERO_COLORS = ["#50a0e6", "#5ac88c", "#e6c846", "#e6783c", "#c85ac8"];
  const KIND_LABELS = { portal: "PORTAL", treasure: "TREASURE", inn: "Inn", market: "Market", forge: "Forge", power_centre: "Power Centre", plain: "" };
  const CW = 150, CH = 118, GAP = 14, X0 = 10, Y0 = 10;

  function centre(sp) { return [X0 + sp.col * (CW + GAP) + CW / 2, Y0 + sp.row * (CH + GAP) + CH / 2]; }

  function draw(svg, view) {
    const W = 1000, H = 700;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    const sp = view.spaces;
    // Paths inside a region, bridges (planks) between two: under the spaces.
    for (const [a, b] of view.paths) {
      const [x1, y1] = centre(sp[a]), [x2, y2] = centre(sp[b]);
      el("line", { x1, y1, x2, y2, stroke: "#d8d0b0", "stroke-width": 4 }, svg);
    }
    for (const [a, b] of view.bridges) {
      const [x1, y1] = centre(sp[a]), [x2, y2] = centre(sp[b]);
      el("line", { class: "bridge", x1, y1, x2, y2, stroke: "#8a5a2a", "stroke-width": 10, "stroke-dasharray": "6 3" }, svg);
    }
    for (const s of sp) {
      const x = X0 + s.col * (CW + GAP), y = Y0 + s.row * (CH + GAP);
      const g = target(svg, `space:${s.index}`, x, y, CW, CH);
      g.classList.add("space");
      rect(g, x, y, CW, CH, REGION_COLORS[s.region], { class: "hit", stroke: s.kind === "portal" ? "#ff6a6a" : s.kind === "treasure" ? "#f2d04a" : "#222", "stroke-width": s.kind === "portal" || s.kind === "treasure" ? 4 : 1 });
      text(g, x + 6, y + 16, `${s.index} ${s.name}`, { "font-size": 12, "font-weight": 700, fill: "#111" }, 22);
      const k = KIND_LABELS[s.kind];
      if (k) text(g, x + 6, y + 31, k, { "font-size": 11, fill: s.kind === "portal" ? "#7a0000" : s.kind === "treasure" ? "#5a4600" : "#222", "font-weight": 700 });
      if (s.index === view.treasure) text(g, x + CW - 6, y + 31, `${view.invoker.treasure} gems`, { "font-size": 11, "text-anchor": "end", fill: "#5a4600" });
      if (s.index === view.portal) text(g, x + CW - 6, y + 31, `${view.invoker.gems} stolen`, { "font-size": 11, "text-anchor": "end", fill: "#7a0000" });
    }
    // Pieces: heroes as discs, minions as red diamonds, stacked in their space.
    const slots = {};
    const place = (space) => { const n = slots[space] = (slots[space] || 0) + 1; const s = sp[space]; return [X0 + s.col * (CW + GAP) + 20 + ((n - 1) % 4) * 34, Y0 + s.row * (CH + GAP) + 56 + Math.floor((n - 1) / 4) * 34]; };
    for (const h of view.heroes) {
      if (h.space < 0) continue;
      const [cx, cy] = place(h.space);
      const g = el("g", { class: "hero", "data-hero": h.index }, svg);
      el("circle", { cx, cy, r: 15, fill: HERO_COLORS[h.index % 5], stroke: h.current ? "#facc50" : "#111", "stroke-width": h.current ? 4 : 1.5 }, g);
      text(g, cx, cy + 4, `H${h.index}`, { "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#111" });
      if (h.lives === 0) el("line", { x1: cx - 12, y1: cy - 12, x2: cx + 12, y2: cy + 12, stroke: "#c84848", "stroke-width": 3 }, g);
      el("title", {}, g).textContent = `hero_${h.index} ${h.character}, ${h.lives} lives`;
    }
    for (const m of view.minions) {
      const [cx, cy] = place(m.space);
      const g = target(svg, `minion:${m.index}`, cx - 16, cy - 16, 32, 32);
      g.classList.add("minion");
      el("polygon", { class: "hit", points: `${cx},${cy - 16} ${cx + 16},${cy} ${cx},${cy + 16} ${cx - 16},${cy}`, fill: "#c43434", stroke: "#111" }, g);
      text(g, cx, cy + 4, m.name.slice(0, 2), { "text-anchor": "middle", "font-size": 11, "font-weight": 700 });
      text(g, cx + 12, cy - 10, m.lives, { "font-size": 10, fill: "#ffd0d0" });
      el("title", {}, g).textContent = `${m.name}: ${m.lives}/${m.max_lives} lives, strength ${m.strength}, draws ${m.draws}`;
    }
    // Under the map: the Invoker's gauges and tokens, the table.
    const mapW = 4 * (CW + GAP), inv = view.invoker;
    let y = Y0 + 4 * (CH + GAP) + 4;
    gauge(svg, X0, y, mapW - 20, "gems stolen", inv.gems, 10, "#c43434"); y += 20;
    for (const t of inv.tracks) { gauge(svg, X0, y, mapW - 20, `${t.name} track`, t.value, t.length, "#c88c3c"); y += 20; }
    inv.tokens.forEach((t, i) => {
      rect(svg, X0 + i * 150, y + 2, 142, 22, t.available ? "#8c3c3c" : "#2c303c", { stroke: "#c43434" });
      text(svg, X0 + i * 150 + 71, y + 18, `${t.name}${t.available ? "" : " (face down)"}`, { "text-anchor": "middle", "font-size": 11 });
    });
    // Right: the Great Invoker and the League.
    const px = mapW + 16, pw = W - px - 6;
    let ry = 10;
    rect(svg, px, ry, pw, 96, "#3a2430");
    text(svg, px + 8, ry + 18, "Great Invoker", { "font-weight": 700, fill: "#ff9a9a" });
    text(svg, px + 8, ry + 36, `actions left ${inv.actions_left}   hand ${inv.hand_size}   deck ${inv.deck}`, { "font-size": 12 });
    text(svg, px + 8, ry + 52, `discard ${inv.discard}   set aside ${inv.aside}` + (inv.bans.length ? `   banned: ${inv.bans.join(", ")}` : ""), { "font-size": 12 });
    text(svg, px + 8, ry + 70, inv.hand ? "hand: " + (inv.hand.join(", ") || "(empty)") : "hand hidden", { "font-size": 11, fill: inv.hand ? "#e1e4eb" : "#969caa" }, 52);
    const tb = view.table;
    text(svg, px + 8, ry + 88, `Power deck ${tb.power_deck}, discard ${tb.power_discard}; lives ${tb.life_supply}; market ` +
      (Object.entries(tb.market).map(([m, c]) => `${m}${c}`).join(" ") || "-"), { "font-size": 11, fill: "#c8ccd6" }, 52);
    ry += 104;
    const hh = Math.min(96, (H - ry - (view.combat ? 70 : 0)) / Math.max(1, view.heroes.length) - 6);
    for (const h of view.heroes) {
      const g = el("g", { class: "hero-board" }, svg);
      rect(g, px, ry, pw, hh, h.current ? "#3c3a26" : "#262a35", { stroke: HERO_COLORS[h.index % 5], "stroke-width": h.current ? 3 : 1 });
      text(g, px + 8, ry + 17, `hero_${h.index} ${h.character}` + (h.played ? " (played)" : "") + (h.current ? " (to move)" : ""), { "font-weight": 700, fill: HERO_COLORS[h.index % 5] }, 40);
      const lives = "\u2665".repeat(Math.max(0, h.lives)) + "\u2661".repeat(Math.max(0, h.max_lives - h.lives));
      text(g, px + pw - 8, ry + 17, lives, { "text-anchor": "end", fill: "#e05a5a", "font-size": 14 });
      text(g, px + 8, ry + 34, `at ${sp[h.space] ? sp[h.space].name : "-"}   ${h.cards} cards`, { "font-size": 12 }, 50);
      text(g, px + 8, ry + 50, "materials " + (Object.entries(h.materials).map(([m, c]) => `${m} ${c}`).join(", ") || "-"), { "font-size": 11 }, 54);
      text(g, px + 8, ry + 65, `armour ${h.armour.join(", ") || "-"}   books ${h.books.join(", ") || "-"}`, { "font-size": 11 }, 54);
      if (hh > 78) text(g, px + 8, ry + 80, h.hand ? "hand: " + (h.hand.map((c) => `${c.count}x${c.label}`).join(", ") || "(empty)") : "hand hidden", { "font-size": 11, fill: h.hand ? "#e1e4eb" : "#969caa" }, 54);
      ry += hh + 6;
    }
    if (view.combat) {
      const c = view.combat;
      rect(svg, px, ry, pw, 62, "#4a2020", { stroke: "#facc50" });
      text(svg, px + 8, ry + 18, `Combat: ${c.hero} vs ${c.foe}`, { "font-weight": 700, fill: "#facc50" }, 44);
      text(svg, px + 8, ry + 36, `hero ${c.hero_total}: ${c.hero_cards.join(" ") || "-"}`, { "font-size": 12 }, 50);
      text(svg, px + 8, ry + 54, `invoker ${c.invoker_total}: ${c.invoker_cards.join(" ") || "-"}`, { "font-size": 12 }, 50);
    }
    // Legend.
    let lx = X0;
    const ly = H - 12;
    for (const [r, c] of Object.entries(REGION_COLORS)) { rect(svg, lx, ly - 11, 14, 14, c, { rx: 2 }); text(svg, lx + 18, ly, r, { "font-size": 12, fill: "#969caa" }); lx += 80; }
    el("line", { x1: lx, y1: ly - 4, x2: lx + 26, y2: ly - 4, stroke: "#8a5a2a", "stroke-width": 8, "stroke-dasharray": "6 3" }, svg);
    text(svg, lx + 32, ly, "bridge   disc: hero   diamond: minion (lives)", { "font-size": 12, fill: "#969caa" });
    if (view.winner) text(svg, px, H - 12, `${view.winner} wins`, { fill: "#56b26c", "font-size": 16, "font-weight": 700 });
  }

  Draw.register("mythsgate", draw);
})();
