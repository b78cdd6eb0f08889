// Human-readable, HTML labels of cards, bids and actions (suits drawn in colour).

import { cardText, parseCard, suitIcon } from "./cards.js";
import { parseAction } from "./actions.js";
import { t } from "./i18n.js";

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** A card as coloured inline text: 10♥ in red. "JK=6H" reads JK(6♥). */
export function cardHTML(word) {
  const [card, stands] = String(word).split("=");
  const { suit } = parseCard(card);
  const cls = suit === "H" || suit === "D" ? "red" : suit ? "black" : "joker";
  const main = `<span class="ct ${cls}">${esc(cardText(card))}</span>`;
  return stands ? `${main}<span class="muted">(${cardHTML(stands)})</span>` : main;
}

export function cardsHTML(words) {
  return words.map(cardHTML).join(" ");
}

/** A suit letter as an icon; "N" (no trump) as text. */
export function suitHTML(suit) {
  if (!suit || suit === "N") return `<span class="nt">${esc(t("noTrump"))}</span>`;
  return suitIcon(suit, 14);
}

/** A bid value: Napoleon "13S", Nap "three", Hell "2". */
export function bidHTML(value, game) {
  const s = String(value);
  if (game === "nap") return esc(t(`nap_${s}`));
  const m = /^(\d+)([SHDCN])$/.exec(s);
  if (m) return `<span class="bid">${m[1]}${m[2] === "N" ? "NT" : suitIcon(m[2], 14)}</span>`;
  return esc(s);
}

/** Any legal action as a short label. */
export function actionHTML(raw, game) {
  const a = parseAction(raw);
  switch (a.verb) {
    case "pass":
      return esc(t("pass"));
    case "alone":
      return esc(t("alone"));
    case "bid":
      return bidHTML(raw.split(/\s+/)[1] ?? "", game);
    case "adjutant":
      return `${esc(t("adjutant"))} ${cardsHTML(a.words)}`;
    case "play":
    case "discard":
    case "exchange":
    case "give": {
      const cards = a.words.length ? cardsHTML(a.words) : esc(t("nothing"));
      const call = a.extra.includes("call") ? ` <span class="tag">${esc(t("call"))}</span>` : "";
      return `${esc(t(a.verb))} ${cards}${call}`;
    }
    default:
      return esc(raw);
  }
}
