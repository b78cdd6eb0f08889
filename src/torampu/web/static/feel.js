// How the table feels: hand order, the rules of the table, sounds, the background-tab call and
// card motion, wired into the table page through a few hooks (see table.js):
//   new Feel(page)       after the page's elements exist
//   feel.snapshot(msg)   on each snapshot, before it is drawn
//   feel.feltView(view)  the view the felt draws (a finished trick is held for a moment)
//   feel.rendered()      after the game was drawn
//   feel.acted()         when the player sends a move

import { Attention } from "./attention.js";
import { h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { Motion } from "./motion.js";
import { RulesDialog } from "./rules.js";
import { SORT_MODES, setSortMode, sortMode } from "./sort.js";
import { playSound, setSound, soundOn } from "./sound.js";

const SOUND_GAP_MS = 320;

export class Feel {
  constructor(page) {
    this.page = page;
    this.view = null;
    this.wasMyTurn = false;
    this.gamesPlayed = null;
    // a pause's end draws the felt again, and the between-games box it kept back
    this.motion = new Motion(() => {
      page.render();
      page.social.between.render();
    });
    this.attention = new Attention(() => page.isMyTurn(), () => t("feelYourTurn"));
    this.rules = new RulesDialog(() => page.table);
    this.build();
    onLangChange(() => {
      this.paint();
      if (this.rules.el.open) this.rules.render();
    });
  }

  build() {
    this.rulesBtn = h("button", { type: "button", class: "ghost feel-btn", id: "rules-btn", onclick: () => this.rules.open() });
    this.soundBtn = h("button", { type: "button", class: "ghost feel-btn", id: "sound-btn", onclick: () => this.toggleSound() });
    const tools = h("span", { class: "feel-tools" }, this.rulesBtn, this.soundBtn);
    const lang = document.getElementById("lang");
    if (lang) lang.before(tools);
    else this.page.el.head.after(tools);
    this.sortButtons = SORT_MODES.map((mode) =>
      h("button", { type: "button", class: "feel-sort-btn", dataset: { sort: mode }, onclick: () => this.sortBy(mode) }));
    this.sortLabel = h("span", { class: "feel-sort-label" });
    this.sortBar = h("div", { class: "feel-sort", id: "hand-sort", role: "group" }, this.sortLabel, this.sortButtons);
    this.sortBar.hidden = true;
    this.page.el.hand.after(this.sortBar);
    this.paint();
  }

  paint() {
    const on = soundOn();
    this.rulesBtn.textContent = t("feelRules");
    this.rulesBtn.title = t("feelRulesTitle");
    this.soundBtn.textContent = t(on ? "feelSoundShortOn" : "feelSoundShortOff");
    this.soundBtn.title = on ? t("feelSoundOn") : t("feelSoundOff");
    this.soundBtn.setAttribute("aria-label", t("feelSound"));
    this.soundBtn.setAttribute("aria-pressed", String(on));
    this.soundBtn.dataset.on = on ? "1" : "0";
    this.sortLabel.textContent = t("feelSort");
    this.sortBar.setAttribute("aria-label", t("feelSort"));
    const game = this.view?.game;
    const mode = game ? sortMode(game) : null;
    for (const b of this.sortButtons) {
      b.textContent = t(b.dataset.sort === "suit" ? "feelSortSuit" : "feelSortStrength");
      b.setAttribute("aria-pressed", String(b.dataset.sort === mode));
    }
  }

  toggleSound() {
    setSound(!soundOn());
    this.paint();
    playSound("play");
  }

  sortBy(mode) {
    if (!this.view) return;
    setSortMode(this.view.game, mode);
    this.page.render();
  }

  snapshot(msg) {
    const view = msg.view || null;
    const ev = this.motion.observe(view, msg.between);
    this.view = view;
    const mine = !!view && msg.seat != null && view.to_play === msg.seat && ((msg.legal || []).length > 0 || !!msg.choose);
    const sounds = [];
    const played = view?.match?.games_played ?? view?.match?.per_game?.length ?? 0;
    if (this.gamesPlayed !== null && played > this.gamesPlayed) sounds.push("over");
    else if (ev.trick) sounds.push("trick");
    else if (ev.played) sounds.push("play");
    // a turn that comes straight back after the player's own move (a trick they took: theirs
    // to lead) is a new turn: its sound, and said — the status line read the same, so a
    // screen reader heard nothing of it (a thirty-third review)
    const again = this.spentAt != null && msg.version > this.spentAt;
    if (mine && (!this.wasMyTurn || again)) {
      sounds.push("turn");
      if (again && this.wasMyTurn) this.page.say(t("yourTurn"));
    }
    if (msg.version > (this.spentAt ?? Infinity)) this.spentAt = null;
    this.gamesPlayed = played;
    this.wasMyTurn = mine;
    sounds.forEach((name, i) => (i ? setTimeout(() => playSound(name), i * SOUND_GAP_MS) : playSound(name)));
  }

  feltView(view) {
    return this.motion.feltView(view);
  }

  rendered() {
    const view = this.page.snap?.view;
    this.sortBar.hidden = !view?.hand?.length;
    this.paint();
    this.motion.animate(this.page.el.felt, this.feltView(view));
    this.attention.update();
  }

  acted() {
    this.motion.acted();
    this.spentAt = this.page.snap?.version ?? null; // (this turn's move made, at this version)
  }
}
