// Reading the legal action strings: which are card plays, which need a multi-card selection,
// which are plain buttons.

import { isCard } from "./cards.js";

const CARD_VERBS = new Set(["play", "discard", "exchange", "give"]);

/** {raw, verb, cards: ["5H", "JK"], words: ["5H", "JK=6H"], extra: ["call"]} */
export function parseAction(raw) {
  const [verb, ...rest] = raw.split(/\s+/);
  const words = rest.filter(isCard);
  return {
    raw,
    verb,
    words,
    cards: words.map((w) => w.split("=")[0].toUpperCase()),
    extra: rest.filter((w) => !isCard(w)),
  };
}

/**
 * Split `legal` for the UI:
 *   mode "direct": each card action is one card: tapping a card plays it;
 *   mode "select": the player toggles cards, then confirms the matching action;
 *   buttons: everything that is not a card action (pass, bids, alone);
 *   adjutant: "adjutant X" actions (a card picker).
 */
export function planActions(legal, game, choose = null, hand = []) {
  // a choice of cards described, not listed (a snapshot's `choose`: the exchange, 7渡し or
  // 10捨て of many ways — 200,000 actions for seven cards of 21): any min..max of the hand
  if (choose) {
    const none = choose.min === 0 ? [parseAction(choose.verb)] : [];
    return {
      mode: "select",
      cardActs: [],
      adjutant: [],
      buttons: [],
      need: choose.min === choose.max ? choose.max : null,
      legalCards: new Set(hand),
      choose,
      hand,
      none,
    };
  }
  const parsed = legal.map(parseAction);
  const cardActs = parsed.filter((a) => CARD_VERBS.has(a.verb) && (a.cards.length || a.verb !== "play"));
  const adjutant = parsed.filter((a) => a.verb === "adjutant");
  const buttons = parsed.filter((a) => !cardActs.includes(a) && !adjutant.includes(a));
  const single = cardActs.every((a) => a.verb === "play" && a.cards.length === 1);
  const mode = !cardActs.length ? "none" : single && game !== "daifugo" ? "direct" : "select";
  const sizes = [...new Set(cardActs.map((a) => a.cards.length))];
  return {
    mode,
    cardActs,
    adjutant,
    buttons,
    need: sizes.length === 1 ? sizes[0] : null,
    legalCards: new Set(cardActs.flatMap((a) => a.cards)),
  };
}

function counts(cards) {
  const m = new Map();
  for (const c of cards) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

function contains(big, small) {
  const b = counts(big);
  for (const [c, n] of counts(small)) if ((b.get(c) || 0) < n) return false;
  return true;
}

/** The card actions whose cards are exactly `selected` (a list of card names). */
export function matching(cardActs, selected) {
  return cardActs.filter((a) => a.cards.length === selected.length && contains(a.cards, selected));
}

/** Can `card` be added to `selected` on the way to some legal action? */
export function extendable(cardActs, selected, card) {
  const want = [...selected, card];
  return cardActs.some((a) => contains(a.cards, want));
}

/** The direct-mode actions that play `card` ("play 8S", "play 8S call"). */
export function actionsForCard(cardActs, card) {
  return cardActs.filter((a) => a.cards.length === 1 && a.cards[0] === card);
}

/** The actions of `plan` whose cards are exactly `selected` (see `matching`). */
export function fits(plan, selected) {
  const c = plan.choose;
  if (!c) return matching(plan.cardActs, selected);
  if (!selected.length) return plan.none;
  if (selected.length < c.min || selected.length > c.max || !contains(plan.hand, selected)) return [];
  return [parseAction([c.verb, ...selected].join(" "))];
}

/** Whether `card` may be added to `selected` on the way to an action of `plan` (see
 * `extendable`). */
export function grows(plan, selected, card) {
  const c = plan.choose;
  if (!c) return extendable(plan.cardActs, selected, card);
  return selected.length < c.max && contains(plan.hand, [...selected, card]);
}

/** The most cards an action of `plan` that holds `selected` has, or -1 if none does. */
export function most(plan, selected) {
  const c = plan.choose;
  if (c) return contains(plan.hand, selected) ? Math.min(c.max, plan.hand.length) : -1;
  const longer = plan.cardActs.filter((a) => contains(a.cards, selected));
  return longer.length ? Math.max(...longer.map((a) => a.cards.length)) : -1;
}
