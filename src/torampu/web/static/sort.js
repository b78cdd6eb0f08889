// Hand order: by suit, or by strength. Trick games rank the cards under the contract in force as
// far as the player's own view tells it (trump suit, the joker's mode, Napoleon's Mighty, 正J and
// 裏J); Daifugo ranks them under the current order (革命 and 11バック reverse it; jokers stay on
// top). The choice is kept per game in localStorage.
//
// Sorting only changes where a card is drawn: every card keeps its index in view.hand, which is
// what a click selects and what the action sent names.

import { own } from "./api.js";
import { parseCard } from "./cards.js";

const KEY = "torampu.sort";
export const SORT_MODES = ["suit", "strength"];

const session = {}; // the choices of this page, should localStorage refuse to keep them
const RANKS = "23456789TJQKA";
// suits in alternating colours: ♠ ♥ ♣ ♦
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
/** Napoleon's 裏J: the jack of the other suit of the trump's colour. */
export const OTHER_JACK = { S: "C", C: "S", H: "D", D: "H" };

function load() {
  try {
    return own(JSON.parse(localStorage.getItem(KEY) || "{}"));
  } catch {
    return own({});
  }
}

/** The order chosen for `game` ("suit" or "strength"); Daifugo defaults to strength. */
export function sortMode(game) {
  const mode = session[game] ?? load()[game];
  if (SORT_MODES.includes(mode)) return mode;
  return game === "daifugo" ? "strength" : "suit";
}

export function setSortMode(game, mode) {
  if (!SORT_MODES.includes(mode)) throw new TypeError(`unknown hand order ${mode}`);
  const all = load();
  all[game] = mode;
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  session[game] = mode;
}

function rankValue(rank) {
  return RANKS.indexOf(rank) + 2; // 2..14, ace high
}

function knownTrump(view) {
  return view.trump && SUIT_ORDER[view.trump] !== undefined ? view.trump : null;
}

/**
 * How strong a card of a trick game is, as far as the player's view tells (bigger is stronger).
 * Napoleon follows the engine's levels: the joker by its mode, Mighty (♠A), 正J, 裏J, trumps,
 * then any other card by rank (plain suits are equal until one is led).
 */
export function trickStrength(card, view) {
  const { rank, suit } = parseCard(card);
  const trump = knownTrump(view);
  const rules = view.rules || {};
  if (!suit) {
    if (view.game !== "napoleon") return 950;
    const mode = rules.joker_mode || "trump_top";
    // (napoleon-web's trump call: the lowest trump, under every other — the engine's
    // S_JOKER_LOW; it ranked over Mighty here, and the usual calls offered it first)
    if (mode === "request_lowest") return 200;
    return mode === "request_strong" ? 1000 : mode === "request_weak" ? 500 : 900;
  }
  const r = rankValue(rank);
  if (view.game === "napoleon") {
    if (rank === "A" && suit === "S") return 800;
    if (trump && rank === "J" && suit === trump) return 700;
    if (trump && rank === "J" && suit === OTHER_JACK[trump]) return 600;
  }
  if (trump && suit === trump) return 200 + r;
  return 100 + r;
}

/** Daifugo: 0 (weakest) .. 13 (a joker) under the current order (革命 xor 11バック). */
export function daifugoStrength(card, view) {
  const { rank } = parseCard(card);
  if (rank === "JK") return 13;
  const base = "3456789TJQKA2".indexOf(rank); // 3 weakest .. 2 strongest
  const reversed = view.reversed ?? (!!view.revolution !== !!view.eleven_back);
  return reversed ? 12 - base : base;
}

// The suit a card is grouped with: its own, but Napoleon's 裏J goes with the trumps when it
// follows as one (ura_jack_suit "trump").
function groupSuit(card, view) {
  const { rank, suit } = parseCard(card);
  const trump = knownTrump(view);
  if (view.game === "napoleon" && trump && rank === "J" && suit === OTHER_JACK[trump] && view.rules?.ura_jack_suit === "trump")
    return trump;
  return suit;
}

function suitIndex(card, view) {
  const suit = view.game === "daifugo" ? parseCard(card).suit : groupSuit(card, view);
  if (!suit) return -1;
  const trump = view.game === "daifugo" ? null : knownTrump(view);
  if (trump) return suit === trump ? 0 : 1 + SUIT_ORDER[suit];
  return SUIT_ORDER[suit];
}

/**
 * The indices of `hand` in display order. Trick games: by suit (the joker first, then the trump
 * suit when known, each suit strongest first) or by strength (strongest first). Daifugo: weakest to
 * strongest left to right, by strength or grouped by suit (jokers last).
 */
export function handOrder(hand, view, mode = sortMode(view.game)) {
  const idx = hand.map((_, i) => i);
  const cmp = view.game === "daifugo" ? daifugoCompare(view, mode) : trickCompare(view, mode);
  return idx.sort((a, b) => cmp(hand[a], hand[b]) || a - b);
}

function trickCompare(view, mode) {
  const rank = (c) => rankValue(parseCard(c).rank);
  if (mode === "strength")
    return (a, b) => trickStrength(b, view) - trickStrength(a, view) || suitIndex(a, view) - suitIndex(b, view);
  // within a suit by strength (the trump suit opens with 正J and 裏J), then by rank
  return (a, b) => suitIndex(a, view) - suitIndex(b, view) || trickStrength(b, view) - trickStrength(a, view) || rank(b) - rank(a);
}

function daifugoCompare(view, mode) {
  const strength = (c) => daifugoStrength(c, view);
  const suit = (c) => (parseCard(c).suit ? SUIT_ORDER[parseCard(c).suit] : 4);
  if (mode === "strength") return (a, b) => strength(a) - strength(b) || suit(a) - suit(b);
  return (a, b) => suit(a) - suit(b) || strength(a) - strength(b);
}
