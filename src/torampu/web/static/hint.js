// The learner's hint (tables created with "hints": true): ask the server's search bot for the
// move of this seat, from this seat's own view, once a turn; highlight it and say by how much it
// scored above the next best.

import { h, patch, spokenText } from "./dom.js";
import { t } from "./i18n.js";
import { moveNode } from "./labels.js";

export class HintBox {
  constructor(page) {
    this.page = page;
    this.el = h("div", { class: "hint-box", id: "hint", hidden: true });
    this.answer = null;
    this.asked = null;
  }

  // this turn's answer is kept for the tab (sessionStorage) so that a reload shows it again
  // rather than a button the server refuses (one hint a turn)
  get key() {
    return `torampu.hint.${this.page.id}`;
  }

  onSnapshot(msg) {
    if (this.answer && this.answer.version !== msg.version) this.answer = null;
    if (!this.answer) {
      let kept = null;
      try {
        kept = JSON.parse(sessionStorage.getItem(this.key) || "null");
      } catch {
        kept = null;
      }
      if (kept && kept.version === msg.version && kept.seat === msg.seat) {
        this.answer = kept;
        this.asked = kept.version;
        this.turnPicker(kept); // (a reload shows the hint's bid too: a code review)
      } else if (kept) sessionStorage.removeItem(this.key);
    }
    this.render();
  }

  /** A phone's bid picker turns to the number of the bid ``answer`` suggests (it showed
   * another, and the bid named was nowhere to be seen: a twenty-sixth review). */
  turnPicker(answer) {
    const bid = /^bid (\d+)[CDHSN]$/.exec(answer.action || "");
    if (bid && answer.version === this.page.snap?.version && this.page.ui.bidAt !== Number(bid[1])) this.page.setBidAt(Number(bid[1]));
  }

  /** The server could not give the hint just asked for (its bots busy, the search failed, asked
   * too fast): the turn's hint is not spent, so the button may be pressed again. */
  onError(msg) {
    if (msg.code === "hint_used" && this.page.snap) {
      this.asked = this.page.snap.version; // had on another device: the button is spent
      this.render();
      return;
    }
    if (this.asked == null || !["hint_busy", "hint_failed", "rate_limited"].includes(msg.code)) return;
    this.asked = null;
    this.render();
  }

  onHint(msg) {
    this.answer = msg;
    this.turnPicker(msg);
    try {
      sessionStorage.setItem(this.key, JSON.stringify(msg));
    } catch {
      // storage full or refused: the answer is shown, only not kept across a reload
    }
    this.render();
    // said, and the keyboard taken to what it suggests (the answer was in no live region and
    // never read; the spent button let the focus fall to the page, 8 Tabs from the bid it
    // named: a twenty-third review) — unless the player went on elsewhere meanwhile
    const said = spokenText(this.el.querySelector("#hint-answer"));
    if (said) this.page.say(said);
    const a = document.activeElement;
    if (!a || a === document.body || a.id === "hand" || a.id === "hint-button") {
      this.page.el.playMain.querySelector("button.hinted:not([disabled]), [data-card].hinted")?.focus({ preventScroll: true });
    }
  }

  render() {
    const snap = this.page.snap;
    // (a Daifugo choice of cards too many ways to list has no hint: the snapshot says so)
    const can = !!snap?.table?.hints && this.page.isMyTurn() && snap.hintable !== false;
    this.el.hidden = !can;
    if (!can) return;
    const asked = this.asked === snap.version;
    const parts = [h("button", { type: "button", class: "ghost", id: "hint-button", disabled: asked,
      onclick: () => {
        this.asked = snap.version;
        this.page.conn.send({ type: "hint" });
        this.render();
        // (spent, the button lets the keyboard go: it waits in the hand for the answer)
        if (document.activeElement === document.body) document.getElementById("hand")?.focus({ preventScroll: true });
      } }, t("sc_hint"))];
    const a = this.answer;
    if (a && a.version === snap.version) {
      const margin = hintMargin(a);
      // (a bid says it is one: "suggests: 1" in Hell's auction read as nothing, a seventh review)
      parts.push(h("span", { class: "hint-answer", id: "hint-answer", dataset: { hintAction: a.action } }, t("sc_hintSays"), " ",
        moveNode(a.action, snap.table.game), margin ? ` ${margin}` : ""));
    }
    // patch: a snapshot or a language switch between the press and the release of the button
    // keeps the same button, so the press still asks
    patch(this.el, parts);
    this.highlight();
  }

  /** Mark the suggested action's button, or the cards it plays. */
  highlight() {
    const root = this.page.el.playMain;
    for (const el of root.querySelectorAll(".hinted")) el.classList.remove("hinted");
    const a = this.answer;
    if (!a || a.version !== this.page.snap?.version) return;
    for (const el of root.querySelectorAll("[data-action]")) if (el.dataset.action === a.action) el.classList.add("hinted");
    const cards = a.action.split(" ").slice(1);
    for (const el of root.querySelectorAll("[data-card]")) if (cards.includes(el.dataset.card)) el.classList.add("hinted");
    this.page.showInActions?.(); // (the suggested button in sight where the panel scrolls)
  }
}

/** How much better the suggested move is valued than the next best, as the hint says it:
 * "(rated 12% above the next-best move)", "(rated 1.5 points above …)", or, where the difference shows
 * as nothing (or the suggestion is not the highest valued: the search's guard chose it),
 * "(rated about as good as the next-best move)"; "" with no other move to compare. */
export function hintMargin(a) {
  const alts = a.alternatives || [];
  const best = alts.find((x) => x.action === a.action);
  const next = alts.find((x) => x.action !== a.action);
  if (!best || !next) return "";
  const d = best.value - next.value;
  if (a.measure === "reward") {
    const pct = Math.round(d * 100);
    return pct > 0 ? t("sc_hintBy", { d: `${pct}%` }) : t("sc_hintClose");
  }
  const pts = d.toFixed(1);
  return Number(pts) > 0 ? t("sc_hintByPts", { d: pts }) : t("sc_hintClose");
}
