// Small DOM helpers shared by the pages.
//
// Every string from a player or the server is put on the page as text (text nodes, attribute
// values). The only markup the page parses is the SVG drawing made by cards.js (and the bot icon
// of game.js) from fixed tables; it goes through one Trusted Types policy, "torampu-svg", which
// the server's Content-Security-Policy names as the only one allowed.

/**
 * Create an element: h("button", {class: "x", onclick: fn, dataset: {card: "AS"}}, child…).
 * Children are nodes or strings (as text). `style` takes an object of CSS properties, set
 * through the CSSOM (a style attribute would be blocked by the Content-Security-Policy).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value == null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") setStyle(el, value);
    else if (key === "html" || key === "innerHTML") throw new TypeError("h(): no markup; use text or svgNode()");
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, value);
  }
  append(el, children);
  return el;
}

function setStyle(el, style) {
  if (typeof style !== "object") throw new TypeError("h(): style must be an object of properties");
  for (const [prop, v] of Object.entries(style)) if (v != null) el.style.setProperty(prop, String(v));
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// ------------------------------------------------------------------ the SVG policy

const SVG_TAGS = new Set(["svg", "g", "path", "rect", "circle", "text", "defs", "pattern"]);

/**
 * Accept only an SVG drawing as our generators write it: one <svg …>…</svg>, only the tags they
 * use, no event handler attribute, no link, no script URL, no entity or comment. Throws otherwise.
 */
export function checkSVG(s) {
  const str = String(s);
  const bad = (why) => {
    throw new TypeError(`torampu-svg: refused markup (${why})`);
  };
  if (!str.startsWith("<svg ") || !str.endsWith("</svg>")) bad("not an <svg> element");
  if (/<script|<foreignobject|<!|<\?|javascript:|&/i.test(str)) bad("forbidden content");
  if (/[\s/"']on[a-z]+\s*=/i.test(str)) bad("event handler");
  if (/href\s*=|style\s*=/i.test(str)) bad("link or style attribute");
  for (const m of str.matchAll(/<\/?([^\s/>]+)/g)) if (!SVG_TAGS.has(m[1])) bad(`tag ${m[1]}`);
  if (str.match(/<svg[\s>]/g).length !== 1) bad("nested svg");
  return str;
}

const svgPolicy = window.trustedTypes?.createPolicy
  ? window.trustedTypes.createPolicy("torampu-svg", { createHTML: checkSVG })
  : { createHTML: checkSVG }; // browsers without Trusted Types: the same check, a plain string

/** The <svg> element drawn by one of our generators (cards.js, the bot icon). */
export function svgElement(svg) {
  const tpl = document.createElement("template");
  tpl.innerHTML = svgPolicy.createHTML(svg);
  return tpl.content.firstElementChild;
}

/** A span (with class `cls`) holding one of our SVG drawings. */
export function svgNode(svg, cls = "") {
  return h("span", { class: cls || null }, svgElement(svg));
}

let toastTimer = null;

/** Show a short message at the bottom of the screen. */
export function toast(message, kind = "error") {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = `toast show ${kind}`;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (el.className = "toast"), 4000);
}
