// Card motion on the felt and the pause to read a finished trick.
//
// A card that appears in the trick (or on Daifugo's table) travels there from its player's seat;
// a finished trick stays on the felt for TRICK_PAUSE_MS, then sweeps to its winner before the
// felt shows the present; the next trick's first card ends the pause at once (the felt shows the
// trick the player follows). Daifugo: a play that was flushed at once (8切り, the last pass) stays
// as long, or until the next play (the table shows what the player answers). The
// motion uses the Web Animations API (element.animate, allowed by the Content-Security-Policy);
// under prefers-reduced-motion nothing moves but the pause stays. Only the felt waits: the hand
// and the action buttons always show the present, and a move of the player's own ends the pause.

import { FLUSHES } from "./labels.js";

/** How long a finished trick stays readable (ms). */
export const TRICK_PAUSE_MS = 1200;
const FLY_MS = 320;
const SWEEP_MS = 380;

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");

function playedCards(entry) {
  return /^play\s/.test(entry?.action || "") ? entry.action.trim().split(/\s+/).slice(1) : null;
}

export class Motion {
  /** `rerender()` draws the page again (when a pause ends). */
  constructor(rerender, pause = TRICK_PAUSE_MS) {
    this.rerender = rerender;
    this.pause = pause;
    this.prev = null; // the last view observed
    this.hold = null; // what the felt keeps showing: {kind: "trick"|"table", …}
    this.timer = null;
    this.felt = null;
    this.shown = null; // keys of the cards on the felt at the last drawing
  }

  get reduced() {
    return REDUCED.matches;
  }

  /**
   * A new view arrived (before it is drawn). Returns what happened since the previous one:
   * {played: cards newly played, trick: a trick was won (or Daifugo's table was flushed)}.
   */
  observe(view, between = null) {
    const prev = this.prev;
    this.prev = view;
    const ev = { played: 0, trick: false };
    // a game's last trick stays on the felt through the pause between games, and goes when
    // the pause ends (the next deal's first card may be this player's to lead)
    if (this.hold?.final && !between) this.stop();
    if (!prev || !view || prev.game !== view.game) {
      this.stop();
      return ev;
    }
    return view.game === "daifugo" ? this.observeTable(prev, view, ev) : this.observeTrick(prev, view, ev, between);
  }

  observeTrick(prev, view, ev, between) {
    const before = prev.tricks || [];
    const now = view.tricks || [];
    const live = view.trick || [];
    const last = between?.last_trick;
    if (now.length < before.length || (last && !now.length && (prev.trick || []).length)) {
      // a new deal: when the game that just ended was being watched, its last trick (which the
      // new deal's view no longer holds) stays on the felt a moment, as any finished trick
      if (last && (prev.trick || []).length) {
        const seen = new Set(prev.trick.map((c) => c.card));
        ev.played = last.cards.filter((c) => !seen.has(c.card)).length;
        ev.trick = true;
        this.start({ kind: "trick", index: 1, winner: last.winner, cards: last.cards, final: { ...last, trump: between.trump, seats: between.seats } });
        return ev;
      }
      this.stop();
      ev.played = live.length;
      return ev;
    }
    if (now.length > before.length) {
      const done = now[now.length - 1];
      const seen = new Set((prev.trick || []).map((c) => c.card));
      ev.played = done.cards.filter((c) => !seen.has(c.card)).length + live.length;
      ev.trick = true;
      // (none is held when the next trick's lead came with it: the felt shows what is to be
      // followed, as below)
      if (live.length) this.stop();
      else this.start({ kind: "trick", index: now.length, winner: done.winner, cards: done.cards });
    } else {
      ev.played = Math.max(0, live.length - (prev.trick || []).length);
      // the next trick's first card ends the pause at once: the felt shows the trick the player
      // now follows, its lead travelling in from its seat (a tenth review: at their turn on a
      // phone the felt kept the finished ♥ trick and its caption, which hid the trump chip,
      // while the hand lit only the ♦ to follow the ♦10 led meanwhile, said only in the
      // last-move line). No sweep: the drawing of this view, right after, would cut it short
      // and leave the caption over an empty felt
      if (live.length) this.stop();
    }
    return ev;
  }

