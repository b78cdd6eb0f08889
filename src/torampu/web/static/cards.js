// Playing cards drawn as SVG: corner indices, pips for 2-10, framed court cards, the joker,
// and a card back. Cards are named as the engine names them: "AS", "TD", "2C", "JK".
// The drawings are SVG markup built only from the fixed tables below: a card name is checked
// with isCard() before it is drawn, so no text from the server ever reaches the markup.

import { svgElement } from "./dom.js";
import { lang } from "./i18n.js";

const SUIT_PATHS = {
  S:
    "M50 4C32 26 6 40 6 60c0 14 11 24 24 24 8 0 14-3 17-9-1 10-5 17-13 21h32c-8-4-12-11-13-21 " +
    "3 6 9 9 17 9 13 0 24-10 24-24C94 40 68 26 50 4z",
  H:
    "M50 92C22 66 4 50 4 30 4 14 16 4 30 4c9 0 16 5 20 13C54 9 61 4 70 4c14 0 26 10 26 26 " +
    "0 20-18 36-46 62z",
  D: "M50 2 88 50 50 98 12 50z",
  C:
    "M50 4c-12 0-21 9-21 21 0 5 2 10 5 14-3-2-7-3-11-3C11 36 2 45 2 57s9 21 21 21c9 0 16-5 " +
    "19-12-1 12-5 21-13 30h42c-8-9-12-18-13-30 3 7 10 12 19 12 12 0 21-9 21-21S89 36 77 36" +
    "c-4 0-8 1-11 3 3-4 5-9 5-14C71 13 62 4 50 4z",
};

export const SUITS = ["S", "H", "D", "C"];
export const SUIT_GLYPH = { S: "♠", H: "♥", D: "♦", C: "♣", N: "NT" };
const RANK_LABEL = { T: "10" };
const RED = "#c8102e";
const BLACK = "#1a1a1a";

// Pip centres (x, y) on a 60 x 84 card; pips below the middle are drawn upside down.
const L = 19;
const C = 30;
const R = 41;
const PIPS = {
  2: [[C, 20], [C, 64]],
  3: [[C, 20], [C, 42], [C, 64]],
  4: [[L, 20], [R, 20], [L, 64], [R, 64]],
  5: [[L, 20], [R, 20], [C, 42], [L, 64], [R, 64]],
  6: [[L, 20], [R, 20], [L, 42], [R, 42], [L, 64], [R, 64]],
  7: [[L, 20], [R, 20], [C, 31], [L, 42], [R, 42], [L, 64], [R, 64]],
  8: [[L, 20], [R, 20], [C, 31], [L, 42], [R, 42], [C, 53], [L, 64], [R, 64]],
  9: [[L, 20], [R, 20], [L, 34.7], [R, 34.7], [C, 42], [L, 49.3], [R, 49.3], [L, 64], [R, 64]],
  10: [
    [L, 20], [R, 20], [C, 27.3], [L, 34.7], [R, 34.7],
    [L, 49.3], [R, 49.3], [C, 56.7], [L, 64], [R, 64],
  ],
};

/** {rank, suit} of a card name; the joker has suit null. */
export function parseCard(name) {
  const card = String(name).split("=")[0].toUpperCase();
  if (card === "JK") return { rank: "JK", suit: null };
  return { rank: card.slice(0, -1), suit: card.slice(-1) };
}

export function isCard(word) {
  return /^(JK(=[2-9TJQKA][SHDC])?|[2-9TJQKA][SHDC])$/i.test(word);
}

export function suitColor(suit) {
  return suit === "H" || suit === "D" ? RED : BLACK;
}

/** A short text for a card, suit first as players write it: "♥10", "♠A", "JK". */
export function cardText(name) {
  const { rank, suit } = parseCard(name);
  if (!suit) return "JK";
  return `${SUIT_GLYPH[suit]}${RANK_LABEL[rank] || rank}`;
}

/** Inline SVG markup of a suit symbol, for text (bids, trump); null for anything but S H D C. */
export function suitIcon(suit, size = 14) {
  if (!Object.hasOwn(SUIT_PATHS, suit)) return null;
  size = Number(size) || 14;
  return (
    `<svg class="suit-icon" viewBox="0 0 100 100" width="${size}" height="${size}" ` +
    `aria-hidden="true"><path d="${SUIT_PATHS[suit]}" fill="${suitColor(suit)}"/></svg>`
  );
}

function pip(suit, x, y, size, flip) {
  const half = size / 2;
  const rot = flip ? ` rotate(180 ${half} ${half})` : "";
  return (
    `<g transform="translate(${x - half} ${y - half})${rot}">` +
    `<path d="${SUIT_PATHS[suit]}" transform="scale(${size / 100})"/></g>`
  );
}

function corner(rank, suit, color) {
  const label = RANK_LABEL[rank] || rank;
  const narrow = label.length > 1 ? ' textLength="11" lengthAdjust="spacingAndGlyphs"' : "";
  const one =
    `<text x="7.5" y="13" text-anchor="middle" class="idx" fill="${color}"${narrow}>${label}</text>` +
    `<g fill="${color}">${pip(suit, 7.5, 19.5, 7, false)}</g>`;
  return `${one}<g transform="rotate(180 30 42)">${one}</g>`;
}

