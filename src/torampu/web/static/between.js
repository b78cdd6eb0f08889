// Between games and after the match: the finished game's result, the standings, a Ready button
// with the server's countdown, and the rematch. The server decides when the next game starts
// (snapshot.between); this only shows it and says "ready".

import { api, leaveNote, takeNote, tokens } from "./api.js";
import { h, patch, sentence, spokenText, toast, toTop } from "./dom.js";
import { botHoldsSeat, seatName, titleCell } from "./game.js";
import { signed, winnersText } from "./labels.js";
import { hellScoringText, napoleonScoringText, resultSummary } from "./panels.js";
import { errorText, lang, t } from "./i18n.js";

export class BetweenPanel {
  /** page: the TablePage (its conn, snap, id, seatToken, host, lastResult). */
  constructor(page) {
    this.page = page;
    // a region to go to, not a live one: read whole on every change (its countdown ticks every
    // quarter second) it ran the results together; the status line says the game is over
    this.el = h("section", { class: "panel between", id: "between", hidden: true, role: "region", "aria-labelledby": "between-title" });
    this.deadline = 0;
    this.ticker = null;
    this.moving = false;
  }

  onSnapshot(msg) {
    const b = msg.between;
    if (b) this.deadline = performance.now() + b.seconds_left * 1000;
    // the clients that were at the table when its rematch began go along; a page opened on a
    // finished table whose rematch already exists (an old link, a late visitor) stays on the
    // results and offers the way to the rematch instead
    if (this.seen === undefined) this.arrived(msg.table);
    this.seen ??= msg.table?.rematch ? "after" : "before";
    if (msg.table?.rematch && this.seen === "before") this.follow(msg.table.rematch, msg.seat);
    this.render();
  }

  /** The box goes below the status line, however many lines it wraps to (on a phone it covered
   * its end), and below the note of what a bot made for a player back from an absence (it hid
   * it whole: a fifth review). */
  place() {
    const parent = this.el.parentElement;
    const above = ["#status", "#stood-in"].map((sel) => parent?.querySelector(sel)).filter(Boolean);
    // and again whenever they change size: the status line took its longer words ("Game 1 is
    // over — the next game is dealt…") after the box was placed, and its last line was under it
    if (!this.watching && above.length && typeof ResizeObserver !== "undefined") {
      this.watching = new ResizeObserver(() => { if (!this.el.hidden) this.place(); });
      for (const e of above) this.watching.observe(e);
    }
    let below = 0;
    for (const e of above) if (!e.hidden) below = Math.max(below, e.offsetTop + e.offsetHeight + 6);
    if (below) this.el.style.setProperty("--below", `${below}px`);
  }

  secondsLeft() {
    return Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
  }