  observeTable(prev, view, ev) {
    // (a snapshot carries the log's newest entries: `log_from` is the index of its first, so
    // `end` counts every entry of the game)
    const end = (v) => (v.log_from || 0) + (v.log || []).length;
    const from = view.log_from || 0;
    const log = view.log || [];
    if (end(view) < end(prev)) {
      this.stop();
      return ev;
    }
    const start = Math.max(0, end(prev) - from); // the first new entry, in this view's log
    const fresh = log.slice(start);
    ev.played = fresh.filter((e) => playedCards(e)).length;
    // the table was flushed by one of the new moves: keep showing the last play before it
    let flushAt = -1;
    for (let i = fresh.length - 1; i >= 0 && flushAt < 0; i--)
      if ((fresh[i].why || []).some((w) => FLUSHES.has(w.code))) flushAt = start + i;
    // a play after the flush (the next lead) ends the pause, or starts none: the table shows
    // what the player now answers (a ninth review: the felt kept the flushed ♦10 while the
    // action bar answered the ♠Q led meanwhile). At once, with no sweep (as for a trick's
    // next lead): the sweep kept the flushed cards, then the flush's caption over an empty
    // felt, 0.2-0.6 s after the lead — at most flushes of a game with bots (a twelfth review)
    const ledSince = log.slice(Math.max(flushAt + 1, start)).some((e) => playedCards(e));
    if (ledSince) {
      if (this.hold?.kind === "table") this.stop();
      return ev;
    }
    if (flushAt < 0) return ev;
    let at = flushAt;
    while (at >= 0 && !playedCards(log[at])) at--;
    if (at < 0) return ev;
    ev.trick = true;
    const why = log.slice(at, flushAt + 1).flatMap((e) => e.why || []);
    this.start({ kind: "table", seat: log[at].seat, cards: playedCards(log[at]), why, logEnd: from + at });
    return ev;
  }

  start(hold) {
    clearTimeout(this.timer);
    this.hold = hold;
    // a game's last trick, twice as long: the result box comes over the felt after it (a
    // review read the box before the last card it had waited for)
    // The last trick then stays for the whole pause, under the box — folded, the box leaves
    // the felt showing it (it went after 2.4 s and the felt stood empty for the rest of the
    // 30 s, the box folded over nothing: a twenty-ninth review)
    this.timer = setTimeout(() => (hold.final ? this.settle(hold) : this.release()), hold.final ? 2 * this.pause : this.pause);
  }

  /** A game's last trick has been shown its while: the box between games may come over it. */
  settle(hold) {
    if (this.hold !== hold) return;
    hold.settled = true;
    this.rerender();
  }

  /** Whether the felt holds a pause that the box between games waits for. */
  get holding() {
    return !!this.hold && !this.hold.settled;
  }

  /** Forget any pause at once (a new deal, another game). */
  stop() {
    clearTimeout(this.timer);
    this.hold = null;
  }

  /** The player moved: the felt shows the present now (after a quick sweep). */
  acted() {
    if (this.hold) this.release();
  }

  /** The view to draw on the felt: the held trick or table while a pause lasts. */
  feltView(view) {
    const hold = this.hold;
    if (!hold || !view || view.game !== this.prev?.game) return view;
    if (hold.final) {
      // the finished game's last trick over the next deal: drawn as that game's play was
      // (its seats' bids, tricks and honors, nobody to play, the caption saying whose trick it
      // was: the boxes showed the next deal's, its first player lit — a seventh review)
      const { trump, seats, ...trick } = hold.final;
      // Hell's chip counts that deal's bids against that deal's tricks, one a card (it set
      // the finished bids against the next deal's cards, "bids 6/5" — a twelfth and a
      // thirteenth review)
      const won = seats?.tricks_won;
      const cards = view.game === "hell" && Array.isArray(won) ? won.reduce((a, b) => a + b, 0) : view.cards;
      return { ...view, ...(seats || {}), phase: "play", trick: [], tricks: [trick], trump, upcard: null, to_play: null,
        hand_sizes: (view.hand_sizes || []).map(() => 0), lastOfGame: true, cards };
    }
    if (hold.kind === "trick") {
      if ((view.tricks || []).length < hold.index) return view;
      return { ...view, trick: [], tricks: view.tricks.slice(0, hold.index) };
    }
    const entry = { seat: hold.seat, action: `play ${hold.cards.join(" ")}`, why: hold.why };
    return {
      ...view,
      table: { by: hold.seat, cards: hold.cards, stands_for: hold.cards, shape: "", size: hold.cards.length },
      log: [...(view.log || []).slice(0, Math.max(0, hold.logEnd - (view.log_from || 0))), entry],
    };
  }

