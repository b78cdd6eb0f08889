// The table chat: short texts and quick reactions, for the seated players (and the spectators
// where the host allowed it). Every message is shown as text (text nodes), never as markup.

import { own, tokens } from "./api.js";
import { fill, h, toast } from "./dom.js";
import { seatName } from "./game.js";
import { lang, t } from "./i18n.js";

export const REACTIONS = ["hello", "nice", "thanks", "dontmind", "gg", "wow", "sorry", "oops"];
const MAX = 200;
const KEEP = 100;
/** How long a quick reaction stays at its player's seat on the felt (ms). */
export const REACTION_MS = 3500;
/** How long a seated player's chat line stays at their seat on the felt (ms), and how much of it. */
export const SAID_MS = 6000;
const SAID_CHARS = 80;

/** `text` cut to `n` characters as a reader counts them (grapheme clusters: an emoji family
 * or a flag is one), with "…" when cut. */
export function cut(text, n) {
  const parts = typeof Intl.Segmenter === "function"
    ? [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((p) => p.segment)
    : [...text];
  return parts.length > n ? `${parts.slice(0, n).join("")}…` : text;
}

export class ChatPanel {
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.events = []; // comings and goings seen by this page (noteSeats)
    this.eventCount = 0;
    this.seats = null;
    this.arriving = new Set(); // seats taken whose player has not connected yet
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
    // the seats' lines placed again when the felt changes size (a phone turned on its side)
    let placing = 0;
    window.addEventListener("resize", () => {
      cancelAnimationFrame(placing);
      placing = requestAnimationFrame(() => this.decorate());
    });
    // open at first only where it leaves room for the table's panels (not on a phone, nor on a
    // laptop's 650 px height); closed, its title counts the messages not yet seen
    this.unread = 0;
    // whom this person muted at this table (kept in this browser): a seat's player by seat and
    // name, or every spectator at once (they have no names)
    this.muted = new Set(loadMuted()[page.id] || []);
    // the newest quick reaction of each seat, shown at the seat box for REACTION_MS
    this.shouts = new Map();
    // (shut until the table's page places it: open under the seats, or as openInPlay says)
    this.el = h("details", { class: "panel chat", id: "chat", hidden: true,
      ontoggle: () => { if (this.el.open) this.seen(); } });
    // whether the open chat's list is on the screen (a friend's line the felt had no place for
    // counts as unread while it is not: see decorate)
    this.listSeen = false;
    if (typeof IntersectionObserver === "function") {
      new IntersectionObserver(([e]) => {
        this.listSeen = e.isIntersecting;
        if (this.listSeen && this.el.open) this.seen();
      }).observe(this.list);
    }
    this.relabel();
  }

  /** The chat read: nothing unread, and the lines on the felt now are not counted again when
   * the felt has no place for them (a code review: a line seen, then left off the felt at the
   * next move, was counted again). */
  seen() {
    for (const shout of this.shouts.values()) shout.counted = true;
    if (this.unread) {
      this.unread = 0;
      this.renderSummary();
    }
  }

  /** (Re)build the panel's own words in the page's language; typed text and the list stay. */
  relabel() {
    const typed = this.input?.value ?? "";
    this.input = h("input", { type: "text", id: "chat-input", maxlength: String(MAX), "aria-label": t("sc_chatSay"), placeholder: t("sc_chatSay"), value: typed });
    const form = h("form", { class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.say(); } },
      this.input, h("button", { type: "submit", class: "ghost", id: "chat-send" }, t("sc_chatSend")));
    this.reactions = h("div", { class: "chat-reactions", id: "chat-reactions" },
      REACTIONS.map((id) => h("button", { type: "button", class: "ghost reaction", dataset: { reaction: id },
        onclick: () => this.page.conn.send({ type: "react", id }) }, t(`sc_r_${id}`))));
    this.summary = h("summary", { id: "chat-summary" });
    this.mutedLine = h("p", { class: "muted small chat-muted", id: "chat-muted" });
    // a spectator where the host kept the chat to the players is told so (the panel was just
    // missing, as if the page had none: a second review)
    const closed = h("p", { class: "muted small chat-closed", id: "chat-closed" }, t("sc_chatPlayersOnly"));
    fill(this.el, [this.summary, closed, this.list, this.mutedLine, this.reactions, form]);
    this.renderSummary();
    this.renderList();
  }

  renderSummary() {
    fill(this.summary, t("sc_chat"), this.unread ? h("span", { class: "unread", id: "chat-unread" }, t("sc_chatUnread", { n: this.unread })) : null);
    // on a phone the chat lies below the table: its count shows on the button that leads there
    // too (a friend's message gave no sign at all: a second review)
    const jump = this.page.el?.status?.querySelector("#side-jump");
    if (jump) fill(jump, this.jumpLabel());
  }

  /** Whether the panel begins open beside a table in play: only where it leaves room for the
   * table's panels — not on a phone, nor on a laptop's 650 px height, nor on a 1920×1080
   * screen, where six at Napoleon filled the column and the open chat, one line in it, pushed
   * the standings out of sight (a thirtieth review); shut, its title counts what is unread —
   * and not for a spectator where the chat is the players' alone (nothing to read or write). */
  openInPlay() {
    return this.allowed() && !window.matchMedia?.("(max-width: 600px), (max-height: 1199px)").matches;
  }

  /** Open the panel and bring it into view, its newest lines and the box to type in. */
  show() {
    this.el.open = true;
    this.el.scrollIntoView({ behavior: "smooth", block: "end" });
  }

  /** The label of the status line's "Scores & info ↓" button: with the unread count. */
  jumpLabel() {
    // (with a message unread the button opens the chat, and says so: "成績・情報 ↓ 1" read as a
    // score, the red 1 beside "scores" — a fifty-fourth review)
    if (!this.unread) return [t("sideJump")];
    return [t("sideJumpChat"), h("span", { class: "unread", id: "jump-unread", title: t("sc_chatUnread", { n: this.unread }) }, String(this.unread))];
  }

  allowed() {
    const snap = this.page.snap;
    return !!snap && (snap.seat != null || !!snap.table?.chat?.spectators);
  }

  onSnapshot(msg) {
    this.el.hidden = !this.page.snap;
    this.el.classList.toggle("players-only", !this.allowed());
    this.noteSeats(msg?.table, msg?.seat);
  }

  /** Lines of the table's comings and goings that the server does not keep ("Aki lost
   * connection", "Aki connected", "Aki is away", "Aki would like a rematch"), from the seats of
   * one snapshot against the last: public data every client has, kept in this page only, shown
   * among the messages in time order but never counted as unread. Who took, left or moved
   * seats, and renames, are the server's lines, stored with the chat (`eventText`): a later
   * arrival and a reloaded page read them too (a fourteenth review). */
  noteSeats(table, mine) {
    const seats = table?.seats;
    if (!Array.isArray(seats)) return;
    const before = this.seats;
    this.seats = seats.map((s) => ({ kind: s.kind, name: s.name ?? "", connected: !!s.connected, away: !!s.away, holder: s.holder ?? null }));
    const wishedBefore = this.wished;
    this.wished = new Set(Array.isArray(table.rematch_wanted) ? table.rematch_wanted : []);
    if (!before || before.length !== seats.length) return; // the first look: nothing happened yet
    const lines = [];
    // who asks for a rematch once the match is over (one's own click is the button's)
    for (const s of this.wished) {
      if (wishedBefore && !wishedBefore.has(s) && s !== mine) lines.push(t("sc_evRematch", { who: this.seats[s]?.name || t("seat", { n: s + 1 }) }));
    }
    const human = (x) => x.kind === "human";
    // one person, as far as the page can tell: the same holder (a seat's public id) where both
    // have one, else the same name
    const same = (x, y) => (x.holder && y.holder ? x.holder === y.holder : x.name === y.name);
    const changed = (i) => !same(before[i], this.seats[i]) || before[i].name !== this.seats[i].name;
    const came = (i) => human(this.seats[i]) && (!human(before[i]) || changed(i));
    seats.forEach((s, i) => {
      const was = before[i];
      const now = this.seats[i];
      const who = (x) => x.name || t("seat", { n: i + 1 });
      if (came(i)) {
        // (taking a seat is the server's line; its player connecting is part of taking it)
        if (!now.connected) this.arriving.add(i);
      } else if (human(now) && was.connected !== now.connected && i !== mine) {
        // (one's own connection is the status line's)
        // (unless a bot has played for them meanwhile, said as "away … until they are back":
        // a friend who came after --away-timeout had their coming unsaid, and their going read
        // "away", then "lost connection" — a flaky-test review)
        const first = now.connected && this.arriving.has(i) && !was.away;
        this.arriving.delete(i);
        if (!first) lines.push(t(now.connected ? "sc_evBack" : "sc_evGone", { who: who(now) }));
      }
      // gone past --away-timeout: a bot plays for them from now on (the seat's ☾ alone said
      // so, and the status line only on their turn: a third review)
      if (human(now) && human(was) && now.away && !was.away && i !== mine) lines.push(t("sc_evAway", { who: who(now) }));
    });
    if (!lines.length) return;
    const at = Date.now();
    for (const text of lines) this.events.push({ event: true, id: `ev${++this.eventCount}`, at, text });
    this.events = this.events.slice(-KEEP);
    this.renderList();
  }

  /** Whether ``seat`` is this page's (as its snapshot says, or its token just stored: the
   * line of its own taking can come before the snapshot that seats it). */
  mine(seat) {
    return seat === this.page.snap?.seat || seat === tokens.seat(this.page.id)?.seat;
  }

  onMessage(msg) {
    if (msg.type === "chat_history") {
      this.messages = msg.messages || [];
    } else if (msg.type === "chat") {
      if (this.messages.some((m) => m.id === msg.id)) return;
      // in the order stored (ids rise with it), as a reload or a later arrival reads it: with
      // several processes each tells its own clients' lines before those the bus brings, and
      // two people's lines said at once stood in two orders on their pages (a scale audit)
      const after = this.messages.findIndex((m) => Number(m.id) > Number(msg.id));
      if (after < 0) this.messages.push(msg);
      else this.messages.splice(after, 0, msg);
      this.messages = this.messages.slice(-KEEP);
      if (msg.event) {
        // a player back in the seat a bot took at the rematch (they were away as it began):
        // said, and shown — a line in a folded chat was all the others had (a thirteenth review)
        if (msg.event.kind === "reclaimed" && msg.event.seat !== this.page.snap?.seat) toast(eventText(msg.event), "info");
        // a friend who left the game in play: the others saw only the seat's small label change
        // (the line was in the folded chat: a forty-fourth review)
        else if (msg.event.kind === "left" && msg.event.bot && msg.event.seat !== this.page.snap?.seat && msg.event.seat !== this.page.leftSeat) toast(eventText(msg.event), "info");
        // a friend who takes a seat before the start: the host, the Start button at the foot
        // of a phone's page below the seats, saw nothing come (the line in the chat further
        // down: a forty-ninth review)
        // (not over an error still said: a refused take or start — a code review)
        else if (msg.event.kind === "joined" && this.page.table?.status === "waiting" && !this.mine(msg.event.seat)
          && !document.querySelector("#toast.show.error")) toast(eventText(msg.event), "info");
        this.renderList();
        return;
      }
      const counted = !this.el.open && msg.seat !== this.page.snap?.seat && !this.muted.has(authorKey(msg));
      if (counted) {
        this.unread += 1;
        this.renderSummary();
      }
      // a seated player's reaction, or chat line, shows at their seat on the felt a moment (a
      // ninth review missed a friend's message: a "1 new" count on the folded chat, and on a
      // phone the chat is at the page's foot)
      if ((msg.reaction || msg.text) && msg.seat != null) {
        const ms = msg.reaction ? REACTION_MS : SAID_MS;
        const text = msg.text ? cut(msg.text, SAID_CHARS) : msg.text;
        const shout = { reaction: msg.reaction, text, key: authorKey(msg), until: Date.now() + ms, counted };
        this.shouts.set(msg.seat, shout);
        this.decorate();
        setTimeout(() => this.decorate(), ms + 50);
      }
    } else return;
    this.renderList();
  }

  /** Put each seat's live quick reaction or chat line (not a muted author's) beside its seat
   * box on the felt, as text; the felt is drawn anew on every snapshot, so the page calls this
   * after. */
  decorate() {
    const felt = this.page.el?.felt;
    if (!felt) return;
    if (!this.shouts.size && !felt.querySelector(".reaction-bubble")) return; // (nothing to place)
    const now = Date.now();
    for (const el of felt.querySelectorAll(".reaction-bubble")) el.remove();
    // what a line must not lie over: the seats' bids and passes, names and badges, and the
    // lines placed before it (two friends' first "よろしく" at once lay over each other, a top
    // seat's over the other top seat's name: a thirty-fifth review)
    const rect = (e) => e.getBoundingClientRect();
    // (and the trick's cards, the middle's plate and the trump chip: a friend's "gg" lay over
    // the trick being played, the plate over a line: a thirty-sixth review)
    const keep = [...felt.querySelectorAll(".seat-box > .bubble, .seat-box .name, .seat-box .badge, .trick-card, .centre-info, .centre .why, .trump-chip")]
      .filter((e) => getComputedStyle(e).visibility !== "hidden") // (the chip hidden while a trick's caption shows)
      .map(rect).filter((r) => r.width && r.height);
    const edge = rect(felt);
    // the player's own line first, the others around it (a friend's lay over it on a small
    // phone: the same review)
    const mine = this.page.snap?.seat;
    const order = [...this.shouts].sort(([a], [b]) => (b === mine) - (a === mine));
    for (const [seat, shout] of order) {
      if (shout.until <= now) {
        this.shouts.delete(seat);
        continue;
      }
      if (this.muted.has(shout.key)) continue;
      const box = felt.querySelector(`.seat-box[data-seat="${seat}"]`);
      if (!box) continue;
      const base = `reaction-bubble${shout.reaction ? "" : " said"}${seat === mine ? " mine" : ""}`;
      const el = shout.reaction
        ? h("span", { class: base, dataset: { reaction: shout.reaction } }, t(`sc_r_${shout.reaction}`))
        : h("span", { class: base, dir: "auto" }, shout.text);
      box.append(el);
      let best = null;
      for (const place of bubblePlaces(box)) {
        el.className = `${base}${place} still`; // (measured whole: its pop-in scales it)
        const r = rect(el);
        const cost = (r.left < edge.left || r.right > edge.right || r.top < edge.top || r.bottom > edge.bottom ? 4 : 0)
          + keep.filter((k) => meets(r, k)).length;
        if (!best || cost < best.cost) best = { place, cost, r };
        if (!cost) break;
      }
      // a friend's line with no free place is left to the chat (and its count): over the
      // trick, a name or another line it hid what the player reads to play — the player's own
      // is drawn, over the rest (a thirty-sixth review)
      if (best.cost && seat !== mine) {
        el.remove();
        // (and counted unread if the open chat is off the screen — on a phone, below the
        // table: a folded chat counted it already; else nothing showed the line, a code review)
        if (!shout.counted && !shout.shown && this.el.open && !this.listSeen && !shout.reaction) {
          shout.counted = true;
          this.unread += 1;
          this.renderSummary();
        }
        continue;
      }
      // (it pops in once: drawn again with the felt at every move, it popped again each time)
      el.className = `${base}${best.place}${shout.shown ? " still" : ""}`;
      shout.shown = true;
      keep.push(best.r); // (the lines after it keep clear of it too)
    }
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.page.conn.send({ type: "chat", text: text.slice(0, MAX) })) this.input.value = "";
  }

  renderList() {
    const mine = this.page.snap?.seat;
    const shown = this.messages.filter((m) => m.event || !this.muted.has(authorKey(m)));
    const all = this.events.length ? [...shown, ...this.events].sort((a, b) => Number(a.at) - Number(b.at)) : shown;
    fill(this.list, all.map((m) => {
      if (m.event) return h("li", { class: "chat-event muted small", dataset: { id: m.id } }, chatTime(m.at), m.event === true ? m.text : eventText(m.event));
      const who = this.who(m);
      const body = m.reaction ? h("span", { class: "reaction-text" }, t(`sc_r_${m.reaction}`)) : h("span", { class: "chat-text", dir: "auto" }, m.text ?? "");
      const own = m.seat != null && m.seat === mine;
      const mute = own ? null : h("button", { type: "button", class: "chat-mute", title: t("sc_mute", { who }), "aria-label": t("sc_mute", { who }),
        // (a word, not "×": it read as "delete the message", its meaning only in a tooltip a
        // phone never shows — an eighth review)
        dataset: { mute: authorKey(m) }, onclick: () => this.mute(authorKey(m)) }, t("sc_muteShort"));
      return h("li", { class: own ? "me" : "", dataset: { id: m.id } }, chatTime(m.at), h("strong", { class: "chat-who", dir: "auto" }, who), " ", body, mute);
    }));
    this.list.scrollTop = this.list.scrollHeight;
    const names = [...this.muted].map((key) => this.mutedName(key));
    fill(this.mutedLine, names.length ? [t("sc_mutedList", { who: names.join(", ") }), " ",
      h("button", { type: "button", class: "linkish", id: "chat-unmute", onclick: () => this.unmuteAll() }, t("sc_unmute"))] : null);
    this.mutedLine.hidden = !names.length;
  }

  who(m) {
    return m.seat == null ? t("sc_spectator") : (m.name || seatName(this.page.table, m.seat));
  }

  mutedName(key) {
    if (key === "spectators") return t("sc_spectators");
    const m = /^seat:(\d+):(.*)$/s.exec(key);
    return m ? (m[2] || seatName(this.page.table, Number(m[1]))) : key;
  }

  /** Hide what this author says from now on (and what they said), at this table, in this
   * browser: the others still see it; the author is not told. */
  mute(key) {
    this.muted.add(key);
    this.saveMuted();
    this.renderList();
    this.decorate();
  }

  unmuteAll() {
    this.muted.clear();
    this.saveMuted();
    this.renderList();
  }

  saveMuted() {
    const all = loadMuted();
    if (this.muted.size) all[this.page.id] = [...this.muted];
    else delete all[this.page.id];
    try {
      localStorage.setItem(MUTED_KEY, JSON.stringify(all));
    } catch {
      // storage full or refused: muted for this page only
    }
  }
}

