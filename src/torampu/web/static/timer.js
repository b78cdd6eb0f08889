// The turn timer (--turn-timeout), or the time until a stand-in plays for a player gone
// (--away-timeout): the server sends the seconds left when it sent the snapshot; this counts
// down from there on this page's own clock (no clock skew), on the seat to play and prominently
// when it is this player's turn.

import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { playSound } from "./sound.js";

/** When a turn's clock turns red: a quarter of the turn's time, 5 to 10 seconds. */
export function urgentAt(length) {
  return Math.min(10, Math.max(5, Math.ceil(length / 4)));
}

export class TurnTimer {
  /** `name(seat)`: how the page names a seat; `say(text)`: tells a screen reader. */
  constructor(name = (seat) => String(seat + 1), say = () => {}) {
    this.name = name;
    this.say = say;
    this.warned = null; // the turn whose player was warned
    this.el = h("div", { class: "turn-timer", id: "turn-timer", hidden: true, role: "timer" });
    this.ticker = null;
    this.shown = null; // the clock shown: { seat, mine, end } (performance.now() ms)
    this.cut = null; // that clock when the connection was lost
    this.stopped = false; // stopped while the connection is lost
  }

  /** The connection lost (`up` false) or back. While it is lost the page cannot know the
   * server's clock: it counted down to a red "0 s left" and then, back, showed 30 s again (the
   * table had waited for a player alone with bots) without a word — a sixteenth review. The
   * countdown stops and says why; the next snapshot shows the server's clock again. */
  setConnected(up) {
    if (up || this.el.hidden || this.stopped) return;
    clearInterval(this.ticker);
    this.cut = this.shown;
    this.stopped = true;
    this.el.classList.remove("urgent");
    this.el.textContent = t("sc_timerWaits");
  }

  /** The words again in the page's language, the clock still stopped while offline. */
  relabel() {
    if (this.stopped) this.el.textContent = t("sc_timerWaits");
  }

  onSnapshot(msg, root) {
    clearInterval(this.ticker);
    const timer = msg.timer;
    const cut = this.cut;
    this.cut = null;
    this.stopped = false;
    if (!timer) {
      this.el.hidden = true;
      this.shown = null;
      return;
    }
    const end = performance.now() + timer.seconds_left * 1000;
    const mine = msg.seat === timer.seat;
    // back on one's own turn with more time than was left: the table waited (alone with bots,
    // nobody else there, it pauses) — said, not a clock jumping back unexplained
    if (cut && cut.mine && mine && cut.seat === timer.seat && end > cut.end + 3000) toast(t("sc_tableWaited"), "info");
    this.shown = { seat: timer.seat, mine, end };
    // (kind "away": the player to move has gone; a stand-in plays when this runs out)
    const away = timer.kind === "away";
    this.el.hidden = false;
    this.el.dataset.seat = String(timer.seat);
    this.el.dataset.kind = away ? "away" : "turn";
    this.el.classList.toggle("mine", mine);
    // (red from a quarter of the turn's time: at a fixed 10 s a 20 s turn was red for half of
    // it; and the player is warned once, by sound and in words — the colour alone said nothing
    // to a player looking away or listening: a thirty-third review)
    const key = `${msg.version}:${timer.seat}:${timer.kind}`;
    const urgent = urgentAt(timer.timeout ?? timer.seconds_left);
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
      this.el.textContent = away ? t("sc_awayIn", { name: this.name(timer.seat), s: left })
        : mine ? t("sc_yourTime", { s: left }) : t("sc_theirTime", { name: this.name(timer.seat), s: left });
      this.el.classList.toggle("urgent", left <= urgent);
      if (mine && !away && left <= urgent && left > 0 && this.warned !== key) {
        this.warned = key;
        playSound("warn");
        this.say(t("sc_timeShort", { s: left }));
      }
      const box = root?.querySelector(`.seat-box[data-seat="${timer.seat}"]`) ?? root?.querySelector(`[data-seat="${timer.seat}"]`);
      if (box) box.dataset.timer = String(left);
    };
    tick();
    this.ticker = setInterval(tick, 250);
  }
}