  async release() {
    clearTimeout(this.timer);
    const hold = this.hold;
    if (!hold || hold.sweeping) return;
    hold.sweeping = true;
    try {
      await this.sweep(hold);
    } catch {
      /* an animation refused: show the present anyway */
    }
    if (this.hold === hold) this.hold = null;
    this.rerender();
  }

  sweep(hold) {
    const felt = this.felt;
    if (!felt || this.reduced || typeof Element.prototype.animate !== "function") return Promise.resolve();
    const cards = [...felt.querySelectorAll(".centre .trick-card, .centre .tcard")];
    const target = hold.kind === "trick" ? felt.querySelector(`.seat-box[data-seat="${hold.winner}"]`) : null;
    const runs = cards.map((el) => {
      const base = el.classList.contains("trick-card") ? "translate(-50%, -50%) " : "";
      const { dx, dy } = target ? offset(el, target) : { dx: 0, dy: 0 };
      return el.animate(
        [{ transform: `${base}translate(0px, 0px) scale(1)`, opacity: 1 },
          { transform: `${base}translate(${dx}px, ${dy}px) scale(${target ? 0.35 : 0.8})`, opacity: 0 }],
        { duration: SWEEP_MS, easing: "ease-in", fill: "forwards" },
      ).finished;
    });
    const limit = new Promise((resolve) => setTimeout(resolve, SWEEP_MS + 150));
    return Promise.race([Promise.all(runs), limit]);
  }

  /** After the felt was drawn from `shownView`: cards that just arrived travel from their seat. */
  animate(felt, shownView) {
    this.felt = felt;
    if (this.hold) felt.dataset.hold = this.hold.kind;
    else delete felt.dataset.hold;
    const cards = [...felt.querySelectorAll(".centre .trick-card, .centre .tcard")];
    if (this.hold?.sweeping && !this.reduced) {
      // drawn again while the held trick sweeps away: it has already left
      for (const el of cards) el.style.opacity = "0";
      return;
    }
    const keyed = cards.map((el, i) => [cardKey(el, i, shownView), el]);
    const first = this.shown === null;
    const before = this.shown || new Set();
    this.shown = new Set(keyed.map(([k]) => k));
    if (first || this.reduced || typeof Element.prototype.animate !== "function") return;
    for (const [key, el] of keyed) {
      if (before.has(key)) continue;
      const seat = el.dataset.trickSeat ?? shownView?.table?.by;
      const from = seat == null ? null : felt.querySelector(`.seat-box[data-seat="${seat}"]`);
      if (from) fly(el, from);
    }
  }
}

function cardKey(el, i, view) {
  if (el.dataset.trickCard) return `t ${el.dataset.trickSeat} ${el.dataset.trickCard}`;
  const tb = view?.table;
  return `d ${tb?.by} ${(tb?.cards || []).join(" ")} ${i}`;
}

function offset(el, target) {
  const a = el.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  return { dx: b.left + b.width / 2 - (a.left + a.width / 2), dy: b.top + b.height / 2 - (a.top + a.height / 2) };
}

function fly(el, from) {
  const base = el.classList.contains("trick-card") ? "translate(-50%, -50%) " : "";
  const { dx, dy } = offset(el, from);
  try {
    el.animate(
      [{ transform: `${base}translate(${dx}px, ${dy}px) scale(0.55)` },
        { transform: `${base}translate(0px, 0px) scale(1)` }],
      { duration: FLY_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" },
    );
  } catch {
    /* no animation: the card is simply there */
  }
}