function face(rank, suit, color) {
  const letter = { J: "J", Q: "Q", K: "K" }[rank];
  return (
    `<rect x="14" y="12" width="32" height="60" rx="3" fill="${color === RED ? "#fdecef" : "#eef1f6"}" ` +
    `stroke="${color}" stroke-width="1"/>` +
    `<text x="30" y="45" text-anchor="middle" class="court" fill="${color}">${letter}</text>` +
    `<g fill="${color}">${pip(suit, 30, 59, 12, false)}${pip(suit, 30, 25, 9, true)}</g>`
  );
}

function centre(rank, suit, color) {
  if (rank === "A") {
    const size = suit === "S" ? 30 : 24;
    return `<g fill="${color}">${pip(suit, 30, 42, size, false)}</g>`;
  }
  if (rank === "J" || rank === "Q" || rank === "K") return face(rank, suit, color);
  const n = rank === "T" ? 10 : Number(rank);
  const pips = (PIPS[n] || []).map(([x, y]) => pip(suit, x, y, 11, y > 43)).join("");
  return `<g fill="${color}">${pips}</g>`;
}

function joker() {
  const star = "M30 30l4 9 10 1-8 6 3 10-9-6-9 6 3-10-8-6 10-1z";
  return (
    `<text x="6" y="14" class="jk-idx" fill="${RED}">J</text>` +
    `<text x="6" y="23" class="jk-idx" fill="${RED}">K</text>` +
    `<path d="${star}" fill="#e0a100" stroke="${RED}" stroke-width="1"/>` +
    `<text x="30" y="70" text-anchor="middle" class="jk-word" fill="${BLACK}">JOKER</text>`
  );
}

const FRAME =
  '<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="#fff" stroke="#9a9a9a" ' +
  'stroke-width="1.5"/>';

/** SVG markup of a card face; the back for "back", null or anything that is not a card name. */
export function cardSVG(name) {
  if (!name || name === "back" || !isCard(String(name))) return backSVG();
  const { rank, suit } = parseCard(name);
  const label = cardLabel(name);
  const body =
    suit === null
      ? joker()
      : corner(rank, suit, suitColor(suit)) + centre(rank, suit, suitColor(suit));
  return (
    `<svg class="card-svg" viewBox="0 0 60 84" role="img" aria-label="${label}">` +
    `${FRAME}${body}</svg>`
  );
}

export function backSVG() {
  return (
    '<svg class="card-svg" viewBox="0 0 60 84" aria-hidden="true">' +
    '<defs><pattern id="bk" width="6" height="6" patternUnits="userSpaceOnUse" ' +
    'patternTransform="rotate(45)"><rect width="6" height="6" fill="#234e8c"/>' +
    '<rect width="3" height="6" fill="#2d63b0"/></pattern></defs>' +
    '<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" fill="#fff" stroke="#9a9a9a" ' +
    'stroke-width="1.5"/><rect x="4" y="4" width="52" height="76" rx="3" fill="url(#bk)"/></svg>'
  );
}

const RANK_WORD = {
  A: "Ace", K: "King", Q: "Queen", J: "Jack", T: "10",
};
const SUIT_WORD = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_JA = { A: "エース", K: "キング", Q: "クイーン", J: "ジャック", T: "10" };
const SUIT_JA = { S: "スペード", H: "ハート", D: "ダイヤ", C: "クラブ" };

/** An accessible name in the page's language: "Queen of hearts", "ハートのクイーン", "Joker"
 * (a screen reader read "3 of hearts" on the Japanese page: an eleventh review). */
export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  const ja = lang() === "ja";
  if (!suit) return ja ? "ジョーカー" : "Joker";
  if (ja) return `${SUIT_JA[suit]}の${RANK_JA[rank] || rank}`;
  return `${RANK_WORD[rank] || rank} of ${SUIT_WORD[suit]}`;
}

/** The <svg> element of a card (the back for anything that is not a card name). */
export function cardImage(name) {
  return svgElement(cardSVG(name));
}

/** The <svg> element of the card back. */
export function backImage() {
  return svgElement(backSVG());
}

/** The suit's name in the page's language: "spades", "スペード". */
export function suitLabel(suit) {
  return (lang() === "ja" ? SUIT_JA : SUIT_WORD)[suit] || "";
}

/** The <svg> element of a suit symbol (S H D C), or null: an image named by its suit, so that
 * a screen reader says "Trump spades", "Contract 13 hearts" (the symbol was hidden from it, and
 * a blind player never learnt the trumps, the contract or a bid's suit: a sixteenth review). */
export function suitImage(suit, size = 14) {
  const svg = suitIcon(suit, size);
  if (!svg) return null;
  const el = svgElement(svg);
  el.removeAttribute("aria-hidden");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", suitLabel(suit));
  return el;
}
