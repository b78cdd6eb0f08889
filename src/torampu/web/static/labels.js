// Human-readable labels of cards, bids and actions as DOM nodes (suits drawn in colour).
// Everything here is built from text nodes and elements: a card name or action from the server
// is only ever text, never markup. The suit symbols are the SVG drawings of cards.js.

import { cardText, parseCard, suitImage } from "./cards.js";
import { parseAction } from "./actions.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A DocumentFragment of nodes and strings (strings become text). */
function frag(...parts) {
  const f = document.createDocumentFragment();
  for (const p of parts.flat(Infinity)) {
    if (p == null || p === false) continue;
    f.append(p instanceof Node ? p : document.createTextNode(String(p)));
  }
  return f;
}

function text(s) {
  return document.createTextNode(String(s));
}

/** A card as coloured inline text: 10♥ in red. "JK=6H" reads JK(6♥). */
export function cardNode(word) {
  const [card, stands] = String(word).split("=");
  const { suit } = parseCard(card);
  const cls = suit === "H" || suit === "D" ? "red" : suit ? "black" : "joker";
  const main = h("span", { class: `ct ${cls}` }, cardText(card));
  return stands ? frag(main, h("span", { class: "muted" }, "(", cardNode(stands), ")")) : main;
}

/** Cards separated by spaces. */
export function cardsNode(words) {
  return frag(words.map((w, i) => (i ? [" ", cardNode(w)] : cardNode(w))));
}

/** A suit letter as an icon; "N" (no trump) as text. */
export function suitNode(suit) {
  if (!suit || suit === "N") return h("span", { class: "nt" }, t("noTrump"));
  return suitImage(suit, 14) || h("span", { class: "nt" }, "NT");
}

/** A bid value: Napoleon "13S", Nap "three", Hell "2". */
export function bidNode(value, game) {
  const s = String(value);
  if (game === "nap") return text(t(`nap_${s}`));
  const m = /^(\d+)([SHDCN])$/.exec(s);
  if (m) return h("span", { class: "bid" }, m[1], m[2] === "N" ? "NT" : suitImage(m[2], 14));
  return text(s);
}

/** Any legal action as a short label. */
export function actionNode(raw, game) {
  const a = parseAction(raw);
  switch (a.verb) {
    case "pass":
      return text(t("pass"));
    case "alone":
      return text(t("alone"));
    case "bid":
      return bidNode(String(raw).split(/\s+/)[1] ?? "", game);
    case "adjutant":
      return frag(t("adjutant"), " ", cardsNode(a.words));
    case "play":
    case "discard":
    case "exchange":
    case "give": {
      const cards = a.words.length ? cardsNode(a.words) : t("nothing");
      const call = a.extra.includes("call") ? [" ", h("span", { class: "tag" }, t("call"))] : null;
      return frag(t(a.verb), " ", cards, call);
    }
    default:
      return text(raw);
  }
}
