// The table page: seats before the start, then the game in play from websocket snapshots.

import { api, closable, takeNote, tokens } from "./api.js";
import { Connection, jittered } from "./conn.js";
import { drawnAfterPress, fill, h, patch, sentence, svgElement, toast, toTop, untoast } from "./dom.js";
import { BOT_ICON, inForce, onLayoutChange, renderFelt, renderPlay, seatName, statusText, tapCard } from "./game.js";
import { errorText, gameName, lang, pick, t } from "./i18n.js";
import { rulesSummary } from "./rules.js";
import { bidNode, moveNode, signed, turnTimeText, winnersText } from "./labels.js";
import { followLogs, sidePanels } from "./panels.js";
import { installKeyboard } from "./keys.js";
import { adoptInvite, adoptSeatLink, settleInvite } from "./links.js";
import { Feel } from "./feel.js";
import { BetweenPanel } from "./between.js";
import { ChatPanel } from "./chat.js";
import { HintBox } from "./hint.js";
import { TurnTimer } from "./timer.js";

/** Milliseconds after this page's own move in which a tap on a card is taken for the second
 * tap of a double tap and ignored. */
const DOUBLE_TAP_MS = 450;

/** The kind of the last pointer pressed on the page ("touch", "mouse", "pen"). */
let lastPointer = "";
document.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType; }, { capture: true, passive: true });

/** The share link's box, open over the status line on a phone in play, shuts as a menu does: a
 * tap or click elsewhere, or Escape (its summary then keeps the focus) — it stayed open over the
 * status and the scores button until its own summary was found again (a forty-eighth review). */
function shutShareBox(e) {
  const box = document.querySelector(".share-box[open]");
  if (!box) return;
  if (e.type === "keydown" ? e.key !== "Escape" : box.contains(e.target)) return;
  box.open = false;
  if (e.type === "keydown") box.querySelector("summary")?.focus();
}
document.addEventListener("pointerdown", shutShareBox, { passive: true });
document.addEventListener("keydown", shutShareBox);

export function tablePage(root, id) {
  const page = new TablePage(root, id);
  page.start();
  return page;
}

/** ``el`` says with its ``data-more`` attribute whether more of it lies below its foot (it
 * scrolls), kept as it scrolls or changes size; the function that looks again. */
function markMoreBelow(el) {
  const look = () => {
    const below = el.scrollHeight - el.clientHeight - el.scrollTop > 4;
    if (below !== ("more" in el.dataset)) el.toggleAttribute("data-more", below);
  };
  el.addEventListener("scroll", look, { passive: true });
  if (typeof ResizeObserver === "function") new ResizeObserver(look).observe(el);
  return look;
}

