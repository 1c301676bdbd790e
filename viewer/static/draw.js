// mythzoo viewer: SVG drawing helpers shared by the games' drawers, and the drawers' registry.
// A drawer is draw(svg, view, targets): it draws the view model into the svg element and wraps
// every board element an action can point at in drawTarget(...) so the page can make it clickable.
"use strict";

const Draw = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const drawers = {};

  // A new SVG element with these attributes, appended to parent (if given).
  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  // A text label; long labels are cut to max characters (the full text stays in a tooltip).
  function text(parent, x, y, s, attrs, max) {
    s = String(s);
    const t = el("text", Object.assign({ x, y, fill: "#e1e4eb", "font-size": 13 }, attrs || {}), parent);
    if (max && s.length > max) {
      t.textContent = s.slice(0, max - 1) + "\u2026";
      el("title", {}, t).textContent = s;
    } else {
      t.textContent = s;
    }
    return t;
  }

  function rect(parent, x, y, w, h, fill, attrs) {
    return el("rect", Object.assign({ x, y, width: w, height: h, fill, rx: 6 }, attrs || {}), parent);
  }

  // A group standing for one board element (``bath:3``); the page marks it clickable when a legal
  // action points at it, and outlines its child of class ``hit``.
  function target(parent, id) {
    return el("g", { "data-target": id }, parent);
  }

  // A horizontal gauge: value of most, with its label.
  function gauge(parent, x, y, w, label, value, most, color) {
    text(parent, x, y + 12, label, { "font-size": 12 });
    rect(parent, x + 110, y, w - 110, 14, "#282c38", { rx: 3 });
    rect(parent, x + 110, y, Math.max(0, Math.min(1, most ? value / most : 0)) * (w - 110), 14, color, { rx: 3 });
    text(parent, x + w - 4, y + 12, `${value}/${most}`, { "font-size": 11, "text-anchor": "end" });
  }

  function register(game, fn) { drawers[game] = fn; }

  function draw(container, view) {
    container.textContent = "";
    const fn = drawers[view.game];
    if (!fn) {
      container.textContent = `no drawing for ${view.game}`;
      return null;
    }
    const svg = el("svg", { xmlns: NS, role: "img", "aria-label": `${view.game} board` });
    container.appendChild(svg);
    fn(svg, view);
    return svg;
  }

  const PLAYER_COLORS = ["#e6783c", "#50a0e6", "#c85ac8", "#5ac88c", "#e6c846"];
  return { el, text, rect, target, gauge, register, draw, PLAYER_COLORS };
})();