  render() {
    const snap = this.page.snap;
    const b = snap?.between;
    const over = snap?.table?.status === "over";
    clearInterval(this.ticker);
    this.ticker = null;
    // the game's last trick (or Daifugo's last play) stays readable on the felt first: the box
    // comes once that pause ends (the pause's end draws this again)
    if (!snap || (!b && !over) || this.page.feel?.motion.holding) {
      const had = !this.el.hidden && this.el.contains(document.activeElement);
      this.el.hidden = true;
      // the keyboard was on Ready: it goes on in the play area as the next deal comes, not on
      // the page (Tab began again at the header, the arrow keys said nothing: an eighth review)
      if (had) document.querySelector("#hand")?.focus({ preventScroll: true });
      return;
    }
    this.el.hidden = false;
    this.place();
    const m = snap.view?.match;
    const k = b ? b.game : (m?.games_played ?? 1) - 1;
    // the box lies over the table: a player may fold it to look at the last trick, and open it
    // again (folded for this game's results only)
    const key = `${over ? "match" : "game"}:${k}`;
    const folded = this.folded === key;
    const news = this.broughtUp !== key;
    if (news) {
      // on a phone the box lies over the table, above the panels: a player reading the chat
      // below saw neither the result nor Ready (a second review): the table comes back up
      this.broughtUp = key;
      this.toFocus = true;
      const main = document.querySelector("main");
      const page = document.scrollingElement;
      if (((main?.scrollTop ?? 0) > 0 || (page?.scrollTop ?? 0) > 0) && window.matchMedia("(max-width: 980px), (max-height: 480px)").matches) toTop();
    }
    const fold = h("button", { type: "button", class: "ghost fold", id: "between-fold", "aria-expanded": String(!folded),
      onclick: () => { this.folded = folded ? null : key; this.render(); } }, folded ? t("sc_show") : t("sc_hide"));
    const parts = [h("div", { class: "between-head" }, h("h2", { id: "between-title" }, over ? t("sc_matchOver", { game: snap.view?.game }) : t("sc_gameOver", { k: k + 1, game: snap.view?.game })), fold)];
    this.el.classList.toggle("folded", folded);
    const mine = !!b && snap.seat != null && !b.ready.includes(snap.seat);
    const ready = () => h("button", { type: "button", class: "primary", id: "ready-button", disabled: !mine,
      onclick: () => this.page.conn.send({ type: "ready" }) }, mine ? t("sc_ready") : t("sc_readyDone"));
    if (folded) {
      if (mine) parts.push(ready());
      patch(this.el, parts);
      return;
    }
    // who won, as the server says it (table.result, the lobby's word too): a match of one game
    // won by a side (Napoleon's allied army, or the Napoleon and the adjutant) was won by the
    // side, nobody tied ("Winners (tied)" for the army, and the adjutant left out beside the
    // Napoleon's larger score: a seventh review); Hell's one game, by the best score (the seats
    // that made their bids read "Winning side": a ninth session)
    // (short names: "Winning side: Mina (normal bot), Sora (normal bot), Yui (normal bot)" ran
    // over two lines, a tenth review; the seats say which are bots)
    const won = over ? winnersText(snap.table?.result, (s) => seatName(this.page.table, s, true)) : null;
    if (won) parts.push(h("p", { class: "between-winner", id: "between-winner" }, won));
    // how the game went, before the points: the contract made or failed, the titles, the bids
    const last = this.page.lastResult;
    // (at the match's end the table beside has every game's points, not this game's column:
    // Daifugo's titles and Hell's last bids are said here — Hell's were not, and its series
    // ended on "-3" with no reason: a thirty-ninth review)
    const everyGame = over && (m?.per_game?.length ?? 0) > 1;
    const summary = last?.detail && last.index === k && snap.view?.game ? resultSummary(last.detail, snap.view.game, this.page.table, !everyGame) : null;
    // (the match over, it is the last game's, and says so: under "Winner: Yuki" it read as
    // the match's — a twenty-third review)
    const lastOfMany = over && (m?.games ?? 1) > 1;
    if (summary) parts.push(h("div", { class: "between-detail", id: "between-detail" },
      lastOfMany ? h("p", { class: "muted small between-last", id: "between-last" }, t("sc_lastGameWas", { k: k + 1, game: snap.view?.game })) : null, summary));
    parts.push(this.results(snap, k));
    // Hell's points, and why: a missed bid's "−3" came with no reason, the rule only in the
    // side panel, out of sight between deals (a forty-first review)
    // (and Napoleon's: "−2" for the Napoleon, "+1" for each ally, and no rule said why — a
    // fifty-fifth review)
    const scoring = snap.view?.game === "hell" ? hellScoringText(snap.view.rules) : snap.view?.game === "napoleon" ? napoleonScoringText(snap.view.rules) : null;
    if (scoring) parts.push(h("p", { class: "muted small", id: "between-scoring" }, `${t("hellScoring")}: ${scoring}`));
    if (news) queueMicrotask(() => this.tell(snap, k));
    // (Ready, or the rematch's buttons, in a foot of their own at the box's end)
    const inFoot = (...nodes) => h("div", { class: "between-foot" }, nodes);
    let foot = null;
    if (b) {
      const count = h("span", { class: "countdown", id: "between-countdown" }, String(this.secondsLeft()));
      const counting = h("p", { class: "between-count" }, t("sc_nextIn", { game: snap.view?.game }), " ", count, " ", t("sc_seconds"));
      // the countdown on the page (patch() may have kept the one drawn before)
      this.ticker = setInterval(() => {
        const shown = this.el.querySelector("#between-countdown");
        if (shown) shown.textContent = String(this.secondsLeft());
      }, 250);
      const names = (seats) => seats.map((s) => this.name(s)).join(t("listSep"));
      const lists = [
        b.ready.length ? h("p", { class: "muted small", id: "between-ready" }, t("sc_readyList", { names: names(b.ready) })) : null,
        b.waiting.length ? h("p", { class: "muted small", id: "between-waiting" }, t("sc_waitingList", { names: names(b.waiting) })) : null,
      ];
      // (in a foot of its own, the box's last, that stays in sight while the scores scroll
      // under it: on a phone on its side it was below them, out of sight — and the seconds
      // left and whom the table waits for beside it: they were under the scores there, and a
      // player did not know the next deal was coming, a thirty-fourth review)
      if (snap.seat != null) foot = inFoot(ready(), counting, ...lists);
      else parts.push(counting, ...lists);
    } else if (over && snap.table?.rematch && this.seen === "after") {
      const next = snap.table.rematch;
      // a player whose seat there went to a bot (away as it began) is told so, and takes it
      // back with the button (a thirteenth review: the button only said "Go to the rematch")
      const taken = this.seatTaken(next, snap.seat);
      if (taken) parts.push(h("p", { class: "between-asked", id: "rematch-taken" }, t("sc_rematchSeatTaken")));
      foot = inFoot(h("button", { type: "button", class: "primary", id: "rematch-open", onclick: () => this.follow(next, snap.seat, 0) },
        t(taken ? "sc_rematchTakeBack" : "sc_rematchOpen")));
    } else if (over) {
      // the rematch's buttons in the foot too (on a phone on its side they were below the
      // scores of every game, out of sight: a twenty-third review); who asked, above
      const asked = this.rematchParts(snap);
      const buttons = asked.filter((p) => p?.tagName === "BUTTON");
      parts.push(...asked.filter((p) => !buttons.includes(p)));
      if (buttons.length) foot = inFoot(buttons);
    }
    // the way out, whatever else the box offers (only "Not this time" led there, once someone
    // had asked for a rematch: a tenth review)
    const lobby = over && !foot?.querySelector("#rematch-decline") ? h("a", { href: "/", class: "small", id: "between-lobby" }, t("back")) : null;
    if (lobby && !foot) parts.push(lobby);
    // (the way to the replay in the foot too, where there is one: under the scores it was out
    // of sight on a phone on its side, the same review)
    const review = snap.table?.records_after_match
      ? h("p", { class: "muted small", id: "between-replay" }, t("sc_reviewLater"))
      : h("a", { href: `/t/${encodeURIComponent(this.page.id)}/replay/${k}`, class: "small", id: "between-replay", "aria-label": t("sc_review", { game: snap.table?.game }) },
        // (in a phone's foot, one word beside whom the table waits for: in two lines the box
        // reached over the next deal's hand, a thirty-fifth review)
        h("span", { class: "long" }, t("sc_review", { game: snap.table?.game })), h("span", { class: "short" }, t("sc_reviewShort")));
    // (and the way out beside it: under the scores, it lay behind the foot on a phone on its
    // side, out of sight until the box was scrolled — a forty-second review)
    if (foot) foot.append(review, ...(lobby ? [lobby] : []));
    else parts.push(review);
    if (foot) parts.push(foot);
    // kept elements where the drawing is the same: a press on Ready or Rematch that spans a
    // snapshot (another player getting ready) still clicks it
    patch(this.el, parts);
    // a new box takes the keyboard to its Ready button (12 Tabs away: a fourth review), unless
    // the player is busy elsewhere (typing in the chat, reading the side column)
    // (and at the match's end to its Rematch button: 14 Tabs away in Hell, 23 in Nap, a
    // sixth review)
    const button = this.el.querySelector("#ready-button:not([disabled]), #rematch-button:not([disabled]), #rematch-open");
    if (this.toFocus && button) {
      this.toFocus = false;
      const a = document.activeElement;
      if (!a || a === document.body || a.closest?.("#hand, #actions, #felt")) button.focus({ preventScroll: true });
    }
  }

