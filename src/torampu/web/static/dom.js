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
    else if (key.startsWith("on")) listen(el, key.slice(2), value);
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

/**
 * `draw` for a region a press may be lasting on (a list of links): the returned function draws
 * now, or, while a press that began in `el` lasts, once it ends (after the click that ends it),
 * so new content never moves what is pressed from under the pointer.
 */
export function drawnAfterPress(el, draw) {
  let pressed = false;
  let held = false;
  el.addEventListener("pointerdown", () => { pressed = true; });
  const release = () => {
    if (!pressed) return;
    pressed = false;
    if (held) {
      held = false;
      setTimeout(draw, 50);
    }
  };
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
  return () => {
    if (pressed) held = true;
    else draw();
  };
}

/** Replace the children of `el`. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// An element's handlers from h() live in a map that one listener per event type reads, so that
// patch() can hand a kept element the handlers of the element drawn in its place.
const HANDLERS = Symbol("torampu.handlers");

function listen(el, type, fn) {
  let on = el[HANDLERS];
  if (!on) on = el[HANDLERS] = new Map();
  if (!on.has(type)) el.addEventListener(type, (e) => el[HANDLERS].get(type)?.(e));
  on.set(type, fn);
}

/**
 * Like fill(), but the children already there are kept where the new drawing has the same
 * element (the same tag, id, link and data-* attributes: a card, its index in the hand, an
 * action, a table): their other attributes, text and handlers become the new ones. A button the player is pressing is then the same button when
 * the press ends, even if the page was drawn again meanwhile (a snapshot, a pause ending), so the
 * click is not lost; a button for another action is a new element, so a press never turns into
 * that action.
 */
export function patch(el, ...children) {
  const next = document.createDocumentFragment();
  append(next, children);
  morphChildren(el, [...next.childNodes]);
  return el;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName) return false;
  if (a.nodeType === Node.TEXT_NODE) return true;
  if (a.nodeType !== Node.ELEMENT_NODE) return false;
  if (a.namespaceURI !== b.namespaceURI) return false;
  if (a.id !== b.id || a.getAttribute("href") !== b.getAttribute("href")) return false;
  const ka = a.dataset, kb = b.dataset;
  if (!ka) return true;
  const keys = Object.keys(ka);
  return keys.length === Object.keys(kb).length && keys.every((k) => ka[k] === kb[k]);
}

function morphChildren(parent, next) {
  next.forEach((n, i) => {
    const old = parent.childNodes[i];
    if (!old) parent.append(n);
    else if (sameKind(old, n)) morph(old, n);
    else old.replaceWith(n);
  });
  while (parent.childNodes.length > next.length) parent.lastChild.remove();
}

function morph(old, n) {
  if (old.nodeType === Node.TEXT_NODE) {
    if (old.data !== n.data) old.data = n.data;
    return;
  }
  // what the drawing chose for a field, before the attributes move: a field whose drawn value
  // is unchanged keeps what the person typed or picked in it; a changed one takes the new value
  const drawn = fieldValue(old);
  // a <details> stays open or shut as the person left it
  const keep = old.tagName === "DETAILS" ? "open" : null;
  for (const a of [...old.attributes]) if (a.name !== keep && !n.hasAttribute(a.name)) old.removeAttribute(a.name);
  for (const a of n.attributes) {
    if (old.getAttribute(a.name) === a.value) continue;
    if (a.name === "style") old.style.cssText = n.style.cssText; // CSSOM: no inline style parsed
    else old.setAttribute(a.name, a.value);
  }
  const on = n[HANDLERS];
  if (on) for (const [type, fn] of on) listen(old, type, fn);
  if (old[HANDLERS]) for (const type of old[HANDLERS].keys()) if (!on?.has(type)) old[HANDLERS].delete(type);
  morphChildren(old, [...n.childNodes]);
  if (drawn !== null && drawn !== fieldValue(n)) old.value = n.value;
}

