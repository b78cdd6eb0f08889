// The turn timer (--turn-timeout): the server sends the seconds left when it sent the snapshot;
// this counts down from there on this page's own clock (no clock skew), on the seat to play and
// prominently when it is this player's turn.

import { h } from "./dom.js";
import { t } from "./i18n.js";

export class TurnTimer {
  constructor() {
    this.el = h("div", { class: "turn-timer", id: "turn-timer", hidden: true, role: "timer" });
    this.ticker = null;
  }

  onSnapshot(msg, root) {
    clearInterval(this.ticker);
    const timer = msg.timer;
    if (!timer) {
      this.el.hidden = true;
      return;
    }
    const end = performance.now() + timer.seconds_left * 1000;
    const mine = msg.seat === timer.seat;
    this.el.hidden = false;
    this.el.dataset.seat = String(timer.seat);
    this.el.classList.toggle("mine", mine);
    const tick = () => {
      const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
      this.el.textContent = mine ? t("sc_yourTime", { s: left }) : t("sc_theirTime", { s: left });
      this.el.classList.toggle("urgent", left <= 10);
      const box = root?.querySelector(`.seat-box[data-seat="${timer.seat}"]`) ?? root?.querySelector(`[data-seat="${timer.seat}"]`);
      if (box) box.dataset.timer = String(left);
    };
    tick();
    this.ticker = setInterval(tick, 250);
  }
}