  name(seat) {
    return seatName(this.page.table, seat);
  }

  /** The game's result, told to a screen reader once: the heading, who won, how the game went
   * and this seat's points (the box is a region to go to, not a live one; a blind player heard
   * "Game 1 is over" and nothing of how: a sixteenth review). */
  tell(snap, k) {
    const text = (sel) => spokenText(this.el.querySelector(sel)); // (a contract's suit too)
    const m = snap.view?.match;
    const s = snap.seat;
    const delta = m?.per_game?.[k]?.[s] ?? 0;
    const mine = s != null && m?.totals ? t("sc_yourPoints", { delta: signed(delta), total: m.totals[s] }) : "";
    // (each part a sentence: a stop where it has none, not "made before the end.. Your points")
    // (no space after a Japanese stop: "対戦終了。 勝利した陣営", as spokenText — a code review)
    this.page.say([text("#between-title"), text("#between-winner"), text("#between-detail"), mine].filter(Boolean).map((p) => sentence(p)).join(lang() === "ja" ? "" : " "));
  }

  results(snap, k) {
    const m = snap.view?.match;
    if (!m) return null;
    const change = m.per_game?.[k] || [];
    const rows = (m.totals || []).map((total, s) => ({ s, total, delta: change[s] ?? 0 }));
    // the game's own column: Daifugo's title each earned, Hell's bid and tricks (they were one
    // run-on line above the table, in seat order: a third review)
    const last = this.page.lastResult;
    const d = last?.index === k ? last.detail : null;
    const game = snap.view?.game;
    // Daifugo's in the order they went out, the titles just earned (大貧民 Mia above 貧民
    // Takeshi, by the totals, read oddly: a fourteenth review); the others by the totals
    const byGame = game === "daifugo" && snap.table?.status !== "over";
    const place = new Map((Array.isArray(d?.ranking) ? d.ranking : []).map((s, i) => [s, i]));
    const order = (a, b) => (place.size ? place.get(a.s) - place.get(b.s) : b.delta - a.delta);
    rows.sort((a, b) => (byGame ? order(a, b) : 0) || b.total - a.total);
    let extra = null;
    if (game === "daifugo" && d?.titles) extra = { head: t("sc_title"), cell: (s) => titleCell(d.titles[s]) };
    // Napoleon's sides, row by row: the box named the Napoleon and the adjutant above, and the
    // rows went by the points, so who fought with whom was to be worked out (a 46th review)
    else if (game === "napoleon" && Number.isInteger(d?.napoleon)) extra = { head: t("sc_side"),
      cell: (s) => (s === d.napoleon ? t("napoleon") : s === d.adjutant ? t("adjutant") : t("sc_allies")) };
    else if (game === "hell" && d?.bids) extra = { head: t("sc_bidTook"), cell: (s) => `${d.bids[s]} / ${d.tricks[s]}` };
    // the match over, each game's points in a column of its own, up to 12 (the box showed the
    // last game's alone, and nothing of how the match went: a tenth review; Hell's long
    // series has its score sheet beside)
    const games = m.per_game || [];
    if (snap.table?.status === "over" && games.length > 1 && games.length <= 12) {
      return h("div", { class: "between-scroll" }, h("table", { class: "between-scores per-game", id: "between-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, t("sc_player")),
          games.map((_, i) => h("th", { title: t("gameNo", { k: i + 1, game }) }, t("sc_gameCol", { k: i + 1, game }))), h("th", {}, t("sc_total")))),
        h("tbody", {}, rows.map((r) => h("tr", { class: r.s === snap.seat ? "me" : "", dataset: { seat: r.s } },
          h("td", {}, seatName(this.page.table, r.s, true)),
          games.map((g) => h("td", { class: (g[r.s] ?? 0) >= 0 ? "up" : "down" }, signed(g[r.s] ?? 0))),
          h("td", {}, String(r.total)))))));
    }
    // a longer match over (Hell's 23 deals): its standings alone, not the last deal's bids and
    // points beside the totals (a fifteenth review); the score sheet beside has every deal
    const standings = snap.table?.status === "over" && games.length > 12;
    if (standings) extra = null;
    // (in a box of its own that scrolls sideways on a narrow phone, the headings one line each:
    // "Total" was cut to "Tota", and 合計 wrapped a character a line, a fourth review)
    return h("div", { class: "between-scroll" }, h("table", { class: "between-scores", id: "between-scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("sc_player")), extra ? h("th", {}, extra.head) : null,
        standings ? null : h("th", {}, t("sc_change", { game })), h("th", {}, t("sc_total")))),
      h("tbody", {}, rows.map((r) => h("tr", { class: r.s === snap.seat ? "me" : "", dataset: { seat: r.s } },
        // (the short name: a bot's strength cut it to "レン (CPU・普…" on a phone, a ninth review)
        h("td", {}, seatName(this.page.table, r.s, true)), extra ? h("td", { class: "game-col" }, extra.cell(r.s)) : null,
        standings ? null : h("td", { class: r.delta >= 0 ? "up" : "down" }, signed(r.delta)), h("td", {}, String(r.total)))))));
  }

  /** After the match: who asked for a rematch, and the button to ask (or to accept). A
   * player's click is a wish the others see; the rematch is made once everyone at the table
   * has asked (a player who goes away holds nobody up). It moved everyone at the first click,
   * without asking them or saying who had (a fifth review). */
  rematchParts(snap) {
    const wanted = snap.table?.rematch_wanted || [];
    const seats = snap.table?.seats || [];
    const mine = snap.seat != null && wanted.includes(snap.seat);
    const others = wanted.filter((s) => s !== snap.seat);
    const names = (list) => list.map((s) => this.name(s)).join(t("listSep"));
    const parts = [];
    if (others.length) parts.push(h("p", { class: "between-asked", id: "rematch-asked" }, t("sc_rematchAsked", { names: names(others) })));
    if (mine) {
      const waiting = seats.filter((st) => st.kind === "human" && st.connected && !wanted.includes(st.seat)).map((st) => st.seat);
      parts.push(h("button", { type: "button", class: "primary", id: "rematch-button", disabled: true }, t("sc_rematchAskedMine")));
      // (an answer awaited, not a Ready: "準備待ち" said the pause between games' word — a
      // twenty-third review)
      if (waiting.length) parts.push(h("p", { class: "muted small", id: "rematch-waiting" }, t("sc_rematchWaitingList", { names: names(waiting) })));
      // and take it back (a wish stood once made: one who thought better of it was seated at
      // the rematch the others then made)
      if (this.page.seatToken)
        parts.push(h("button", { type: "button", class: "ghost", id: "rematch-withdraw", onclick: () => this.withdraw() }, t("sc_rematchWithdraw")));
    } else if (this.page.seatToken || this.page.host) {
      parts.push(h("button", { type: "button", class: "primary", id: "rematch-button", onclick: () => this.rematch() },
        others.length && this.page.seatToken ? t("sc_rematchAccept") : t("sc_rematch")));
      // saying no is leaving: the rematch goes on without this seat, a bot in it
      if (others.length && this.page.seatToken)
        parts.push(h("button", { type: "button", class: "ghost", id: "rematch-decline", onclick: () => location.assign("/") }, t("sc_rematchDecline")));
    }
    return parts;
  }

  /** Whether a bot plays this page's seat at the rematch ``next`` (still playing): asked once,
   * the box drawn again with the answer. */
  seatTaken(next, seat) {
    if (!this.page.seatToken || seat == null) return false;
    if (this.rematchSeat?.id === next) return this.rematchSeat.taken;
    this.rematchSeat = { id: next, taken: false };
    const invite = tokens.invite(this.page.id); // (a private table's rematch keeps its invite)
    if (invite) tokens.setInvite(next, invite);
    api.table(next, this.page.seatToken).then((tb) => {
      if (botHoldsSeat(tb, seat) && this.rematchSeat?.id === next) {
        this.rematchSeat.taken = true;
        this.render();
      }
    }).catch(() => null);
    return false;
  }

  async withdraw() {
    try {
      await api.withdrawRematch(this.page.id, this.page.seatToken);
    } catch (e) {
      toast(errorText(e));
    }
  }

  async rematch() {
    const token = this.page.seatToken || this.page.host;
    try {
      const res = await api.rematch(this.page.id, token, this.page.host);
      // (no table yet: the others have not asked; the snapshots say so)
      if (res?.table) this.follow(res.table.id, this.page.snap?.seat, 800, true);
    } catch (e) {
      toast(errorText(e));
    }
  }

  /** Every client of the old table moves to the new one; its seat and host tokens go with it.
   * A player asks for it first (``asked``: they just did): one whose seat went to a bot, gone
   * when it was made, takes the seat back there (a friend away a few seconds as the host asked
   * could only watch: an eleventh review). */
  async follow(newId, seat, delay = 800, asked = false) {
    if (this.moving) return;
    this.moving = true;
    if (this.page.seatToken && seat != null && !asked) {
      // (else, or if no answer comes in a few seconds: on to watch it)
      const ask = api.rematch(this.page.id, this.page.seatToken).catch(() => null);
      await Promise.race([ask, new Promise((done) => setTimeout(done, 5000))]);
    }
    if (this.page.seatToken && seat != null) tokens.setSeat(newId, seat, this.page.seatToken);
    if (this.page.host) tokens.setHost(newId, this.page.host);
    const invite = tokens.invite(this.page.id); // a private table's rematch keeps its invite
    if (invite) tokens.setInvite(newId, invite);
    // the people here, for the new table's page to say who did not come along
    const people = (this.page.snap?.table?.seats || []).filter((st) => st.kind === "human").map((st) => ({ seat: st.seat, name: this.name(st.seat) }));
    leaveNote("torampu.rematchFrom", newId, { people });
    toast(t("sc_rematchGo"), "info");
    setTimeout(() => location.assign(`/t/${encodeURIComponent(newId)}`), delay);
  }

  /** The first snapshot of a rematch this page followed: the people who had not asked for it
   * left, and a bot took their seats — said, or the others met bots in their friends' seats
   * without a word (a sixth review). */
  arrived(table) {
    if (!table?.seats) return;
    const from = takeNote("torampu.rematchFrom", this.page.id);
    if (!from) return;
    const gone = (from.people || []).filter((p) => table.seats[p.seat]?.kind === "bot");
    if (gone.length) toast(t("sc_rematchBots", { names: gone.map((p) => String(p.name)).join(t("listSep")) }), "info");
  }
}