/** The value a drawing gave an input or select (its attributes, not what was typed since). */
function fieldValue(el) {
  if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") return el.getAttribute("value") ?? "";
  if (el.tagName !== "SELECT") return null;
  const chosen = [...el.options].filter((o) => o.hasAttribute("selected")).map((o) => o.value);
  return JSON.stringify(chosen);
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

/** Take the toast away at once if it still says `message` (a word that no longer holds). */
export function untoast(message) {
  const el = document.getElementById("toast");
  if (!el || el.textContent !== message || !el.classList.contains("show")) return;
  clearTimeout(toastTimer);
  el.className = "toast";
}

/** Back to the table's top: `main` scrolls under the pinned play area on a narrow screen, the
 * page itself on a short one (under 480 px tall, where the table scrolls as a page: the way
 * back did nothing there — a code review). */
export function toTop() {
  document.querySelector("main")?.scrollTo({ top: 0, behavior: "smooth" });
  document.scrollingElement?.scrollTo({ top: 0, behavior: "smooth" });
}

/** What a screen reader reads of `node`: its text, each image's name (role="img" with an
 * aria-label: a suit drawn) in its place, and nothing of what is hidden from it — an
 * announcement built of textContent lost the suits ("The search bot suggests: Bid 12" of
 * 12♥, a twenty-sixth review). */
export function spokenText(node) {
  const ja = document.documentElement.lang === "ja";
  const read = (n) => {
    if (n.nodeType === Node.TEXT_NODE) return n.data;
    if (n.nodeType !== Node.ELEMENT_NODE && n.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return "";
    if (n.getAttribute?.("aria-hidden") === "true" || n.hidden) return "";
    const shown = n.nodeType === Node.ELEMENT_NODE && n.isConnected ? getComputedStyle(n).display : "";
    if (shown === "none") return "";
    if (n.getAttribute?.("role") === "img" && n.hasAttribute("aria-label")) return ` ${n.getAttribute("aria-label")} `;
    const inner = [...n.childNodes].map(read).join("");
    // a list's label and value, each pair a sentence: "Contract: Three." — the result said
    // "Declarer Kiko Contract Three Result Made", one run of words (a fifty-fifth review)
    const said = inner.trim();
    if (n.nodeName === "DT") return said ? ` ${said}${/[:：、]$/.test(said) ? "" : ja ? "、" : ":"} ` : " ";
    if (n.nodeName === "DD") return said ? ` ${said}${STOP} ` : " ";
    // a block's words apart from the next block's (a result's "Contract" and "12 hearts", its
    // dt and dd, ran together: "Contract12 hearts", a code review)
    if (BLOCKS.has(n.nodeName)) return ` ${inner} `;
    // an inline element drawn as a line of its own is a sentence of its own: "(3 tricks
    // taken)Made before the end" ran together (the same review)
    // (its stop before it a mark, made "." or "。" below only where the text before has none:
    // a stop dropped after a stop ate a real "Wait..." and a value's ".5", a code review)
    if (said && /^(block|flex|grid|list-item)$/.test(shown)) return `${STOP} ${said}${STOP} `;
    return inner;
  };
  // (and no space before a stop, "♠A 。", nor a stop after a label or another stop)
  const text = node
    ? read(node).replace(/\s+/g, " ").replace(/^(?:\s*\uE000)+/, "").replace(/([:：、.。!?！？])(?:\s*\uE000)+/g, "$1")
      .replace(/(?:\s*\uE000)+/g, ja ? "。" : ".").replace(/ ([.,:;!?。、])/g, "$1")
    : "";
  // (nor a space after a Japanese stop: "宣言、 12 ハート。 副官、" read as typed in English)
  return text.replace(/\s+/g, " ").replace(/([、。]) /g, "$1").trim();
}

/** Where spokenText puts a sentence's stop unless the text before it ends in one. */
const STOP = "\uE000";

/** `text` as a sentence: with its stop ("." or "。") where it has none. */
export function sentence(text, ja = document.documentElement.lang === "ja") {
  return /[.。!?！？]$/.test(text) ? text : `${text}${ja ? "。" : "."}`;
}

const BLOCKS = new Set(["P", "DIV", "DT", "DD", "LI", "TR", "TD", "TH", "H1", "H2", "H3", "H4", "SECTION", "BR", "UL", "OL", "DL", "TABLE"]);