class TablePage {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.host = tokens.host(id);
    this.leftAt = 0; // when this page last got up from its seat (see getUp)
    this.asking = false; // whether a seat said lost is being asked for again (see onError)
    adoptInvite(id);
    adoptSeatLink(id);
    const mine = tokens.seat(id);
    this.seatToken = mine?.token || null;
    this.snap = null;
    this.table = null;
    this.bots = [];
    this.ui = { selected: [], choice: null, armed: null, bidAt: null, hand: [] };
    onLayoutChange(() => this.render()); // (a phone turned, a window narrowed: drawn for it)
    this.legalKey = "";
    this.pending = false;
    this.finished = [];
    this.lastResult = null;
    this.seenGames = null;
    this.build();
  }

  build() {
    this.el = {
      head: h("div", { class: "table-head" }),
      seats: h("section", { class: "panel seats-panel", id: "seats" }),
      // (the live region is the status text, not the line: its "Scores & info ↓" button was
      // read out after every status, a fourth review)
      status: h("div", { id: "status", class: "status" }),
      // the last move, said politely as it comes (a bot's moves were never announced)
      last: h("div", { class: "last-move muted small", id: "last-move", "aria-live": "polite", "aria-atomic": "true" }),
      // back after an absence: how many moves the server made for this seat meanwhile
      stoodIn: h("div", { class: "stood-in", id: "stood-in", role: "status", hidden: true }),
      // the connection lost: said over the table, not only by the header's small word (a
      // sixth review: the felt went on saying "Your turn" while nothing could arrive)
      connBanner: h("div", { class: "conn-banner", id: "conn-banner", role: "alert", hidden: true }),
      felt: h("div", { class: "felt", id: "felt" }),
      // Daifugo's chips of what is in force, under the felt on a phone upright (style.css): in
      // the felt's corner a short felt (a 360×640 phone, or a longer status) had no room for
      // them, and they lay over the lower left seat's box. Said by the info panel; not twice
      flags: h("div", { class: "flags felt-flags", id: "felt-flags", "aria-hidden": "true" }),
      // what a screen reader is told beside the moves: who took a trick and why, how a game
      // went (it heard every card, but never who won a trick, whether the contract was made,
      // nor its points: a sixteenth review)
      announce: h("div", { class: "sr-only", id: "announce", "aria-live": "polite", "aria-atomic": "true" }),
      actions: h("div", { class: "actions", id: "actions" }),
      hand: h("div", { class: "hand", id: "hand", "aria-label": t("handKeys"), tabindex: "-1" }),
      side: h("aside", { class: "side-col", id: "side" }),
    };
    const e = this.el;
    // social: between-games result, turn timer, hint, chat (their own modules)
    this.social = { between: new BetweenPanel(this), timer: new TurnTimer((seat) => seatName(this.table, seat), (text) => this.say(text)), hint: new HintBox(this), chat: new ChatPanel(this) };
    const so = this.social;
    e.playMain = h("div", { class: "play-main", id: "play" }, so.between.el, e.connBanner, e.status, e.stoodIn, so.timer.el, e.felt, e.flags, e.last, e.announce, e.actions, so.hint.el, e.hand);
    // the trick's taker, whichever drawing of the felt shows it (the turn's, or the finished
    // trick held a moment)
    new MutationObserver(() => {
      const taker = e.felt.querySelector("#trick-taker")?.textContent;
      if (taker && taker !== this.saidTaker) this.say(taker);
      this.saidTaker = taker ?? null;
      // and what a Daifugo play did (a revolution, 8切り, 7渡し, 都落ち), once each
      const why = e.felt.querySelector("#daifugo-why");
      const key = why ? `${why.dataset.at}:${why.textContent}` : null;
      if (key && this.saidWhy !== undefined && key !== this.saidWhy) this.say(why.textContent);
      this.saidWhy = key;
    }).observe(e.felt, { childList: true, subtree: true, characterData: true });
    // on a phone the panels slide up over the table: a way back, in view while they cover it
    e.back = h("button", { type: "button", class: "ghost side-back", id: "side-back",
      onclick: () => toTop() }, t("sideBack"));
    e.sideStack = h("div", { class: "side-stack" }, e.back, e.side, so.chat.el);
    e.play = h("div", { class: "play-layout" }, e.playMain, e.sideStack);
    fill(this.root, h("div", { class: "table-page" }, e.head, e.seats, e.play));
    installKeyboard(e.playMain, () => this.isMyTurn());
    this.feel = new Feel(this); // hand order, rules, sounds, title call, card motion
    // a press on the side column (a record's or a replay's link) holds the side's redraw: new
    // content above it (a bot's move, the log growing) would move the link under the press
    this.drawSide = drawnAfterPress(e.side, () => this.renderSide());
    // the side column says when more lies below its foot: it fades there (a laptop's column
    // cut the score sheet under the chat with nothing to say it scrolled: a fifteenth review);
    // and so does the turn's panel, where it scrolls (a small phone: the Discard button lay
    // wholly below its foot with nothing to say so, a twenty-seventh review)
    this.sideMore = markMoreBelow(e.side);
    this.actionsMore = markMoreBelow(e.actions);
  }

  async start() {
    this.loadBots();
    await settleInvite(this.id); // (a link's invite replaces the one held only if it opens the table)
    // (with the seat's token, or the host's: a table's own people read it back into memory
    // without the address's --load-rate; and a 429 asked again after a moment — after a
    // server's restart an office's tabs all came back at once, and past five the page said
    // "rate limited" for good: a nineteenth scale audit)
    for (let wait = 500; ; wait *= 2) {
      try {
        this.table = await api.table(this.id, this.seatToken || this.host);
        break;
      } catch (e) {
        if (e.status === 429 && wait <= 8000) {
          await new Promise((done) => setTimeout(done, jittered(wait)));
          continue;
        }
        fill(this.root, h("div", { class: "panel" }, h("p", {}, e.status === 404 ? t("notFound") : e.message),
          h("a", { href: "/" }, t("back"))));
        return;
      }
    }
    // a quick play's table, to be started once this page's socket is there (see onSnapshot):
    // "Starting…" meanwhile, not a waiting room's Start
    this.arriving = !!this.host && this.table.status === "waiting" && !!takeNote("torampu.arrive", this.id);
    if (this.arriving) this.starting = true;
    this.render();
    // without a seat, the host's token: the host watches their own table (a private one
    // too, whatever became of its invite)
    this.conn = new Connection(this.id, this.seatToken || this.host, tokens.invite(this.id), {
      snapshot: (m) => this.onSnapshot(m),
      error: (m) => this.onError(m),
      status: (s) => this.onStatus(s),
      message: (m) => (m.type === "hint" ? this.social.hint.onHint(m) : this.social.chat.onMessage(m)),
    });
  }

  // ---------------------------------------------------------------- events

  onSnapshot(msg) {
    this.snap = msg;
    if (msg.seat != null) this.asking = false; // (the seat is ours still: see onError)
    // this page's seat moved (the host swapped it, or another device of its player moved it):
    // the seat kept with the token follows, and the player is told (a fourth review: a friend
    // the host moved found themselves elsewhere without a word)
    const held = tokens.seat(this.id)?.seat;
    if (this.seatToken && msg.seat != null && held !== msg.seat) {
      tokens.setSeat(this.id, msg.seat, this.seatToken);
      if (held != null && this.movingTo !== msg.seat && msg.table?.status === "waiting")
        toast(t("movedBy", { n: msg.seat + 1 }), "info");
    }
    window.torampu = { snapshot: msg }; // for tests and the curious: this client's own data
    this.table = msg.table;
    this.pending = false;
    if (this.lostMove != null) {
      // the line died with a move on it: still this seat's turn at that version, it never
      // arrived — said, or the card came back to the hand without a word (a sixth review)
      const lost = msg.version === this.lostMove && msg.seat != null && msg.view?.to_play === msg.seat && (msg.legal?.length || msg.choose);
      this.lostMove = null;
      if (lost) toast(t("moveLost"), "info");
    }
    const key = JSON.stringify([msg.view?.hand, msg.legal, msg.choose]);
    if (key !== this.legalKey) {
      // the cards picked for this same choice before the page was loaded again (a reload in
      // the middle of an exchange forgot the picks: a ninth review's note), else none
      this.ui.selected = keptPicks(this.id, key, msg.view?.hand || []);
      this.ui.choice = null;
      this.ui.armed = null;
      this.ui.bidAt = null;
      this.legalKey = key;
    }
    this.trackResults(msg.view);
    this.feel.snapshot(msg);
    this.render();
    for (const part of Object.values(this.social)) part.onSnapshot(msg, this.el.playMain);
    if (this.arriving) this.startArrived(msg);
  }

  /** A quick play's game, started now that this page's socket is at the table (its first
   * snapshot): the bots' first moves are seen. Refused, the waiting room's Start is there. */
  async startArrived(msg) {
    this.arriving = false;
    try {
      if (msg.table?.status === "waiting") this.table = await api.start(this.id, {}, this.host);
    } catch (e) {
      toast(errorText(e));
    } finally {
      this.starting = false;
      this.render();
    }
  }

  onError(msg) {
    this.pending = false;
    // the table is gone for this page (a private table's invite was replaced, or this link
    // never held it): say so, and stop knocking
    if (msg.code === "invite_revoked" || msg.code === "not_found" || msg.code === "table_closed") {
      this.conn.close();
      this.onStatus("gone"); // (the header said "reconnecting…" under the notice: a fourth review)
      if (msg.code === "table_closed") tokens.forget(this.id);
      if (this.closed) return; // (this page closed it: on its way to the lobby)
      // (a page that was at the table when it went — its socket was reconnecting as the host
      // closed it — is told it is gone, not that there never was such a table)
      const said = { invite_revoked: "inviteRevoked", table_closed: "tableClosed" }[msg.code] || (this.snap ? "tableGone" : "notFound");
      fill(this.root, h("div", { class: "panel", id: "table-gone" },
        h("p", {}, t(said)),
        h("a", { href: "/" }, t("back"))));
      return;
    }
    // our own getting up, told back to us: the socket made a spectator's (seat_revoked), or a
    // hello with the token sent just before the seat was left (unauthorized)
    if ((msg.code === "seat_revoked" || msg.code === "unauthorized") && Date.now() - this.leftAt < 5000) {
      if (msg.code === "unauthorized") this.conn.setToken(this.host);
      this.render();
      return;
    }
    // a seat said lost is asked for once more, by a hello with its token, before the token is
    // forgotten: a process that read an old row could say so wrongly, and a token forgotten
    // is a seat lost for good (a stale seat_revoked, a ninth scale audit; the server no longer
    // sends that one, but a page cannot tell)
    if (msg.code === "seat_revoked" && this.seatToken && !this.asking) {
      this.asking = true;
      this.conn.setToken(this.seatToken);
      return;
    }
    const asked = this.asking && msg.code === "unauthorized";
    this.asking = false;
    toast(errorText(asked ? { code: "seat_revoked" } : msg));
    this.social.hint.onError(msg);
    // our seat changed hands (or our token holds nothing any more): forget the token and
    // watch as a spectator instead of saying hello with a dead token on every reconnect
    const dead = asked || msg.code === "seat_revoked" || (msg.code === "unauthorized" && this.seatToken && this.snap?.seat == null);
    if (dead) {
      tokens.clearSeat(this.id);
      this.seatToken = null;
      // (a host goes on watching by the host token)
      if (msg.code === "seat_revoked") this.conn.token = this.host;
      else this.conn.setToken(this.host);
    }
    this.render();
  }

  onStatus(state) {
    // a move sent on a line that then died never arrived (or did: the next snapshot says)
    if (state === "closed" && this.pending) this.lostMove = this.snap?.version ?? null;
    if (state !== "open") this.pending = false;
    this.connState = state;
    this.showConn();
    this.social.timer.setConnected(state === "open");
    if (this.snap) this.render();
  }

  showConn() {
    const banner = this.el?.connBanner;
    if (banner) {
      const down = this.connState === "closed";
      banner.hidden = !down;
      if (down)
        patch(banner, h("span", {}, t("connLost")), " ",
          h("button", { type: "button", class: "ghost", id: "conn-retry", onclick: () => this.conn.retryNow() }, t("retryNow")));
    }
    const el = document.getElementById("conn");
    if (!el || !this.connState) return;
    document.body.dataset.conn = this.connState;
    el.textContent = { open: t("online"), gone: t("connClosed") }[this.connState] ?? t("reconnecting");
    el.className = `conn ${this.connState}`;
  }

  trackResults(view) {
    const played = view?.match?.per_game?.length ?? 0;
    if (this.seenGames === null || played !== this.seenGames) {
      const fresh = this.seenGames !== null && played > this.seenGames;
      this.seenGames = played;
      if (played > 0) {
        this.lastResult = { index: played - 1, scores: view.match.per_game[played - 1], detail: null };
        this.freshResult = fresh;
        this.loadFinished();
      }
    }
  }

  async loadFinished() {
    try {
      this.finished = (await api.finished(this.id)).games;
      const last = this.finished.find((g) => g.index === this.lastResult?.index);
      if (last && this.lastResult) this.lastResult.detail = last.result;
      this.render();
      this.social.between.render(); // the box between games says how the game went
    } catch {
      /* the panel shows the scores from the snapshot anyway */
    }
  }

  isMyTurn() {
    const v = this.snap?.view;
    return !!v && this.snap.seat != null && v.to_play === this.snap.seat && (this.snap.legal.length > 0 || !!this.snap.choose);
  }

  act(action) {
    if (this.pending) return;
    if (!this.conn.act(action)) {
      toast(t("reconnecting"));
      return;
    }
    this.pending = true;
    this.actedAt = performance.now();
    this.el.playMain.classList.add("pending");
    this.feel.acted();
  }

  // ---------------------------------------------------------------- rendering

  /** The language changed: everything drawn again, the social parts' own words too. */
  rerender() {
    this.social.chat.relabel();
    this.render();
    this.social.between.render();
    this.social.hint.render();
    // (offline, the clock stays stopped, in the new language: counting again from the last
    // snapshot's seconds would show a time the page cannot know)
    if (this.connState === "closed") this.social.timer.relabel();
    else if (this.snap) this.social.timer.onSnapshot(this.snap, this.el.playMain);
  }

  render() {
    if (!this.table) return;
    this.showConn();
    this.renderHead();
    const started = this.table.status !== "waiting" && this.snap?.view;
    // the play begins at the page's top: where the page scrolls (a phone on its side), the
    // waiting room's scroll down to Start was kept, the status and the top seats above the
    // screen until the player's turn moved it (a nineteenth review)
    if (started && !document.body.classList.contains("in-play")) window.scrollTo(0, 0);
    document.body.classList.toggle("in-play", !!started);
    this.el.seats.hidden = !!started;
    this.el.play.hidden = !started;
    // the chat is under the seats while the table waits, open — friends talk before the start
    // (it was in the hidden play layout: a tenth review found no chat until the host started)
    // — and in the side column once it plays, as the panel begins in play (opened before the
    // start, on a phone it stayed open below the table, out of sight, and a friend's message
    // was counted nowhere: an eleventh review)
    const chat = this.social.chat.el;
    if (!started && chat.previousElementSibling !== this.el.seats) {
      this.el.seats.after(chat);
      chat.open = true;
    } else if (started && chat.parentNode !== this.el.sideStack) {
      this.el.sideStack.append(chat);
      chat.open = this.social.chat.openInPlay();
    }
    // (a focused start button gone with the redraw — "Take seat 2 and start" once a friend took
    // the last open seat — left the keys on the page's body: a code review. They go to the
    // start button drawn instead)
    const starting = ["sit-start-btn", "start-btn"].includes(document.activeElement?.id);
    if (started) this.renderGame();
    else this.renderSeats();
    if (!started && starting && (!document.activeElement || document.activeElement === document.body)) {
      (document.getElementById("sit-start-btn") ?? document.getElementById("start-btn"))?.focus({ preventScroll: true });
    }
    this.placeFocus(started ? "play" : "waiting");
    if (!this.toldName) {
      // a table made in the lobby, its maker seated under a name given for them: said once,
      // while it waits — not over the first turn of a quick game against bots, started already
      // ("'Change name' … until the start" of a game begun: a twenty-first review)
      this.toldName = true;
      // (nor over a quick play's "Starting…": the way to change it, said as its game began, was
      // taken away a moment later — a code review)
      const named = takeNote("torampu.namedFor", this.id);
      if (typeof named === "string" && this.table.status === "waiting" && !this.arriving) this.sayNamed(named);
    }
    if (started) this.renaming = false; // (a name half changed when the host started)
    // the way to change one's name, said while the table waited, goes once it has started: it
    // lay over "Your turn" on a phone, a thirty-fourth review
    if (started && this.namedSaid) untoast(this.namedSaid);
    // the hint's marks are classes the drawing does not know of: every redraw (a card
    // selected, the trick pause ending, an error) would drop them, so they are set again
    if (started) this.social?.hint?.highlight();
  }

  renderHead() {
    const tb = this.table;
    // a private table's link carries its invite in the fragment (never sent to a server)
    const invite = tb.private ? tokens.invite(tb.id) : null;
    const link = invite ? `${shareLink(tb.id)}#invite=${encodeURIComponent(invite)}` : shareLink(tb.id);
    const input = h("input", { class: "share-link", id: "share-link", readonly: true, value: link, "aria-label": t("share"), onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", class: "ghost", id: "copy-link", onclick: () => copyLink(input) }, t("copy"));
    // in the pause between games the head names the game just over, as the status line does
    // (it named the next: "game 2 of 10" above "Game 1 is over", a review)
    const between = this.snap?.between;
    const k = between ? between.game + 1 : Math.min(tb.games_played + 1, tb.games);
    // before the start, how long the match is (a friend arriving saw only the game's name)
    const progress = tb.status === "waiting" ? t("matchLength", { n: tb.games, game: tb.game }) : t("gameOf", { k, n: tb.games, game: tb.game });
    // a link made from a loopback address (localhost, 127.0.0.1) opens only on this computer
    // (said to the host, who shares the link: a friend who came by it met it too — a
    // twenty-third review)
    const local = isLoopback(location.hostname) && this.host ? h("p", { class: "muted share-note", id: "share-local" }, t("shareLocal")) : null;
    const renew = tb.private && this.host
      ? h("button", { type: "button", class: "ghost", id: "new-invite", title: t("newInviteHelp"), onclick: () => this.newInvite() }, t("newInvite"))
      : null;
    // (to a friend who came by the invite, not the host's "share it only with the people you
    // invite": the page spoke to the host — a sixteenth review)
    const privateNote = tb.private
      ? h("p", { class: "muted share-note", id: "private-note" }, t(!invite ? "privateNoInvite" : this.host ? "privateShare" : "privateShareGuest"), " ", renew)
      : null;
    // before the start, by which rules: a friend who came by the link saw the game's name and
    // the match's length, and asked which house rules (a thirty-fourth review; the dialog of
    // every rule is one press away)
    const rulesLine = tb.status === "waiting" ? this.rulesLine(tb) : null;
    const share = h("div", { class: "share" }, h("span", { class: "label" }, t("share")), input, copy);
    const inPlay = tb.status !== "waiting" && this.snap?.view;
    const shareBlock = inPlay
      ? h("details", { class: "share-box" }, h("summary", {}, t("share")), h("div", { class: "share" }, input, copy, local, privateNote))
      : [share, privateNote, local];
    patch(
      this.el.head,
      h("div", { class: "title-line" },
        h("h1", {}, gameName(tb.game)),
        h("span", { class: `badge ${tb.status}` }, t(`status_${tb.status}`)),
        tb.private ? h("span", { class: "badge private", id: "private-badge", title: t("privateHelp") }, t("private")) : null,
        h("span", { class: "muted" }, progress ? `${t("playersN", { n: tb.players })} · ${progress}` : t("playersN", { n: tb.players })),
        // the host ends a table nobody else plays at (its quick game left unfinished counted
        // against the tables they may open, with no way to end it)
        this.host && closable(tb)
          // (on a phone in play, "Close": the whole words stood alone on a line mid-header, a
          // ninth review's note; the short one fits beside the match's progress)
          ? h("button", { type: "button", class: "ghost close-table", id: "close-table", "aria-label": t("closeTable"), title: t("closeTable"), onclick: () => this.closeTable() },
            h("span", { class: "long" }, t("closeTable")), h("span", { class: "short" }, t("closeShort")))
          : null),
      rulesLine,
      shareBlock,
      this.seatToken && !inPlay ? this.mySeatLink() : null,
    );
  }

  async closeTable() {
    if (!window.confirm(t("closeTableConfirm"))) return;
    try {
      await api.close(this.id, this.host);
      this.closed = true;
      tokens.forget(this.id);
      location.assign("/");
    } catch (e) {
      toast(errorText(e));
    }
  }

  /** The host replaces a private table's invite: the old link opens nothing any more, and
   * whoever watches by it is sent away (the seated players stay). */
  async newInvite() {
    if (!window.confirm(t("newInviteConfirm"))) return;
    try {
      const res = await api.newInvite(this.id, this.host);
      tokens.setInvite(this.id, res.invite);
      history.replaceState(null, "", `${location.pathname}${location.search}#invite=${encodeURIComponent(res.invite)}`);
      this.conn.invite = res.invite;
      this.table = res.table;
      this.render();
      toast(t("newInviteDone"), "info");
    } catch (e) {
      toast(errorText(e));
    }
  }

  // a private link that takes this seat on another device (the token travels in the fragment,
  // which browsers never send to the server)
  mySeatLink() {
    const link = `${shareLink(this.id)}#seat=${encodeURIComponent(this.seatToken)}`;
    const input = h("input", { class: "share-link", id: "seat-link", readonly: true, value: link, onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", class: "ghost", id: "copy-seat-link", onclick: () => copyLink(input) }, t("copy"));
    return h("details", { class: "share seat-link" },
      h("summary", {}, t("seatLink")),
      h("p", { class: "muted" }, t("seatLinkHelp")),
      h("div", { class: "share" }, input, copy));
  }

  // before the start ------------------------------------------------

  renderSeats() {
    const tb = this.table;
    const mySeat = this.snap?.seat ?? tokens.seat(this.id)?.seat ?? null;
    const haveSeat = this.seatToken != null && mySeat != null;
    const nameInput = h("input", {
      id: "player-name", type: "text", maxlength: "40", value: tokens.name(), placeholder: t("yourName"),
      oninput: (e) => tokens.setName(e.target.value),
    });
    const rows = tb.seats.map((s) => this.seatRow(s, haveSeat, mySeat));
    const parts = [h("h2", {}, t("seats"))];
    // a friend who came by the link, before the start: where they are and what to do (the page
    // opened on the host's share notes, "watching" at its foot: a sixteenth review)
    const open = tb.seats.some((s) => s.kind === "open");
    if (!haveSeat && !this.host && open && tb.status === "waiting") {
      const seated = tb.seats.filter((s) => s.kind === "human").map((s) => seatName(tb, s.seat));
      parts.push(h("p", { class: "join-intro", id: "join-intro" }, t("joinIntro", { game: gameName(tb.game) }),
        seated.length ? ` ${t("joinSeated", { names: seated.join(t("listSep")) })}` : ""));
    }
    if (!haveSeat && open) parts.push(h("label", { class: "field inline-field" }, h("span", { class: "label" }, t("yourName")), nameInput));
    parts.push(h("ul", { class: "seat-list" }, rows));
    if (this.host && tb.status === "waiting") parts.push(this.startRow(haveSeat));
    else if (tb.status === "waiting") {
      // a full table told a newcomer only "You are watching" (a fourth review)
      const full = !tb.seats.some((s) => s.kind === "open");
      parts.push(h("p", { class: "muted", id: "waiting-note" }, haveSeat ? t("waitingStart") : t(full ? "watchingFull" : "watching")));
    }
    // patch: someone joining redraws the seats; a press on Take seat, the name being typed and
    // the host's choices in the selects stay as they are
    patch(this.el.seats, parts);
  }

  seatRow(s, haveSeat, mySeat) {
    const who = s.kind === "open" ? h("span", { class: "muted" }, t("openShort")) : h("strong", {}, seatName(this.table, s.seat));
    const kind = s.kind === "bot" ? h("span", {}, svgElement(BOT_ICON), ` ${t("bot")}`) : s.kind === "human" ? `${t("human")} · ${s.connected ? t("connected") : t("offline")}` : "";
    const controls = [];
    // (the host's way on is "Take seat 1 and start" below: a green Take on every row beside it
    // was five main buttons at once, a review; a friend who came by the link has this one)
    if (s.kind === "open" && !haveSeat)
      controls.push(h("button", { type: "button", class: this.host ? "ghost" : "primary", dataset: { take: s.seat }, "aria-label": t("takeSeatN", { n: s.seat + 1 }), onclick: () => this.take(s.seat) }, t("takeSeat")));
    // seated, one moves to an open seat before the start (seat order matters: who leads, who
    // sits beside whom; one had to leave and hope to get the other seat first)
    if (s.kind === "open" && haveSeat && this.table.status === "waiting")
      controls.push(h("button", { type: "button", class: "ghost", dataset: { move: s.seat }, "aria-label": t("sitHereN", { n: s.seat + 1 }), onclick: () => this.move(s.seat) }, t("sitHere")));
    if (this.host && this.table.status === "waiting" && s.seat !== mySeat) controls.push(this.hostSelect(s));
    if (s.seat === mySeat && this.table.status === "waiting" && this.seatToken) {
      // the name can be changed until the start (a blank one became "Player N" for good)
      if (this.renaming) {
        // (the field on the page is read, not this drawing's: a page drawn again while the
        // name was typed — someone joined — keeps its element, and "Save" saved the old name)
        const typed = () => document.getElementById("rename-input")?.value ?? input.value;
        const input = h("input", { type: "text", id: "rename-input", maxlength: "40", value: s.name || "", "aria-label": t("yourName"),
          onkeydown: (e) => { if (e.key === "Enter") this.rename(e.target.value); else if (e.key === "Escape") this.cancelRename(); } });
        controls.push(input,
          h("button", { type: "button", class: "primary", id: "rename-save", onclick: () => this.rename(typed()) }, t("save")),
          h("button", { type: "button", class: "ghost", id: "rename-cancel", onclick: () => this.cancelRename() }, t("cancel")));
        queueMicrotask(() => { if (document.activeElement?.id !== "rename-input") document.getElementById("rename-input")?.focus(); });
      } else {
        controls.push(h("button", { type: "button", class: "ghost", id: "rename-seat", onclick: () => { this.renaming = true; this.render(); } }, t("changeName")));
      }
      controls.push(h("button", { type: "button", class: "ghost", id: "leave-seat", onclick: () => this.leave() }, t("leaveSeat")));
    }
    return h("li", { class: `seat-row ${s.kind} ${s.seat === mySeat ? "me" : ""}`, dataset: { seat: s.seat } },
      h("span", { class: "seat-no" }, t("seat", { n: s.seat + 1 })), who,
      s.seat === mySeat ? h("span", { class: "you" }, `(${t("you")})`) : null,
      s.away ? h("span", { class: "badge" }, t("away")) : null,
      h("span", { class: "muted small" }, kind), h("span", { class: "controls" }, controls));
  }

  hostSelect(s) {
    const value = s.kind === "bot" ? `bot:${s.bot}` : s.kind === "open" ? "open" : "";
    const bots = this.bots.map((b) => h("option", { value: `bot:${b.spec}`, selected: value === `bot:${b.spec}` }, pick(b.label)));
    // a person's seat: what each choice does to them — the bots under "Replace Ben with", and
    // putting Ben out in a group of its own at the foot (the menu showed "Ben" over "Open seat",
    // which puts Ben out, beside the bots: a seventh review; then "Open seat (Ben leaves)"
    // first among the bots: a fourteenth)
    const human = s.kind === "human";
    const name = s.name || t("human");
    const opts = human
      ? [h("option", { value: "", selected: true, disabled: true }, name), h("optgroup", { label: t("replaceWith", { name }) }, bots)]
      : [h("option", { value: "open", selected: value === "open" }, t("openSeat")), ...bots];
    // the host arranges the table: this seat trades places with another (people keep their
    // seats' tokens; a review: two seated friends could not be swapped)
    const others = this.table.seats.filter((o) => o.seat !== s.seat && !(o.kind === "open" && s.kind === "open"));
    if (others.length)
      opts.push(h("optgroup", { label: t("swapWith") }, others.map((o) =>
        h("option", { value: `swap:${o.seat}` }, `⇄ ${t("seat", { n: o.seat + 1 })}${o.kind === "open" ? ` (${t("openShort")})` : ` (${seatName(this.table, o.seat)})`}`))));
    if (human) opts.push(h("optgroup", { label: t("putOut", { name }) }, h("option", { value: "open" }, t("openSeatPutOut", { name }))));
    return h("select", { dataset: { hostSeat: s.seat }, "aria-label": t("seat", { n: s.seat + 1 }), onchange: (e) => this.setSeat(s.seat, e.target.value, e.target) }, opts);
  }

  startRow(haveSeat) {
    // (until the bots' list comes the menu says it is coming, and holds no choice: "nobody"
    // chosen then was undone by the list's arrival, the menu drawn anew with its default —
    // a code review)
    const loading = !this.bots.length && !this.botsFailed;
    const fillSel = loading
      ? h("select", { id: "fill-bot", disabled: true, "aria-busy": "true" }, h("option", { value: "" }, t("botsLoading")))
      : h("select", { id: "fill-bot" },
        this.bots.map((b) => h("option", { value: b.spec, selected: b.spec === "heuristic" }, pick(b.label))),
        h("option", { value: "" }, t("fillNone")));
    // a host without a seat would otherwise see the filling bots take every open seat, theirs
    // too, and be left watching: the main button seats them first, watching is the second choice
    const open = haveSeat ? null : this.table.seats.find((s) => s.kind === "open");
    // the menu on the page, read as the button is pressed: a page drawn again (patch) keeps
    // its element and what was chosen in it, not this one's (a choice of "nobody" started the
    // table with bots)
    const chosen = () => document.getElementById("fill-bot")?.value ?? fillSel.value;
    const busy = this.starting ? { disabled: true, "aria-busy": "true" } : {};
    const buttons = open
      ? [h("button", { type: "button", class: `primary big${this.quietStart ? " quiet-focus" : ""}`, id: "sit-start-btn", ...busy, onclick: () => this.startGame(chosen, open.seat) }, this.starting ? t("startingWait") : t("sitAndStart", { n: open.seat + 1 })),
        h("button", { type: "button", class: `ghost${this.quietStart ? " quiet-focus" : ""}`, id: "start-btn", ...busy, onclick: () => this.startGame(chosen) }, t("startWatching"))]
      : [h("button", { type: "button", class: `primary big${this.quietStart ? " quiet-focus" : ""}`, id: "start-btn", ...busy, onclick: () => this.startGame(chosen) }, this.starting ? t("startingWait") : t("start"))];
    // "Take seat 1 and start" before anyone came read as the only way on: a host who meant to
    // wait for friends is told how they come and what becomes of the seats still open
    const waiting = this.table.seats.filter((s) => s.kind === "open").length - (haveSeat ? 0 : 1);
    return h("div", { class: "start-row" }, h("label", { class: "field inline-field" }, h("span", { class: "label" }, t("fill")), fillSel),
      ...buttons, h("span", { class: "muted small" }, t("host")),
      waiting > 0 ? h("p", { class: "muted small start-note", id: "start-note" }, t("startNote")) : null);
  }

  /** The line naming the table's rules (drawn again once they are read, in the page's language;
   * not read, asked again at a later drawing, at most every few seconds). */
  rulesLine(tb) {
    const key = `${tb.id} ${tb.preset} ${JSON.stringify(tb.rules)} ${lang()}`;
    const again = this.rulesRead?.key === key && !this.rulesRead.said && !this.rulesRead.asking && Date.now() - this.rulesRead.at > 5000;
    if (this.rulesRead?.key !== key || again) {
      const read = (this.rulesRead = { key, said: null, asking: true, at: Date.now() });
      rulesSummary(tb)
        .catch(() => null)
        .then((said) => {
          read.asking = false;
          if (this.rulesRead !== read || !said) return;
          read.said = said;
          this.renderHead();
        });
    }
    const said = this.rulesRead.said;
    if (!said) return null;
    // (and the time for a move, where the table has one: friends who chose a quick game see it)
    const turn = tb.turn_timeout > 0 ? ` · ${t("turnTimeLine", { time: turnTimeText(tb.turn_timeout) })}` : "";
    return h("p", { class: "muted head-rules", id: "head-rules" },
      `${t("feelPreset")}: ${said.preset}`, said.changed ? ` · ${t("feelChangedHere")}: ${said.changed}` : "", turn, " ",
      h("button", { type: "button", class: "linkish", id: "head-rules-open", onclick: () => this.feel.rules.open() }, t("rulesSeeAll")));
  }
  /** Say the name this person was seated under, and how to change it (until the start). */
  sayNamed(name) {
    this.namedSaid = t("namedForYou", { name });
    toast(this.namedSaid, "info");
  }
  /** Take ``seat`` under the typed name; whether it was taken (else the reason is shown). */
  async take(seat) {
    const typed = (document.getElementById("player-name")?.value || "").trim();
    const name = typed.slice(0, 40) || t("playerN", { n: seat + 1 });
    try {
      const res = await api.join(this.id, { name, seat });
      tokens.setSeat(this.id, res.seat, res.token);
      this.seatToken = res.token;
      this.table = res.table;
      this.conn.setToken(res.token);
      this.render();
      // seated under a name given for them: said, with the way to change it (it happened
      // silently, and the chat told everyone "プレイヤー1 took seat 1": a sixteenth review)
      if (!typed && this.table.status === "waiting") this.sayNamed(name);
      return true;
    } catch (e) {
      toast(errorText(e));
      return false;
    }
  }

  /** Get up from this page's seat before the start: the seat is open again, and the page
   * watches (the server makes its socket a spectator's and says so; that is not news here). */
  cancelRename() {
    this.renaming = false;
    this.render();
    document.getElementById("rename-seat")?.focus();
  }

  /** Sit under another name (before the start). */
  async rename(typed) {
    const name = String(typed || "").trim();
    if (!name) {
      toast(t("nameEmpty"));
      return;
    }
    try {
      const res = await api.rename(this.id, name, this.seatToken);
      tokens.setName(name);
      this.table = res.table;
      this.renaming = false;
      this.render();
      document.getElementById("rename-seat")?.focus();
    } catch (e) {
      toast(errorText(e));
    }
  }

  /** Get up from the seat before the start (it is open again). */
  async leave() {
    await this.getUp(() => api.leave(this.id, this.seatToken));
  }

  /** Give up this page's seat by `ask()` (the server's answer: the table after); whether it
   * was given up (else the refusal is shown). The page watches on, its token forgotten — and
   * the "no longer yours" its own socket is told is not shown (see `leftAt`). */
  async getUp(ask) {
    this.leftAt = Date.now();
    try {
      const res = await ask();
      tokens.clearSeat(this.id);
      this.seatToken = null;
      this.table = res.table;
      this.conn.token = this.host;
      this.render();
      return true;
    } catch (e) {
      this.leftAt = 0;
      toast(errorText(e));
      return false;
    }
  }

  /** A player who must go says so, and the others play on with a bot at once (they waited a
   * minute at each turn for a stand-in: a forty-first review) — in the side column, under the
   * seat's other device (in the title line it pushed a phone's felt down a line). */
  leaveGameButton() {
    if (this.table?.status !== "playing") return null;
    return h("button", { type: "button", class: "ghost leave-game", id: "leave-game", onclick: () => this.leaveGame() }, t("leaveGame"));
  }

  /** Leave the game in progress for good: a bot plays the seat on, and this page watches. */
  async leaveGame() {
    if (!window.confirm(t("leaveGameConfirm"))) return;
    this.leftSeat = this.snap?.seat ?? null; // (the chat's line of it is not toasted here too)
    // (the page turned to a spectator's with no word, a 42nd review; told as news, not as an
    // error — a 43rd)
    if (await this.getUp(() => api.leaveGame(this.id, this.seatToken))) toast(t("leftGame"), "info");
  }

  /** Move this page's player to the open seat `seat` (before the start). */
  async move(seat) {
    this.movingTo = seat; // (our own move: no "the host moved you")
    try {
      const res = await api.move(this.id, seat, this.seatToken);
      tokens.setSeat(this.id, res.seat, this.seatToken);
      this.table = res.table;
      this.render();
    } catch (e) {
      toast(errorText(e));
    }
  }

  async setSeat(seat, value, select = null) {
    if (value.startsWith("swap:")) {
      try {
        this.table = await api.swap(this.id, seat, Number(value.slice(5)), this.host);
      } catch (e) {
        toast(errorText(e));
      }
      // the menu shows the seat's holder again, not "⇄ seat N" (see the person's case below)
      if (select) select.value = [...select.options].find((o) => o.hasAttribute("selected"))?.value ?? "";
      this.render();
      return;
    }
    // putting a person out of their seat bars them from this table's seats (unless they share
    // the host's address): say so first
    const was = this.table.seats[seat];
    if (was?.kind === "human" && !window.confirm(t("removeConfirm", { name: was.name || t("seat", { n: seat + 1 }) }))) {
      // the menu shows the person again (a redraw keeps what was picked in a field: it showed
      // "open" though the person still sat there, a second review)
      if (select) select.value = "";
      this.render();
      return;
    }
    // with the seat's holder as shown here: if the person moved or left meanwhile, the server
    // refuses rather than put out whoever sits there now (a twenty-second audit)
    const body = { ...(value === "open" ? { open: true } : { bot: value.slice(4) }), holder: was?.holder ?? null };
    try {
      this.table = await api.setSeat(this.id, seat, body, this.host);
      this.render();
    } catch (e) {
      toast(errorText(e));
      this.render();
    }
  }

  /** Where the keyboard starts, once each time the page comes to `stage` ("waiting", "play")
   * with the focus nowhere (on the page's body): after "Create table" it fell to the body, and
   * after Start too — 19 Tabs to the Start button (a sixteenth review). Waiting: the host's
   * start button, or a newcomer's name field (not on a touch screen: its keyboard would pop
   * up); in play, the hand, where the arrow keys choose a card. Neither shows its ring until a
   * key is pressed: a gold ring round Start the moment the table was made read as "press me
   * now", before any friend had come (a fifty-first review) — and a phone, which has no keys,
   * focuses nothing. */
  placeFocus(stage) {
    if (this.focusStage === stage) return;
    this.focusStage = stage;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const touch = window.matchMedia?.("(pointer: coarse)").matches;
    // the hand takes the keys at the start of play, but shows no ring until a key is pressed:
    // a gold frame round the whole hand through the auction read as "play a card", and on a
    // phone (no keys) cut the hint's line (a twenty-fifth review)
    const target = stage === "play" ? (touch ? null : this.el.hand)
      : touch ? null
      : this.host ? document.getElementById("sit-start-btn") ?? document.getElementById("start-btn")
      : document.getElementById("player-name");
    if (target && target !== document.getElementById("player-name")) {
      // (Start's class is drawn from this.quietStart: the waiting room is drawn again with each
      // snapshot, and patch() gives a kept button the class drawn)
      if (target !== this.el.hand) this.quietStart = true;
      target.classList.add("quiet-focus");
      const loud = () => {
        this.quietStart = false;
        for (const el of [this.el.hand, document.getElementById("sit-start-btn"), document.getElementById("start-btn")]) el?.classList.remove("quiet-focus");
        document.removeEventListener("keydown", loud, true);
        target.removeEventListener("focusout", left);
      };
      // (not when the window loses the focus, the element keeping it: a host gone to another
      // app to send the link came back to a gold ring round Start, no key pressed — a code
      // review)
      // (nor when a redraw removed the focused "Take seat N and start": the removal is a
      // focusout too, and render() hands the keys to the Start drawn instead — still quiet)
      const left = () => setTimeout(() => {
        if (!document.hasFocus()) return;
        if (target !== this.el.hand && ["sit-start-btn", "start-btn"].includes(document.activeElement?.id)) return;
        loud();
      });
      document.addEventListener("keydown", loud, true);
      target.addEventListener("focusout", left);
    }
    target?.focus({ preventScroll: true });
  }

  /** Tell a screen reader `text` (the announcer, a polite live region). */
  say(text) {
    const el = this.el.announce;
    // (emptied first, and set a moment later, so that a line like the last is read again; what
    // comes meanwhile — a game's last trick and its result at once — is said with it, not over
    // it)
    this.saying = [...(this.saying || []), text];
    if (this.saying.length > 1) return;
    el.textContent = "";
    setTimeout(() => {
      // (each but the last closed by its own stop: "Made before the end.. Your turn", and in
      // Japanese "。." — a fifty-fifth review)
      el.textContent = this.saying.map((said, i, all) => (i < all.length - 1 ? sentence(said) : said)).join(lang() === "ja" ? "" : " ");
      this.saying = [];
    }, 60);
  }

  /** Start the table, seated first at ``sitAt`` if given; ``fill()``: the bot chosen to fill
   * the open seats, read once the bots' list has come — Start pressed before it came filled
   * them with nobody, the menu holding only "nobody" yet, and was refused (a CI run's page,
   * loaded slowly, said "That seat is open already"). */
  async startGame(fill, sitAt = null) {
    // once at a time (a second press while the list was out seated the host twice over: "That
    // seat was just taken"), and said while it waits (on a slow line nothing moved for seconds)
    if (this.starting) return;
    this.starting = true;
    this.render();
    try {
      if (!this.bots.length) await this.loadBots();
      // (not "choose a bot" from a menu without one; a table full of people starts as ever)
      const toFill = this.table.seats.some((s) => s.kind === "open" && s.seat !== sitAt);
      if (!this.bots.length && this.botsFailed && toFill) {
        toast(t("botsUnavailable"));
        return;
      }
      const fillBot = fill();
      if (sitAt != null && !(await this.take(sitAt))) return;
      try {
        this.table = await api.start(this.id, fillBot ? { fill: fillBot } : {}, this.host);
      } catch (e) {
        // (a seat still open at the start is not "open already", the words of a seat the host
        // opened twice)
        toast(e?.code === "seat_open" ? t("startSeatsOpen") : errorText(e));
      }
    } finally {
      this.starting = false;
      this.render();
    }
  }

  /** The bots a seat may be given (the host's menus), asked for once more if the last asking
   * failed; the page is drawn again when they come. */
  loadBots() {
    if (!this.botsReady || this.botsFailed) {
      this.botsFailed = false;
      this.botsReady = api.bots().then((b) => { this.bots = b.bots; this.render(); }, () => { this.botsFailed = true; this.render(); });
    }
    return this.botsReady;
  }

  // in play ----------------------------------------------------------

  renderGame() {
    const { view, legal, seat } = this.snap;
    const ctx = this.playContext(legal, seat);
    this.ui.hand = view.hand || [];
    const status = this.el.status;
    // (with chat unread, to the chat itself, opened: it lay at the bottom of the panels, under
    // the standings and the log — a tenth review. To the band above the panels, not to the
    // panels: the band sticks at the top and covered their first heading — a thirtieth review)
    const jump = h("button", { type: "button", class: "ghost side-jump", id: "side-jump",
      onclick: () => (this.social.chat.unread ? this.social.chat.show() : this.el.sideStack.scrollIntoView({ behavior: "smooth", block: "start" })) },
      this.social.chat.jumpLabel());
    // in the pause between two games the next deal is already made, but nobody plays it yet:
    // the status says the last game is over, not whose turn it will be
    const between = this.snap.between;
    let line = between ? `${t("sc_gameOver", { k: between.game + 1, game: view.game })} — ${t("sc_nextDealt", { game: view.game })}` : statusText(view, ctx);
    // the match's winner said at once: the box with the results comes after the last trick's
    // pause, and the line said only "The match is over" meanwhile (a thirty-second review)
    const won = this.table.status === "over" ? winnersText(this.table.result, (s) => seatName(this.table, s, true)) : null;
    if (won) line = `${line.replace(/[.。]$/, "")} — ${won}`;
    patch(status, h("span", { class: "status-text", role: "status", "aria-live": "polite" }, seat == null ? `${t("watchingShort")} · ${line}` : line), jump);
    // (in the side column — the chat, the scores — the bar back says when the turn is the
    // player's: it said "Back to the table" alone, and a phone's player typing in the chat sat
    // there while the table waited, a fortieth review)
    this.el.back.textContent = t(this.isMyTurn() ? "sideBackTurn" : "sideBack");
    this.el.back.classList.toggle("mine", this.isMyTurn());
    status.dataset.myTurn = this.isMyTurn() ? "1" : "0";
    status.dataset.phase = view.phase;
    status.dataset.version = String(this.snap.version);
    status.classList.toggle("mine", this.isMyTurn());
    this.renderLast();
    this.renderStoodIn();
    const felt = this.feel.feltView(view);
    renderFelt(this.el.felt, felt, ctx);
    fill(this.el.flags, inForce(felt));
    const focus = rememberFocus();
    renderPlay(this.el.hand, this.el.actions, view, ctx, this.ui);
    this.showInActions();
    // (the seats' chat lines placed once the felt has its size: before the turn's buttons and
    // hand were drawn a phone's felt was 117 px taller than the one shown, a code review)
    this.social.chat.decorate();
    keepPicks(this.id, this.legalKey, this.ui.selected.map((i) => this.ui.hand[i]));
    this.el.playMain.classList.toggle("pending", this.pending);
    this.drawSide();
    restoreFocus(focus);
    this.feel.rendered();
  }

  /** A phone's bid picker shows the suits of the bids of number ``n`` (a bid marked goes
   * unmarked). */
  setBidAt(n) {
    this.ui.bidAt = n;
    this.ui.armed = null;
    this.render();
  }

  /** Where the turn's panel scrolls (a small phone), the button the player is to press next —
   * the bid a first tap marked, the hint's, the Discard or Play a full choice made — is scrolled
   * into its view: at 360×740 the hint's line squeezed the panel and the suggested bid, then
   * Discard, lay below its foot (a twenty-seventh review). */
  showInActions() {
    const box = this.el.actions;
    this.actionsMore();
    if (box.scrollHeight <= box.clientHeight + 1) return;
    // (the one the player marked first, then the hint's, then a full choice's button; and
    // each once: every redraw snapping the panel back fought the player's own scrolling)
    const next = [".armed", ".hinted:not([disabled])", ".select-bar button.primary"].map((q) => box.querySelector(q)).find(Boolean);
    const key = next ? `${this.snap?.version}:${next.dataset.action ?? next.dataset.card ?? next.textContent}` : null;
    if (!next || key === this.shownInActions) return;
    this.shownInActions = key;
    const b = next.getBoundingClientRect(), r = box.getBoundingClientRect();
    if (b.bottom > r.bottom) box.scrollTop += b.bottom - r.bottom + 4;
    else if (b.top < r.top) box.scrollTop -= r.top - b.top + 4;
  }

  /** The side column for the current snapshot (patch: a bot's move redraws it; an open panel
   * stays, and while a press on it lasts it waits: see the constructor). */
  renderSide() {
    const view = this.snap?.view;
    if (!view) return;
    followLogs(this.el.side, () => patch(this.el.side, sidePanels(view, {
      table: this.table, mySeat: this.snap.seat, lastResult: this.lastResult, freshResult: this.freshResult,
      finished: this.finished, tableId: this.id, between: this.snap.between,
    }), this.seatToken ? h("section", { class: "panel side" }, this.mySeatLink(), this.leaveGameButton()) : null));
    this.sideMore();
  }

  playContext(legal, seat) {
    return {
      table: this.table,
      mySeat: seat,
      live: true,
      between: !!this.snap?.between, // the pause between games: nobody is to play yet
      legal: this.pending ? [] : legal,
      // a choice of cards described rather than listed (see planActions)
      choose: this.pending ? null : this.snap?.choose || null,
      act: (a) => this.act(a),
      armed: this.ui.armed,
      arm: (a) => { this.ui.armed = a; this.render(); },
      // a phone's bid picker: the number whose suits are shown (a bid marked goes unmarked)
      bidAt: this.ui.bidAt,
      setBidAt: (n) => this.setBidAt(n),
      clear: () => { this.ui.selected = []; this.render(); },
      onCard: (i, card, plan, event) => {
        // a tap (or a mouse's second click) just after this page's own move is the second of
        // a double tap, not a move: a trick the player took came back at once as their lead,
        // and the second tap played the card that had slid under the finger (a thirty-third
        // review). A keyboard's press (detail 0) is always one
        // (a click's own pointerType where it is a PointerEvent; else the press's before it:
        // older WebKit's click says nothing of the finger, a code review).
        // Only where a tap plays the card: where it only picks it (Daifugo, a choice of cards)
        // no tap is a move, and the turn come straight back — an 8 that cleared the table, a
        // pass that ended the round — lost the first tap on a card made within the moment, no
        // Play button, the player waiting on it (3 of 22 moves on a phone: a review)
        const soon = performance.now() - (this.actedAt ?? -Infinity) < DOUBLE_TAP_MS;
        const touch = (event?.pointerType || lastPointer) === "touch";
        if (soon && plan.mode === "direct" && event?.detail !== 0 && (touch || event?.detail >= 2)) return;
        tapCard(this.ui, i, card, plan, (a) => this.act(a));
        this.render();
        // a choice of so many cards (a discard, an exchange) made whole from the keyboard: on
        // to the button that sends it — it was 23 presses of Tab away, past the rest of the
        // hand and the side panels (a thirty-third review)
        if (event?.detail === 0 && plan.need != null && this.ui.selected.length === plan.need)
          this.el.actions.querySelector(".select-bar .row button.primary")?.focus();
      },
    };
  }

  /** The moves a bot made for this seat while its player was away (the snapshot's
   * `stood_in`), told until the player moves again. */
  renderStoodIn() {
    const n = this.snap.seat == null ? 0 : this.snap.stood_in || 0;
    if (this.snap.seat == null) this.timedOut = null;
    // (a move the bot made as this player's time ran out, said until their own next one)
    if (n <= 0 && this.timedOut) {
      this.el.stoodIn.hidden = false;
      patch(this.el.stoodIn, t("timedOutYou", { what: this.timedOut }));
      this.el.stoodIn.dataset.kind = "timeout";
      if (!this.social.between.el.hidden) this.social.between.place();
      return;
    }
    delete this.el.stoodIn.dataset.kind;
    this.el.stoodIn.hidden = n <= 0;
    // and which moves, the last ones (`stood_in_moves`): "a bot made 14 moves" hid a contract
    // the bot had taken on (a fourth review)
    const moves = n > 0 ? this.snap.stood_in_moves || [] : [];
    const game = this.snap.view?.game;
    // each move's game (`stood_in_games`), named where the moves went over more than one deal
    // or are of a deal over now: "♥3 · ♠K · ♥3" over two deals read as one, the same card
    // twice (a tenth review)
    const games = this.snap.stood_in_games || [];
    const now = this.snap.between ? this.snap.between.game : this.snap.view?.match?.games_played;
    const named = games.length === moves.length && games.some((g) => g !== now);
    const items = moves.map((raw, i) => {
      const first = !i || (named && games[i] !== games[i - 1]);
      const head = named && first ? h("span", { class: "stood-game" }, i ? " — " : "", t("gameNo", { k: games[i] + 1, game }), ": ") : null;
      return h("span", { class: "stood-move" }, first ? "" : " · ", head, moveNode(raw, game));
    });
    // (once the match is over there is nothing left to play: not "from here on you play")
    const over = this.snap.table?.status === "over";
    // a game that ended meanwhile: how it went for this seat (back in the next game's auction,
    // nothing said who won or that a point was lost — the result box was over: a sixteenth
    // review); the box of finished games beside has the whole of it
    const m = this.snap.view?.match;
    const ended = [...new Set(games)].filter((g) => g < now && m?.per_game?.[g]);
    const results = ended.map((g) => {
      const d = m.per_game[g][this.snap.seat] ?? 0;
      return h("span", { class: "stood-result", dataset: { game: g } }, `${t("stoodInEnded", { k: g + 1, game, delta: signed(d) })} `);
    });
    if (results.length) results.push(h("span", { class: "muted" }, t("stoodInScores")));
    patch(this.el.stoodIn, n > 0 ? t(over ? "stoodInOver" : "stoodIn", { n }) : "",
      items.length ? h("span", { class: "stood-moves", id: "stood-moves" }, ` ${t(n > moves.length ? "stoodInLast" : "stoodInAll")} `, items) : null,
      n > 0 && results.length ? h("span", { class: "stood-results", id: "stood-results" }, results) : null);
    if (!this.social.between.el.hidden) this.social.between.place();
  }

  renderLast() {
    const last = this.snap.last;
    // drawn again only when it changes: a live region redrawn on every snapshot (a presence
    // change, a chat line) would say the same move again
    const key = JSON.stringify([last, lang()]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    if (!last) {
      fill(this.el.last);
      return;
    }
    const isBot = this.table.seats?.[last.seat]?.kind === "bot";
    // (the short name — the bot's strength is on its seat box: on a phone on its side the line,
    // one line, was cut at its cards, "直前: レン (CPU・普通) — 返す ♠…", a thirty-ninth review)
    const who = seatName(this.table, last.seat, true) + (last.by && last.by !== "human" && !(isBot && last.by === "bot") ? ` (${t(`by_${last.by}`)})` : "");
    const raw = String(last.action);
    // (a bid is never hidden: only discards, exchanges and gives are)
    const what = last.hidden ? t("hiddenMove", { verb: t(raw.split(/\s+/)[0]) }) : moveNode(raw, this.snap.view.game);
    // (its words read before it is drawn: a card's move is a fragment, empty once drawn, and
    // the player whose time ran out read "a bot made your move ()" — a thirty-third review)
    const said = typeof what === "string" ? what : what.textContent;
    // the auction's last pass that made, by the table's rule, its first bidder the Napoleon
    // (all_pass: first_bidder_12S): said, or a newcomer was the Napoleon without a word of why
    // (a thirty-sixth review)
    const v = this.snap.view;
    const forced = v?.game === "napoleon" && raw === "pass" && v.phase !== "bid" && v.napoleon != null && v.contract
      && v.auction?.length && v.auction.every((a) => a.action === "pass");
    // (and to the Napoleon, "you": "P1 is the Napoleon" read as someone else, the same review)
    const napWord = () => (v.napoleon === this.snap.seat ? t("allPassedYou") : t("allPassedNapoleon", { name: seatName(this.table, v.napoleon) }));
    const why = forced ? h("span", { class: "all-passed", id: "all-passed" }, ` — ${napWord()} `, bidNode(v.contract, "napoleon")) : null;
    fill(this.el.last, t("lastMove", { who, what: "" }).replace(/\s*$/, " "), h("span", {}, what), why);
    // the player whose time ran out is told so, once, with the move made for them — and it
    // stays said above the felt until their own next move (a toast of 4 s was all: a player
    // who had looked away never learnt the bot had bid 0 for them, a forty-fourth review)
    if (last.by === "timeout" && last.seat === this.snap.seat && this.toldTimeout !== this.snap.version) {
      this.toldTimeout = this.snap.version;
      this.timedOut = said;
      toast(t("timedOutYou", { what: said }), "info");
    } else if (last.seat === this.snap.seat && last.by === "human") this.timedOut = null;
  }
}

/** The table's address as this browser reached the server (scheme, host name and port of the
 * page itself): never a name the server guessed. */
export function shareLink(id) {
  return `${location.protocol}//${location.host}/t/${encodeURIComponent(id)}`;
}

function isLoopback(host) {
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]" || host === "::1";
}

/** The cards picked at table `id` for the choice `key` (a hand and its legal moves), kept
 * for this tab (sessionStorage) so that a reload keeps them: their indices in `hand`. */
function keptPicks(id, key, hand) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(`torampu.picks.${id}`) || "null");
    if (!kept || kept.key !== key || !Array.isArray(kept.cards)) return [];
    const out = [];
    for (const c of kept.cards) {
      const i = hand.findIndex((x, j) => x === c && !out.includes(j));
      if (i >= 0) out.push(i);
    }
    return out;
  } catch {
    return [];
  }
}

