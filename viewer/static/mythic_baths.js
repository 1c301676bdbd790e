// Mythic Baths: the row of baths with their guests, the supply, the manager, the players and hands.
"use strict";

(() => {
  const { el, text, rect, target, PLAYER_COLORS } = Draw;
  const INGREDIENT_COLORS = ["#7aaa5c", "#e2e2ec", "#d6aa3c", "#3c8c46", "#805838", "#5a8cc8", "#c86464", "#b48cd2"];
  const CREATURE_COLORS = { cerberus: "#aa3c3c", jackalope: "#c4965a", owlbear: "#966eaf", sea_lion: "#4678aa", tatzelwurm: "#6ea05a" };
  const DIRTY = "#60462e", CLEAN = "#34607f";

  function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

  function ingColor(view, name) { return INGREDIENT_COLORS[view.ingredients.indexOf(name) % INGREDIENT_COLORS.length]; }

  // An ingredient card: one colour band per ingredient shown, its label under it.
  function card(g, view, x, y, w, h, c, label) {
    const band = h / c.ingredients.length;
    c.ingredients.forEach((ing, i) => rect(g, x, y + i * band, w, band, ingColor(view, ing), { rx: 2 }));
    rect(g, x, y, w, h, "none", { stroke: "#181a21", "stroke-width": 2, rx: 3 });
    if (label) text(g, x + w / 2, y + h + 13, c.label, { "font-size": 11, "text-anchor": "middle" }, 14);
  }

  // What a guest needs: a chip per ingredient with its count (still missing / required).
  function needs(g, view, x, y, guest, w) {
    let cx = x, cy = y;
    for (const n of guest.needs) {
      const left = (guest.remaining.find((r) => r.ingredient === n.ingredient) || { count: 0 }).count;
      const chip = el("g", { class: "need" }, g);
      rect(chip, cx, cy, 52, 18, ingColor(view, n.ingredient), { rx: 9, opacity: left ? 1 : 0.35 });
      text(chip, cx + 26, cy + 13, `${n.ingredient.slice(0, 5)} ${left}/${n.count}`, { "font-size": 10, "text-anchor": "middle", fill: "#181a21" });
      cx += 56;
      if (cx + 52 > x + w) { cx = x; cy += 21; }
    }
  }

  function bath(svg, view, b, x, y, w, h) {
    const g = target(svg, `bath:${b.index}`, x, y, w, h);
    g.classList.add("bath");
    const tile = rect(g, x, y, w, h, b.dirty ? DIRTY : CLEAN, { class: "hit" });
    if (b.paying) tile.setAttribute("stroke", "#facc50"), tile.setAttribute("stroke-width", 4);
    text(g, x + 8, y + 18, `Bath ${b.index}`, { "font-weight": 700 });
    text(g, x + w - 8, y + 18, b.dirty ? "dirty" : b.guest ? "" : "clean, empty", { "text-anchor": "end", "font-size": 11, fill: "#c8ccd6" });
    const gu = b.guest;
    if (gu) {
      rect(g, x + 6, y + 26, w - 12, 50, CREATURE_COLORS[gu.creature] || "#777", gu.troublesome ? { stroke: "#c84848", "stroke-width": 3 } : {});
      text(g, x + 12, y + 44, gu.name, { "font-weight": 700, fill: "#111" }, Math.floor((w - 50) / 7));
      text(g, x + 12, y + 62, (gu.troublesome ? "troublesome " : "") + gu.creature.replace("_", "-"), { "font-size": 11, fill: "#111" }, Math.floor((w - 20) / 6));
      el("circle", { cx: x + w - 22, cy: y + 44, r: 13, fill: "#f2b632", stroke: "#6b4a10" }, g);
      text(g, x + w - 22, y + 49, gu.amber, { "text-anchor": "middle", "font-weight": 700, fill: "#111" });
      needs(g, view, x + 8, y + 84, gu, w - 12);
      if (b.nourished_by !== null) {
        const p = b.nourished_by;
        el("circle", { cx: x + 18, cy: y + h - 18, r: 11, fill: PLAYER_COLORS[p % 5], stroke: "#111" }, g);
        text(g, x + 34, y + h - 14, `nourished by player_${p}`, { "font-size": 10 }, 22);
      }
    }
    b.notes.forEach((n, i) => text(g, x + 8, y + h - 36 - 13 * i, n, { "font-size": 10, fill: "#f0d890" }, Math.floor(w / 5.6)));
    if (b.cards.length) text(g, x + 8, y + h - 36 - 13 * b.notes.length, `cards: ${b.cards.join(" ")}`, { "font-size": 10 }, Math.floor(w / 5.6));
  }

  function draw(svg, view) {
    const W = 1000, n = view.baths.length;
    const H = 700;
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    // Top line: the manager, the piles, the next guest (face up on the guest deck).
    rect(svg, 8, 6, 260, 54, "#3c3450");
    text(svg, 16, 26, "Manager", { fill: "#c8b4f0", "font-size": 11 });
    text(svg, 16, 47, view.manager, { "font-weight": 700, "font-size": 15 }, 30);
    text(svg, 282, 26, `Ingredient deck ${view.deck}   discard ${view.discard}`, { "font-size": 12 });
    text(svg, 282, 46, `Guest deck ${view.guests_left}` + (view.last_round !== null ? `   LAST ROUND: ${view.last_round} turns left` : ""),
      { "font-size": 12, fill: view.last_round !== null ? "#facc50" : "#e1e4eb" });
    if (view.next_guest) {
      const ng = view.next_guest;
      rect(svg, 560, 6, 432, 54, CREATURE_COLORS[ng.creature] || "#777", { opacity: 0.85 });
      text(svg, 568, 24, `Next guest: ${ng.name} (${ng.troublesome ? "troublesome " : ""}${ng.creature}), ${ng.amber} amber`, { fill: "#111", "font-size": 12, "font-weight": 700 }, 62);
      text(svg, 568, 46, "needs " + ng.needs.map((x) => `${x.count}x ${x.ingredient}`).join(", "), { fill: "#111", "font-size": 12 }, 62);
    }
    // The baths, in a row.
    const gap = 8, bw = Math.min(180, (W - 16 - gap * (n - 1)) / n), bh = 210;
    view.baths.forEach((b, i) => bath(svg, view, b, 8 + i * (bw + gap), 72, bw, bh));
    // The supply.
    const sy = 300;
    text(svg, 8, sy + 14, "Supply", { fill: "#facc50", "font-weight": 700 });
    view.supply.forEach((c, i) => {
      const x = 8 + i * 92, g = target(svg, `supply:${i}`, x, sy + 22, 80, 56);
      g.classList.add("supply");
      if (c) card(g, view, x, sy + 22, 80, 56, c, true);
      else rect(g, x, sy + 22, 80, 56, "none", { stroke: "#555", "stroke-dasharray": "4 3" });
      el("rect", { class: "hit", x, y: sy + 22, width: 80, height: 56, fill: "none", rx: 3 }, g);
    });
    // Favour tokens left in the stacks.
    text(svg, 480, sy + 14, "Favour tokens left", { fill: "#facc50", "font-weight": 700 });
    Object.entries(view.token_supply).forEach(([cr, left], i) => {
      el("circle", { cx: 494 + i * 100, cy: sy + 44, r: 14, fill: CREATURE_COLORS[cr] }, svg);
      text(svg, 494 + i * 100, sy + 49, left, { "text-anchor": "middle", "font-weight": 700, fill: "#111" });
      text(svg, 494 + i * 100, sy + 74, cr.replace("_", "-"), { "text-anchor": "middle", "font-size": 11 });
    });
    // The players: VP, amber, guests, tokens, hand (when this view may see it).
    const py = 412;
    text(svg, 8, py, "Players", { fill: "#facc50", "font-weight": 700 });
    const rowH = Math.min(58, (H - py - 36) / view.players.length);
    view.players.forEach((p, i) => {
      const y = py + 8 + i * rowH, color = PLAYER_COLORS[p.seat % 5];
      const g = el("g", { class: "player", "data-seat": p.seat }, svg);
      rect(g, 8, y, W - 16, rowH - 6, p.current ? "#3c3a26" : "#262a35", p.current ? { stroke: "#facc50" } : {});
      el("circle", { cx: 24, cy: y + 18, r: 9, fill: color }, g);
      text(g, 40, y + 23, p.name + (p.current ? "  (to move)" : ""), { "font-weight": 700, fill: color });
      text(g, 40, y + 42, `${p.vp} VP   ${p.amber} amber   ${plural(p.guests.length, "guest")}   ${plural(p.hand_size, "card")}`, { "font-size": 12 });
      p.tokens.forEach((t, k) => {
        el("circle", { cx: 300 + k * 26, cy: y + 20, r: 10, fill: t.used ? "none" : CREATURE_COLORS[t.creature], stroke: CREATURE_COLORS[t.creature], "stroke-width": 2 }, g);
        el("title", {}, g.lastChild).textContent = `${t.creature} token${t.used ? " (used)" : ""}`;
      });
      if (p.tokens.length) text(g, 300, y + 44, "favour tokens (hollow: used)", { "font-size": 10, fill: "#969caa" });
      if (p.hand) {
        let x = 470;
        text(g, x, y + 14, "hand", { "font-size": 10, fill: "#969caa" });
        for (const c of p.hand) for (let k = 0; k < c.count && x < W - 40; k++, x += 34) card(g, view, x, y + 18, 28, rowH - 28, c, false), el("title", {}, g.lastChild).textContent = c.label;
        text(g, W - 16, y + 14, p.hand.map((c) => `${c.count}x ${c.label}`).join(", ") || "(empty)", { "font-size": 10, "text-anchor": "end" }, 70);
      } else {
        text(g, 470, y + 30, `hand hidden (${plural(p.hand_size, "card")})`, { "font-size": 12, fill: "#969caa" });
      }
    });
    // Legend.
    let lx = 8;
    view.ingredients.forEach((ing) => {
      rect(svg, lx, H - 20, 14, 14, ingColor(view, ing), { rx: 2 });
      text(svg, lx + 18, H - 9, ing, { "font-size": 12, fill: "#969caa" });
      lx += 30 + ing.length * 7;
    });
    text(svg, lx + 10, H - 9, "tile: blue clean, brown dirty; chip: still needed / required; red frame: troublesome", { "font-size": 12, fill: "#969caa" });
    if (view.treatment) {
      const t = view.treatment;
      text(svg, 480, sy + 96, `Treating bath ${t.bath}: still needs ${t.needs.map((x) => `${x.count}x ${x.ingredient}`).join(", ") || "nothing"}` +
        (t.extra ? ` +${t.extra} extra` : "") + `; played ${t.cards.join(", ") || "no card"}`, { fill: "#facc50", "font-size": 12 }, 80);
    }
    if (view.winners) text(svg, W - 12, py, `Winner: ${view.winners.join(", ")}`, { "text-anchor": "end", fill: "#56b26c", "font-size": 16, "font-weight": 700 });
  }

  Draw.register("mythic_baths", draw);
})();