/** A seat change's line, as the server stored it (rooms.py's `_seat_lines`): "Aki took seat 3",
 * "Ben moved from seat 2 to seat 4", "たけし is now タケシ". */
export function eventText(e) {
  const n = Number(e.seat) + 1;
  const who = e.who || t("seat", { n });
  switch (e.kind) {
    case "joined": return t("sc_evJoined", { who, n });
    case "left": return t(e.bot ? "sc_evLeftGame" : "sc_evLeft", { who, n });
    case "put_out": return t(e.bot ? "sc_evPutOutBot" : "sc_evPutOut", { who, n });
    case "moved": return t("sc_evMoved", { who, a: Number(e.from) + 1, b: n });
    case "renamed": return t("sc_evRenamed", { was: e.was || t("seat", { n }), who });
    case "reclaimed": return t("sc_evReclaimed", { who, n });
    default: return "";
  }
}

const MUTED_KEY = "torampu.muted";

function loadMuted() {
  try {
    return own(JSON.parse(localStorage.getItem(MUTED_KEY) || "{}"));
  } catch {
    return own({});
  }
}

/** Whether two rectangles share more than a pixel each way. */
function meets(a, b) {
  return Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
}

/** Where a seat's line may lie (classes of style.css), the one to try first first: by the box,
 * towards the felt's middle (a seat at the right: from its right edge leftwards; at the left:
 * from its left edge rightwards), clear of its bid or pass — below a side seat's box when the
 * chip stands above it, above the player's own chip, below a top seat's box (and chip); then
 * a side seat's beside its box, and the other sides. */