let keptLast = null; // (what keepPicks last wrote: each drawing of the table asks again)

function keepPicks(id, key, cards) {
  const value = cards.length ? JSON.stringify({ key, cards }) : null;
  if (value === keptLast) return;
  keptLast = value;
  try {
    const name = `torampu.picks.${id}`;
    if (value) sessionStorage.setItem(name, value);
    else sessionStorage.removeItem(name);
  } catch { /* private mode: not kept */ }
}

/** What rememberFocus gives for a control of the turn's panel it cannot name again: the focus
 * stays if that control does, else goes to the hand. */
const IN_ACTIONS = "#actions :focus";

function rememberFocus() {
  const a = document.activeElement;
  if (!a) return null;
  if (a.dataset?.card) return `[data-card="${CSS.escape(a.dataset.card)}"][data-index="${CSS.escape(a.dataset.index)}"]`;
  if (a.dataset?.action) return `[data-action="${CSS.escape(a.dataset.action)}"]`;
  // any other control of the turn's panel (the adjutant picker's quick picks, a bid table's
  // number): itself if it stays, else the hand (after the adjutant was named with Enter the
  // focus fell to the page, nowhere to be seen: a twenty-ninth review)
  if (a.closest?.("#actions")) return a.id ? `#${CSS.escape(a.id)}` : IN_ACTIONS;
  return null;
}

function restoreFocus(selector) {
  if (!selector) return;
  const a = document.activeElement;
  if (selector === IN_ACTIONS && a && a !== document.body && a.isConnected) return; // (kept)
  const el = selector === IN_ACTIONS ? null : document.querySelector(selector);
  if (el && !el.disabled) el.focus({ preventScroll: true });
  // the card played or the button pressed is gone: the hand keeps the focus, so that the arrow
  // keys and Tab go on from the play area (it fell to the page: a screen reader lost its place
  // and Tab began again at the header, a second review)
  else document.querySelector("#hand")?.focus({ preventScroll: true });
}

async function copyLink(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    toast(t("copied"), "info");
  } catch {
    input.select();
    const ok = document.execCommand && document.execCommand("copy");
    toast(ok ? t("copied") : t("copyFail"), ok ? "info" : "error");
  }
}