function bubblePlaces(box) {
  const x = parseFloat(box.style.left);
  const side = x > 60 ? " leftward" : x < 35 ? " rightward" : "";
  const upper = box.classList.contains("upper");
  const chip = !!box.querySelector(":scope > .bubble");
  const under = upper && chip ? " below past-chip" : " below";
  const first = upper ? under : !chip ? "" : side ? " below" : " raised";
  const places = [first, under, chip && !upper ? " raised" : "", ""];
  const sides = [side, "", " rightward", " leftward"];
  const out = [];
  for (const p of places) for (const s of sides) if (!out.includes(s + p)) out.push(s + p);
  // (and, a side seat's, beside its box towards the middle: the felt's least crowded place)
  if (side) out.splice(2, 0, `${side} inside`);
  return out;
}

/** Who said a chat message, for muting: a seat's player (the seat and the name it had), or
 * "spectators" for any spectator. */
function authorKey(m) {
  return m.seat == null ? "spectators" : `seat:${m.seat}:${m.name ?? ""}`;
}

/** When a message was said (the server's time, shown in the reader's clock): "21:04". */
function chatTime(at) {
  const d = new Date(Number(at));
  if (!Number.isFinite(d.getTime())) return null;
  const hm = d.toLocaleTimeString(lang() === "ja" ? "ja-JP" : undefined, { hour: "2-digit", minute: "2-digit" });
  return h("time", { class: "chat-time", datetime: d.toISOString() }, hm);
}
