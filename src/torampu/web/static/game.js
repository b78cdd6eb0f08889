// The table in play: seats around the felt with the current trick, the hand, the action bar.

import { handOrder, OTHER_JACK, trickStrength } from "./sort.js";
import { actionsForCard, fits, grows, most, planActions } from "./actions.js";
import { backImage, cardImage, cardText, parseCard, SUIT_GLYPH, suitLabel } from "./cards.js";
import { leftInPlay } from "./api.js";
import { fill, h, patch, svgElement, toast } from "./dom.js";
import { t } from "./i18n.js";
import { actionNode, bidNode, botName, botStrengthLabel, cardNode, cardsNode, daifugoWhy, suitNode, whyText } from "./labels.js";

const TITLE_JA = { daifugo: "大富豪", fugo: "富豪", heimin: "平民", hinmin: "貧民", daihinmin: "大貧民" };
const TITLE_EN = { daifugo: "Daifugo", fugo: "Fugo", heimin: "Heimin", hinmin: "Hinmin", daihinmin: "Daihinmin" };

const TITLE_GLOSS = { daifugo: "richest", fugo: "rich", heimin: "commoner", hinmin: "poor", daihinmin: "poorest" };

/** A Daifugo title in the page's language; `glossed`: in English with what it means
 * ("Hinmin (poor)": the romaji alone said nothing of which title is good, a fifth review),
 * where there is room — the results, the side panel — not in a seat's badge. */
export function titleName(title, glossed = false) {
  if (!title) return "";
  if (document.documentElement.lang === "ja") return TITLE_JA[title] || title;
  const name = TITLE_EN[title] || title;
  const gloss = glossed ? titleGloss(title) : null;
  return gloss ? `${name} (${gloss})` : name;
}

/** What a Daifugo title means, in English only (a Japanese title says it itself). */
function titleGloss(title) {
  return document.documentElement.lang === "ja" ? null : TITLE_GLOSS[title] || null;
}

/** A Daifugo title for a narrow column: its name, and in English what it means on a line of
 * its own below ("Hinmin" / "poor"). */
export function titleCell(title) {
  const gloss = titleGloss(title);
  return [titleName(title), gloss ? h("span", { class: "title-gloss" }, gloss) : null];
}

/** Whether a bot plays `seat` of `table` (a rematch, still playing) — the seat a player
 * away as it began may take back (the old table's page and the lobby say so). */
export function botHoldsSeat(table, seat) {
  // (not a seat its person left in play: the bot's for good)
  const s = table?.seats?.[seat];
  return table?.status === "playing" && s?.kind === "bot" && !leftInPlay(s);
}

/**
 * The seat's display name: the player's name; a bot's friendly name with its strength
 * ("ハル (CPU・強)"; `short`: the name alone); else "Seat n".
 */
export function seatName(table, seat, short = false) {
  const seats = table?.seats || [];
  const own = (s) => (s ? s.name || (s.kind === "bot" ? botName(s.seat ?? seats.indexOf(s), seats) : null) : null);
  const info = seats[seat];
  const name = own(info);
  if (!name) return t("seat", { n: seat + 1 });
  // two people of one name: told apart by their seats, counted from 1 as the seats are shown;
  // "one name" as a reader sees it: "Aki", "ＡＫＩ" and "aki" are one
  const key = (n) => (n == null ? null : n.normalize("NFKC").toLocaleLowerCase());
  const twins = seats.filter((s) => key(own(s)) === key(name)).length;
  const base = twins > 1 ? `${name} ${seat + 1}` : name;
  if (info.kind === "bot" && !info.name && !short) return `${base} (${botStrengthLabel(info.bot, true)})`;
  // (a person who left the game in play: their name, the bot's play — "Ben's turn" read as
  // Ben still there, a forty-second review)
  if (leftInPlay(info) && !short) return `${base} (${t("leftBotShort")})`;
  return base;
}

/** SVG markup of the bot icon (for svgElement / svgNode). */
export const BOT_ICON =
  '<svg class="bot-icon" viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">' +
  '<rect x="2.5" y="5" width="11" height="8.5" rx="2.2" fill="#44607f"/>' +
  '<circle cx="6" cy="9.2" r="1.3" fill="#fff"/><circle cx="10" cy="9.2" r="1.3" fill="#fff"/>' +
  '<rect x="7.3" y="2.2" width="1.4" height="3" fill="#44607f"/><circle cx="8" cy="2" r="1.3" fill="#e7b10a"/></svg>';

// ------------------------------------------------------------------ status line

export function statusText(view, ctx) {
  if (!view) return "";
  if (view.phase === "over" && view.match && view.match.games_played >= view.match.games) return t("matchOver", { game: view.game });
  const phase = t(`phase_${view.phase}`, { game: view.game }); // (Hell's bid: phase_bid_hell)
  if (view.to_play == null) return phase;
  // Nap: the declarer's first lead sets the trumps — the one choice a player must not miss,
  // said where the turn is (only the felt's centre said it: an eighteenth review)
  const napLead = napTrumpsByLead(view) && view.phase === "play" && view.trump == null
    && !(view.tricks || []).length && !(view.trick || []).length;
  // (Daifugo: a pair or three of a kind as often as one card — "play a card" above "Choose 3
  // cards" read as a contradiction, a nineteenth review — and a pass where it may be made)
  // (and nothing to play, a pass alone: "play cards or pass" above "no card can be played"
  // read as a contradiction, a fifty-third review)
  const passes = view.game === "daifugo" && view.phase === "play" && ctx.legal?.includes("pass");
  const mine = passes ? t(ctx.legal.length === 1 ? "daifugoOnlyPass" : "daifugoPlayOrPass") : phase;
  // Hell: the dealer, who bid last, leads the first trick — the turn went back to them with
  // nothing to say why (a fiftieth and a fifty-first review)
  const hellLead = view.game === "hell" && view.phase === "play" && view.to_play === view.dealer
    && !(view.tricks || []).length && !(view.trick || []).length;
  if (view.to_play === ctx.mySeat && ctx.live) return `${t("yourTurn")} — ${napLead ? t("napYourLeadTrumps") : hellLead ? t("hellDealerLeads") : mine}`;
  // an absent player's turn is the stand-in bot's, in a moment (the line said "Aki to play"
  // with the turn's 30 s running, as if Aki were thinking: a second review)
  const away = ctx.table?.seats?.[view.to_play]?.away;
  return `${t(away ? "turnOfAway" : "turnOf", { name: seatName(ctx.table, view.to_play) })} — ${hellLead ? t("hellDealerLeads") : phase}`;
}

/** Nap under a contract whose declarer's first lead sets the trumps (any but a misère). */
function napTrumpsByLead(view) {
  return view.game === "nap" && !!view.contract && !/mis/.test(view.contract);
}

/** A Nap hand played as a misère (no trumps at all). */
export function napMisere(view) {
  return view.game === "nap" && /mis/.test(view.contract ?? "");
}

// ------------------------------------------------------------------ the felt

// a phone, upright or on its side (style.css: the felt beside the hand, about as narrow)
const ON_ITS_SIDE = "(max-height: 480px) and (min-width: 640px) and (orientation: landscape)";
const NARROW = window.matchMedia(`(max-width: 600px), ${ON_ITS_SIDE}`);
// Napoleon's bids in two steps (a number, then a suit) on a phone: see bidPicker
const BIDS_NARROW = window.matchMedia(`(max-width: 640px), ${ON_ITS_SIDE}`);

/** Call `fn` when the page crosses a size the felt or the bids are drawn for (a phone turned
 * on its side, a window narrowed past a phone's width): they are drawn for the size they were
 * drawn at, and a table waiting on a move sends nothing that would draw them again — the seats
 * stayed placed for the phone, Napoleon's bids in the phone's picker on a laptop's width (a
 * table's idle snapshot, sent again every 1.7 s, used to redraw them). */
export function onLayoutChange(fn) {
  for (const q of [NARROW, BIDS_NARROW]) q.addEventListener?.("change", fn);
}
/** The most of its height the action bar keeps on a phone while others move (px): a row of
 * 44 px buttons and the bar's padding. */
const HELD_ON_A_PHONE = 64;

function seatPosition(rel, n) {
  const angle = ((90 + (rel * 360) / n) * Math.PI) / 180;
  const rx = NARROW.matches ? 34 : 41;
  // seven on a phone: the two boxes beside the player's own a little higher, clear of the
  // trump chip in the lower corner (it hid the lower left seat's bid and its dealer mark, the
  // hook's dealer: a twenty-eighth review; in English, its three lines reached it again: a
  // thirty-ninth)
  const lift = NARROW.matches && n === 7 && (rel === 1 || rel === n - 1) ? 6 : 0;
  // and the two across a little further apart: a box is 104 px at most, and 34 % apart on a
  // 344 px felt the two lay over each other ("took 0" cut: a thirty-ninth review)
  const apart = NARROW.matches && n === 7 && (rel === 3 || rel === 4) ? Math.sign(Math.cos(angle)) * 3 : 0;
  return { x: 50 + rx * Math.cos(angle) + apart, y: 50 + 39 * Math.sin(angle) - lift };
}

function relative(seat, ctx, n) {
  const bottom = ctx.mySeat ?? 0;
  return (seat - bottom + n) % n;
}

/** Draw the felt: seat boxes around, the trick (or Daifugo's table) in the middle. */
export function renderFelt(el, view, ctx) {
  const n = view.players || view.hand_sizes.length;
  el.className = `felt n${n} game-${view.game}`;
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", t("feltLabel"));
  const seats = [];
  for (let s = 0; s < n; s++) seats.push(seatBox(view, ctx, s, seatPosition(relative(s, ctx, n), n)));
  fill(el, seats, centre(view, ctx, n), trumpChip(view));
}

/** The trump (and Napoleon's and Nap's contract, Napoleon's adjutant card) in a corner of the
 * felt for the whole of the play: the centre's own note of it is covered by the first card led.
 * Nap's contract shows before the first lead sets the trumps and in a misère, which has none
 * (the felt named neither "Misère" nor "Four" once the tricks began, only a "Declarer" badge;
 * on a phone the panel that says it is below the table: a twelfth review). */
function trumpChip(view) {
  // Daifugo's twin of the trump: what is in force (a lock, an 11-back, a revolution) in the
  // same corner, each a chip — in the middle of the felt, under the cards and the caption,
  // they ran under the side seats' boxes (the lock hidden, "♣" alone) or, wrapped, pushed the
  // cards under the seats across and cut the caption (a forty-eighth and a forty-ninth review)
  if (view.game === "daifugo") {
    const flags = inForce(view);
    return flags.length ? h("div", { class: "trump-chip daifugo-state", id: "daifugo-state" }, flags) : null;
  }
  const nap = view.game === "nap" && !!view.contract;
  if (!(view.trump || nap) || !(view.phase === "play" || (view.game === "hell" && view.phase === "bid"))) return null;
  const parts = [];
  const sep = () => (parts.length ? h("span", { class: "sep" }, " · ") : null);
  // (a no-trump contract says so itself: "Trump no trump · Contract 16NT" read twice)
  const noTrump = view.trump === "N" && view.game === "napoleon" && view.contract;
  // (each part one piece, the word with its suit: on a phone the chip stands them in a column)
  if (view.trump && !noTrump) parts.push(h("span", { class: "chip-trump" }, h("span", { class: "chip-label" }, `${t("trump")} `), suitNode(view.trump)));
  // (a Nap misère: "no trump", said as such — the chip said "Contract Misère" alone, a 52nd
  // review; without the word "Trump" before it, which took the chip a fourth line on a phone
  // on its side and over the seat box above it)
  else if (napMisere(view)) parts.push(h("span", { class: "chip-trump" }, suitNode("N")));
  if ((view.game === "napoleon" || nap) && view.contract)
    parts.push(sep(), h("span", { class: "chip-contract", id: "chip-contract" }, `${t("contract")} `, bidNode(view.contract, view.game)));
  // the adjutant card once called: only the side panel said it, below the table on a phone (a
  // twelfth review); the card in its colour on a white ground, as the suits are drawn here
  // (and "alone" where this player knows it: the Napoleon whose called card came from the
  // widow read "Adjutant ♠A" the whole game and played hoping for an ally — a thirty-seventh
  // review)
  if (view.game === "napoleon" && view.adjutant_card)
    parts.push(sep(), h("span", { class: "chip-adjutant", id: "chip-adjutant" }, `${t("adjutant")} `, cardNode(view.adjutant_card),
      view.alone || view.alone_declared ? ` (${t("alone")})` : null));
  // (declared alone, no card called: the chip said only the contract — a thirty-eighth review)
  else if (view.game === "napoleon" && view.alone_declared)
    parts.push(sep(), h("span", { class: "chip-adjutant", id: "chip-adjutant" }, t("aloneChip")));
  // Hell: the bids so far against the tricks of the deal, and in play how far off they are (a
  // ninth review missed it, as Trickster shows it: the sum is what the hook and the bidding
  // turn on)
  if (view.game === "hell" && Array.isArray(view.bids) && view.cards) {
    const sum = view.bids.reduce((a, b) => a + (b ?? 0), 0);
    const off = view.phase === "play" && sum !== view.cards ? t(sum < view.cards ? "hellUnder" : "hellOver", { k: Math.abs(view.cards - sum) }) : "";
    // (how far off, one piece: the corner's narrow chip broke "(1不 / 足)" on a phone — a 50th
    // review)
    parts.push(h("span", { class: "sep" }, " · "), h("span", { class: "hell-bids", id: "hell-bids" }, t("hellBids", { sum, n: view.cards }),
      off ? " " : null, off ? h("span", { class: "hell-off" }, off) : null));
  }
  return h("div", { class: "trump-chip", id: "trump-chip" }, parts);
}

function seatBox(view, ctx, s, pos) {
  const info = ctx.table?.seats?.[s] || {};
  const name = seatName(ctx.table, s, true);
  const classes = ["seat-box"];
  if (view.to_play === s) classes.push("turn");
  if (s === ctx.mySeat) classes.push("me");
  if (isOut(view, s)) classes.push("out");
  if (pos.y < 40) classes.push("upper"); // its speech bubble goes below, inside the felt
  return h(
    "div",
    { class: classes.join(" "), dataset: { seat: s }, style: { left: `${pos.x}%`, top: `${pos.y}%` },
      role: "group", "aria-label": seatLabel(view, s, ctx, info),
      // (a person's whole name on hover: a long one is cut with "…" in the box, a thirteenth
      // review)
      title: leftInPlay(info) ? t("leftBot") : info.kind === "bot" ? botStrengthLabel(info.bot) : info.kind === "human" ? name : null },
    h(
      "div",
      { class: "seat-name" },
      presence(info, ctx),
      h("span", { class: "name", dir: "auto" }, name), // (a right-to-left name cut at its end, not its start)
      // (a replay's "view as" seat is not the viewer's own: "Sora (you)" on a bot's box to a
      // spectator, a thirty-third review)
      s === ctx.mySeat && ctx.live ? h("span", { class: "you" }, ` (${t("you")})`) : null,
    ),
    // (a seat left in play: its short word, the whole in the title — "Left · a bot plays" ran
    // past a phone's box, a forty-third review)
    info.kind === "bot" ? h("div", { class: "bot-level" }, leftInPlay(info) ? t("leftBotBox") : botStrengthLabel(info.bot)) : null,
    seatState(info, s, ctx),
    h("div", { class: "seat-meta" }, seatMeta(view, s)),
    badges(view, s),
    bubble(view, s),
  );
}

function presence(info, ctx) {
  if (info.kind === "bot") return h("span", { class: "pres bot", title: t("bot") }, svgElement(BOT_ICON));
  // a replay is a record: who is connected now says nothing of it (every person's seat showed
  // a grey "offline" dot, a tenth review)
  if (!ctx.live) return null;
  if (info.away) return h("span", { class: "pres away", title: t("away") }, "☾");
  const on = info.connected;
  return h("span", { class: `pres dot ${on ? "on" : "off"}`, title: on ? t("connected") : t("offline") });
}

/** A person's seat whose player is not there, in words under the name: "offline", or "away —
 * bot plays" once the stand-in plays for them (a twelfth review: a friend whose tab closed
 * was a green dot gone grey, nothing more, and the table waited on them unexplained). */
function seatState(info, s, ctx) {
  if (info.kind !== "human" || !ctx.live || s === ctx.mySeat || (info.connected && !info.away)) return null;
  const away = !!info.away;
  return h("div", { class: `seat-state ${away ? "away" : "offline"}`, dataset: { state: away ? "away" : "offline" } },
    t(away ? "seatAway" : "offline"));
}

function isOut(view, s) {
  return view.game === "daifugo" && (view.out || []).includes(s);
}

function seatMeta(view, s) {
  const parts = [h("span", { class: "count", title: t("cardsLeft", { n: view.hand_sizes[s] }) },
    h("span", { class: "mini-back" }, backImage()), String(view.hand_sizes[s]))];
  if (view.game === "napoleon") parts.push(h("span", { class: "honors", title: t("honors") }, `★${view.honor_counts?.[s] ?? 0}`));
  if (view.game === "nap") parts.push(h("span", { title: t("tricksWon") }, `✓${view.tricks_won?.[s] ?? 0}`));
  if (view.game === "hell") {
    const bid = view.bids?.[s];
    parts.push(h("span", { class: "hell-bt", title: `${t("bids")} / ${t("tricksWon")}` },
      t("hellBidTook", { bid: bid == null ? "–" : bid, took: view.tricks_won?.[s] ?? 0 })));
  }
  return parts;
}

/** What the signs on the seat boxes mean, for the Rules dialog (a review: "▮10 ★0" had no
 * legend, and a title only shows under a mouse). Built from the same signs as `seatMeta`. */
export function seatLegend(game) {
  const item = (sign, text) => h("li", {}, h("span", { class: "legend-sign", "aria-hidden": "true" }, sign), " ", text);
  const items = [item(h("span", { class: "count" }, h("span", { class: "mini-back" }, backImage()), "10"), t("legendCards"))];
  if (game === "napoleon") items.push(item("★2", t("legendHonors")));
  if (game === "nap") items.push(item("✓2", t("legendTricks")));
  if (game === "hell") items.push(item(t("hellBidTook", { bid: 2, took: 1 }), t("legendHell")));
  items.push(
    item(h("span", { class: "pres dot on" }), t("connected")),
    item(h("span", { class: "pres dot off" }), t("offline")),
    item(h("span", { class: "pres away" }, "☾"), t("away")),
    item(h("span", { class: "pres bot" }, svgElement(BOT_ICON)), t("bot")),
  );
  return h("ul", { class: "seat-legend", id: "seat-legend" }, items);
}

/** What a screen reader says for a seat box: its name, and what its signs show. */
function seatLabel(view, s, ctx, info) {
  const parts = [seatName(ctx.table, s, true) + (s === ctx.mySeat && ctx.live ? ` (${t("you")})` : "")];
  if (info.kind === "bot") parts.push(t("bot"));
  else if (ctx.live) parts.push(info.away ? t("away") : info.connected ? t("connected") : t("offline"));
  parts.push(t("cardsLeft", { n: view.hand_sizes[s] }));
  if (view.game === "napoleon") parts.push(`${t("honors")}: ${view.honor_counts?.[s] ?? 0}`);
  if (view.game === "nap") parts.push(`${t("tricksWon")}: ${view.tricks_won?.[s] ?? 0}`);
  if (view.game === "hell") {
    const bid = view.bids?.[s];
    parts.push(t("hellBidTook", { bid: bid == null ? "–" : bid, took: view.tricks_won?.[s] ?? 0 }));
  }
  if (view.to_play === s) parts.push(t("legendToPlay"));
  return parts.join(", ");
}

function badges(view, s) {
  const out = [];
  if (view.dealer === s) out.push(h("span", { class: "badge dealer", title: t("dealer") }, t("dealer")));
  if (view.game === "napoleon") {
    if (view.napoleon === s) out.push(h("span", { class: "badge nap" }, t("napoleon")));
    if (view.adjutant_known && view.adjutant === s && view.adjutant !== view.napoleon)
      out.push(h("span", { class: "badge adj" }, t("adjutant")));
  }
  if (view.game === "nap" && view.declarer === s) out.push(h("span", { class: "badge nap" }, t("declarer")));
  if (view.game === "daifugo") {
    // once the game is over, the titles it gave (the seats showed the ones it was played under
    // beside the results that named the new ones: a fourth review)
    const title = view.phase === "over" && view.result?.titles ? view.result.titles[s] : view.titles?.[s];
    if (title) out.push(h("span", { class: `badge title-${title}` }, titleName(title)));
    const place = (view.finished || view.out || []).indexOf(s);
    if ((view.fouls || []).includes(s)) out.push(h("span", { class: "badge outb foul" }, t("foulBadge")));
    else if (view.fallen === s) out.push(h("span", { class: "badge outb foul" }, t("fallenBadge")));
    else if (place >= 0) out.push(h("span", { class: "badge outb" }, t("outPlace", { n: place + 1 })));
  }
  return out.length ? h("div", { class: "badges" }, out) : null;
}

/** A speech bubble with the seat's latest bid or pass. */
function bubble(view, s) {
  let text = null;
  if (view.phase === "bid" && Array.isArray(view.auction)) {
    const mine = view.auction.filter((a) => a.seat === s);
    if (mine.length) {
      const last = mine[mine.length - 1].action;
      text = last === "pass" ? t("pass") : bidNode(last.split(" ")[1], view.game);
    }
  }
  if (view.game === "daifugo" && view.phase === "play" && (view.passed || []).includes(s)) text = t("pass");
  return text == null ? null : h("span", { class: "bubble" }, text);
}

function centre(view, ctx, n) {
  if (view.game === "daifugo") return daifugoCentre(view, ctx);
  const live = view.trick || [];
  const done = (view.tricks || [])[view.tricks.length - 1];
  const showDone = !live.length && done && view.phase !== "bid";
  const cards = showDone ? done.cards : live;
  const nodes = cards.map((c) => trickCard(c, ctx, n, showDone && c.seat === done.winner));
  // the finished trick, held a moment: who takes it, then why its card wins
  if (showDone && Number.isInteger(done.winner)) {
    let taker = t("trickTakenBy", { name: seatName(ctx.table, done.winner, true) });
    if (view.lastOfGame) taker = `${t("gameLastTrick", { game: view.game })}: ${taker}`;
    // (where the player takes it, a phone's four-handed felt puts the caption at the top: at the
    // foot it lay over the player's own card and name — style.css, a thirtieth review)
    const side = relative(done.winner, ctx, n) === 0 ? "top" : "foot";
    nodes.push(h("div", { class: "why", id: "trick-taker", dataset: { side } }, done.why ? `${taker} · ${whyText(done.why)}` : taker));
  }
  if (!cards.length) nodes.push(centreInfo(view));
  return h("div", { class: `centre ${showDone ? "done" : ""}` }, nodes);
}

function trickCard(c, ctx, n, winner) {
  const p = seatPosition(relative(c.seat, ctx, n), n);
  const who = seatName(ctx.table, c.seat, true);
  const label = `${who}: ${cardText(c.card)}`;
  // towards its player's seat, a share of the way (style.css: --spread-x, narrower on a phone,
  // where the side seats' boxes reach further in and covered the cards' edges)
  return h(
    "div",
    {
      class: `trick-card ${winner ? "winner" : ""}`,
      style: { "--dx": `${p.x - 50}`, "--dy": `${p.y - 50}` },
      dataset: { trickSeat: c.seat, trickCard: c.card },
      // read out as whose card it is, not the card alone (a screen reader heard "7♦" with no
      // player: a review); the picture inside says nothing more
      role: "img",
      "aria-label": label,
      title: label, // (the foot's name may be cut)
    },
    hideFromReaders(cardImage(c.card)),
    // whose it is, on the card's foot: five cards in the middle of a phone's felt read as a
    // heap, "my A♥ lands between Mina and me" (a twelfth review)
    // (one's own: "you" — a long name of one's own was cut to "プレイ…", a thirty-first review)
    hideFromReaders(h("span", { class: "trick-who" }, c.seat === ctx.mySeat && ctx.live ? t("you") : who)),
  );
}

function hideFromReaders(el) {
  el.setAttribute("aria-hidden", "true");
  return el;
}

function centreInfo(view) {
  // the contract while the Napoleon takes the widow and names the adjutant; in play the chip in
  // the felt's corner says it (both read "Contract 14♠" twice: a fifteenth review)
  // and the adjutant card once named: on a phone the last-move line said it, until the next move
  // replaced it, and the side panel below the table (a seventeenth review)
  if (view.game === "napoleon" && view.contract && view.phase !== "play")
    return h("span", { class: "centre-info" }, `${t("contract")} `, bidNode(view.contract, view.game),
      // (the dot goes where the two stand one above the other: a phone's line began "· 副官",
      // a twenty-fifth review)
      view.adjutant_card ? h("span", { class: "centre-adjutant", id: "centre-adjutant" }, h("span", { class: "sep" }, " · "), `${t("adjutant")} `, cardNode(view.adjutant_card),
        // (the Napoleon whose named card came up in the widow knows now they play alone: the
        // felt said "副官 ♥7" through the exchange, a forty-ninth review)
        view.alone ? ` (${t("alone")})` : null) : null);
  // Nap: that the declarer's first lead sets the trumps (none in a misère), shown only before
  // that lead (then the felt shows the trick); the contract is the chip's
  if (napTrumpsByLead(view))
    return h("div", { class: "centre-info nap-info" }, h("span", { class: "nap-trump" }, t("napTrumpByLead")));
  if (view.game === "hell" && view.upcard)
    return h("div", { class: "centre-info upcard" }, h("span", { class: "mini-card" }, cardImage(view.upcard)),
      h("span", {}, t("upcard")));
  return null;
}

function daifugoCentre(view, ctx) {
  const tb = view.table;
  const nodes = [];
  if (tb && tb.cards?.length) {
    nodes.push(h("div", { class: "table-cards", style: { "--n": String(tb.cards.length) } }, tb.cards.map((c) => h("span", { class: "tcard" }, cardImage(c)))));
    nodes.push(h("div", { class: "why" }, seatName(ctx.table, tb.by, true)));
  } else nodes.push(h("div", { class: "muted centre-info" }, t("tableEmpty")));
  const last = (view.log || []).at(-1);
  // (its place in the log marks it: the page tells a screen reader each one once — a
  // revolution, 8切り, 7渡し were on the felt alone, never said: a twenty-third review)
  if (last?.why?.length) nodes.push(h("div", { class: "why", id: "daifugo-why", dataset: { at: String((view.log_from || 0) + view.log.length) } },
    last.why.map((w) => daifugoWhy(w, (s) => seatName(ctx.table, s, true))).join(" · ")));
  return h("div", { class: "centre daifugo" }, nodes);
}

/** The chips of what is in force while a Daifugo game is played (none in another phase, or
 * another game): in the felt's corner, or on a phone in their line under it (table.js). */
export function inForce(view) {
  return view.game === "daifugo" && view.phase === "play" ? daifugoFlags(view) : [];
}

export function daifugoFlags(view) {
  const out = [];
  // (with what it does, while it does it: "Revolution" alone, after a four of a kind, said
  // nothing of which cards now win — a fortieth review; an 11-back turns it round again)
  // (a view without it: as the engine counts it, revolution xor 11-back — "not an 11-back", read
  // so before, had an 11-back alone say "higher cards win", a code review)
  const turned = view.reversed ?? Boolean(view.revolution) !== Boolean(view.eleven_back);
  // (its two parts apart: on a narrow felt a line each — wrapped where the font chose, the
  // chip took a third line in a CI machine's font and reached the seat's box above)
  const part = (key) => [h("span", { class: "rsep" }, " · "), h("span", { class: "part" }, worded(key))];
  const lower = turned ? part("revLower") : [];
  // (the 11-back's chip says which cards win, as the revolution's does: alone it was
  // "イレブンバック中" beside a vague "強弱逆転中", and with a revolution "革命中 ·
  // イレブンバック中" said nothing of the order being the usual one again, where "革命中"
  // alone reads "small cards win": a fifty-third review)
  if (view.revolution) out.push(h("span", { class: "flag rev parts" }, h("span", { class: "part" }, view.coup ? worded("coupFlag") : t("revolution")), ...lower));
  if (view.eleven_back) out.push(h("span", { class: "flag parts" }, h("span", { class: "part" }, worded("elevenBack")), ...part(turned ? "revLower" : "revHigher")));
  // (a revolution reverses the order itself: a second chip said the same again, a review)
  if (view.reversed && !view.revolution && !view.eleven_back) out.push(h("span", { class: "flag" }, t("strengthReversed")));
  if (view.lock) out.push(h("span", { class: "flag lock" }, `${view.lock.strict ? t("strictLock") : t("lock")} `, lockNodes(view.lock)));
  if (view.direction === -1) out.push(h("span", { class: "flag" }, worded("directionReversed")));
  return out;
}

/** A chip's words, whole and short: a narrow felt shows the short (style.css) — in full, four
 * chips took four lines there and pushed the cards under the seats' boxes (a forty-eighth
 * review). */
function worded(key, before = "") {
  return [h("span", { class: "long" }, before + t(key)), h("span", { class: "short" }, before + t(`${key}Short`))];
}

/** The parts of a Daifugo lock, whatever shape the view gives it: suit letters (and any other
 * word as it is). */
function lockParts(lock) {
  return Array.isArray(lock) ? lock : Array.isArray(lock?.suits) ? lock.suits : typeof lock === "string" ? lock.split("") : [];
}

function lockNodes(lock) {
  return lockParts(lock).map((s) => (/^[SHDC]$/.test(s) ? suitNode(s) : s));
}

// ------------------------------------------------------------------ the hand and the actions

/**
 * Draw the hand and the action bar. `ui` keeps the selection between snapshots:
 * {selected: [hand indices], choice: card with several actions or null}.
 */
export function renderPlay(handEl, actionsEl, view, ctx, ui) {
  const plan = planActions(ctx.legal, view.game, ctx.choose, view.hand || []);
  ui.selected = ui.selected.filter((i) => i < (view.hand || []).length);
  renderHand(handEl, view, ctx, ui, plan);
  renderActions(actionsEl, view, ctx, ui, plan);
}

/** A Daifugo turn where passing is all this seat may do. */
function onlyPass(view, ctx) {
  return view.game === "daifugo" && view.phase === "play" && ctx.legal?.length === 1 && ctx.legal[0] === "pass";
}

function renderHand(el, view, ctx, ui, plan) {
  const hand = view.hand || [];
  const chosen = ui.selected.map((i) => hand[i]);
  el.dataset.mode = plan.mode;
  if (plan.need != null) el.dataset.need = plan.need;
  else delete el.dataset.need;
  const fresh = freshCards(view, ctx);
  // drawn in the order the player chose; each card keeps its index in view.hand
  const cards = handOrder(hand, view).map((i) => {
    const card = hand[i];
    const legal = plan.legalCards.has(card);
    // idle while it is not the player's turn (or a bid is to be made); on a Daifugo turn with
    // pass alone the cards are dimmed and a tap says why (they looked playable: a review)
    const idle = plan.mode === "none" && !onlyPass(view, ctx);
    const selected = ui.selected.includes(i);
    const reachable = plan.mode !== "select" || selected || grows(plan, chosen, card);
    // a card that cannot be played now is not a dead button: a tap says why (it stays out
    // of the keyboard's way); while it is not the player's turn the hand is simply idle
    const barred = !legal && !idle;
    return h("button", {
      type: "button",
      class: `card ${legal ? "legal" : idle ? "idle" : "dim"} ${selected ? "selected" : ""} ${legal && !reachable ? "faint" : ""} ${fresh.has(card) ? "fresh" : ""}`,
      dataset: { card, index: i, legal: legal ? "1" : "0" },
      title: fresh.has(card) ? t("freshCard") : null,
      disabled: idle ? true : null,
      "aria-disabled": barred ? "true" : null,
      tabindex: barred ? "-1" : null,
      "aria-pressed": plan.mode === "select" ? String(selected) : null,
      onclick: (e) => (barred ? toast(whyNot(view, card, plan), "info") : ctx.onCard(i, card, plan, e)),
    }, cardImage(card));
  });
  patch(el, cards);
  // between games the hand is the next deal's, under the last game's result and trick: said
  // on it (the two games looked mixed, the page broken: a fourteenth review)
  if (ctx.between && hand.length) el.dataset.next = t("nextHand", { game: view.game });
  else delete el.dataset.next;
  el.setAttribute("aria-label", el.dataset.next ?? t("handKeys"));
  el.style.setProperty("--n", String(Math.max(hand.length, 1)));
  el.hidden = !hand.length && view.hand == null;
  // (while the Napoleon names the adjutant the hand is only looked at: one row, its cards
  // overlapping — in two, on a 360 px phone, the picker of 52 cards above it was a 60 px strip
  // of cut cards, a thirty-third review)
  el.dataset.lookOnly = view.phase === "adjutant" ? "1" : "";
  el.dataset.game = view.game || "";
  fitHand(el);
}

/** The narrowest strip of an overlapped card a finger can tap (CSS px). */
const MIN_STRIP = 32;
const fitted = new WeakSet();

/** A hand too long for one row at a tappable strip a card (13 Daifugo cards on a phone showed
 * 26 px each) goes in two rows; measured again when the hand's width changes (a phone turned). */
export function fitHand(el) {
  const cards = [...el.querySelectorAll(":scope > .card")];
  const n = cards.length;
  // the room the hand has (its parent's: in two rows the hand itself is narrowed to them) — but
  // on a phone on its side the parent is the table's grid, the whole screen, and the hand has
  // its column (11 Daifugo cards at six in 323 px showed 26 px each, never in two rows: a
  // fiftieth review): there its area's width, measured in one row
  const parent = el.parentElement;
  const inGrid = !!parent && getComputedStyle(parent).display === "grid";
  if (inGrid) el.classList.remove("rows2");
  const width = (inGrid ? el.clientWidth : parent?.clientWidth || el.clientWidth) - 12;
  const cardW = cards[0]?.getBoundingClientRect().width || 0;
  // (on its side only Daifugo's, whose hands are long from the first play to the last: a trick
  // game's turn panel keeps its height for the bids, and its hand shrinks as the deal goes)
  const two = n >= 6 && width > 0 && cardW > 0 && (width - cardW) / (n - 1) < MIN_STRIP && !el.dataset.lookOnly &&
    (!inGrid || el.dataset.game === "daifugo");
  const perRow = two ? Math.ceil(n / 2) : n;
  el.classList.toggle("rows2", two);
  el.style.setProperty("--row", String(Math.max(perRow, 1)));
  cards.forEach((c, i) => c.classList.toggle("row-start", two && i === perRow));
  if (!fitted.has(el) && typeof ResizeObserver === "function") {
    fitted.add(el);
    const room = el.parentElement || el;
    let last = room.clientWidth;
    new ResizeObserver(() => {
      if (room.clientWidth !== last) {
        last = room.clientWidth;
        fitHand(el);
      }
    }).observe(room);
  }
}

/** The cards just received, marked in the hand: the widow the Napoleon took (while he
 * discards), and in Daifugo the cards the exchange brought this seat (until its first play)
 * and those a 7渡し passed it since its last play (a forty-eighth review: a card passed came
 * in silence, only the last-move line said so). */
function freshCards(view, ctx) {
  const me = ctx.mySeat;
  if (me == null || !ctx.live) return new Set();
  if (view.game === "napoleon" && view.phase === "exchange" && Array.isArray(view.widow)) return new Set(view.widow);
  if (view.game !== "daifugo") return new Set();
  const got = [];
  if (!playedYet(view, me)) {
    for (const row of view.exchange || []) {
      if (row.rich === me && row.given) got.push(...row.given);
      if (row.poor === me && row.returned) got.push(...row.returned);
    }
  }
  const log = view.log || [];
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.seat === me && String(e.action).startsWith("play")) break;
    if (e.action === "give" && e.to === me && Array.isArray(e.cards)) got.push(...e.cards);
  }
  return new Set(got);
}

/** Why `card` cannot be played now, in words: the suit to follow (every playable card but a
 * joker is of one suit the card is not of), the Daifugo table to beat, or in general. */
export function whyNot(view, card, plan) {
  const suits = new Set([...plan.legalCards].map((c) => parseCard(c).suit).filter(Boolean));
  const mine = parseCard(card).suit;
  if (view.game !== "daifugo" && view.phase === "play" && suits.size === 1 && !suits.has(mine)) {
    const [suit] = suits;
    return t("mustFollow", { suit: SUIT_GLYPH[suit] });
  }
  if (view.game === "daifugo" && view.phase === "play") {
    const onTable = !!view.table?.cards?.length;
    // the opening lead: every legal play holds the opening card (♦3)
    const plays = plan.cardActs.filter((a) => a.verb === "play" && a.cards.length);
    const common = plays.reduce((acc, a) => acc.filter((c) => a.cards.includes(c)), plays[0]?.cards || []);
    if (!onTable && common.length === 1 && card !== common[0]) return t("mustInclude", { card: cardText(common[0]) });
    const suitsLocked = lockSuits(view.lock);
    if (onTable && suitsLocked.length && mine && !suitsLocked.includes(mine))
      return t("lockedTo", { suits: suitsLocked.map((x) => SUIT_GLYPH[x]).join("") });
    if (onTable) return beatText(view);
  }
  return t("cannotPlayNow");
}

/** What beats the Daifugo table, in words: its play, the shape and size to answer it with, and
 * whether the order is reversed ("That card does not beat the cards on the table" told a
 * first-timer nothing of the pair of 4s to beat: a seventeenth review). */
function beatText(view) {
  const table = view.table;
  const cards = table.cards.map((c) => cardText(c)).join(" ");
  const n = table.size || table.cards.length;
  if (n === 1 && table.cards[0] === "JK")
    return t(view.rules?.spade3_return ? "beatJokerSpade3" : "beatJoker", { cards });
  const key = table.shape === "run" ? "beatRun" : n > 1 ? "beatGroup" : "beatSingle";
  const reversed = view.reversed ?? (!!view.revolution !== !!view.eleven_back);
  return `${t(key, { cards, n })}${reversed ? ` ${t("beatReversed")}` : ""}`;
}

/** The suits a Daifugo lock holds the play to (letters). */
function lockSuits(lock) {
  return lockParts(lock).filter((x) => /^[SHDC]$/.test(x));
}

/** Handle a tap on a hand card (called by the page with the same `ui`). */
export function tapCard(ui, i, card, plan, act) {
  if (plan.mode === "direct") {
    const acts = actionsForCard(plan.cardActs, card);
    if (acts.length === 1) return act(acts[0].raw);
    ui.choice = acts.length ? card : null;
    return null;
  }
  if (plan.mode !== "select") return null;
  if (ui.selected.includes(i)) {
    ui.selected = ui.selected.filter((x) => x !== i);
    return null;
  }
  const hand = ui.hand || [];
  const chosen = ui.selected.map((x) => hand[x]);
  // cards to give, exchange or discard, all chosen: one more is refused, said (the oldest
  // choice made way without a word, and a player returned a card they had not meant to: an
  // eighth review); in play, a set chosen anew, as before
  if (plan.need != null && ui.selected.length >= plan.need && plan.cardActs.every((a) => a.verb !== "play")) {
    toast(t("selectFull", { n: plan.need }), "info"); // (a word, not an error's red: a thirty-sixth review)
    return null;
  }
  if (grows(plan, chosen, card)) ui.selected = [...ui.selected, i];
  else if (ui.selected.length && grows(plan, chosen.slice(1), card)) ui.selected = [...ui.selected.slice(1), i]; // full: the oldest choice makes way
  else ui.selected = [i];
  return null;
}

/** On a touch screen a bid or the adjutant card is chosen in two taps: the first marks it
 * (`ctx.arm`), the second on the same button sends it — in a grid of 30 bids a finger that
 * lands one button off would otherwise commit a contract. A mouse, a pen and the keyboard
 * (Enter or Space: a click whose `detail` is 0) send at once, and so does the only move there
 * is (a Hell dealer left one bid: there is nothing else a finger could have meant). */
const COARSE = window.matchMedia?.("(pointer: coarse)");

export function confirmsTwice(raw, legal) {
  return !!COARSE?.matches && /^(bid|adjutant)\s/.test(raw) && (legal || []).length > 1;
}

function press(raw, ctx, event) {
  if (confirmsTwice(raw, ctx.legal) && ctx.armed !== raw && event?.detail !== 0 && ctx.arm) ctx.arm(raw);
  else ctx.act(raw);
}

/** The line above the bids or the adjutant cards: what the first tap chose, while it waits
 * for the second; else `text`. */
function armedHint(view, ctx, text) {
  const armed = ctx.armed && (ctx.legal || []).includes(ctx.armed) ? ctx.armed : null;
  if (!armed) return text;
  return h("span", { class: "armed-hint", id: "armed-hint" }, `${t("tapAgain")} `, actionNode(armed, view.game));
}

function actionButton(raw, view, ctx, cls = "") {
  const armed = ctx.armed === raw;
  return h("button", {
    type: "button",
    class: `act ${cls}${armed ? " armed" : ""}`,
    dataset: { action: raw },
    "aria-label": bidLabel(raw),
    "aria-pressed": confirmsTwice(raw, ctx.legal) ? String(armed) : null,
    onclick: (e) => press(raw, ctx, e),
  }, actionNode(raw, view.game), napStake(raw, view));
}

/** What a Nap bid is worth, per other player, under its button: "±3", "+10 −6". */
function napStake(raw, view) {
  const m = /^bid (\w+)$/.exec(raw);
  const stake = view.game === "nap" && m ? view.stakes?.[m[1]] : null;
  if (!Array.isArray(stake)) return null;
  const [won, lost] = stake;
  return h("span", { class: "bid-stake" }, won === -lost ? `±${won}` : `+${won} −${-lost}`);
}

/** A Napoleon bid's name for a screen reader ("12 clubs", "13 NT"): its suit is drawn, not
 * written ("12♣" was read "12 black club suit", a twenty-first review). */
function bidLabel(raw) {
  const m = /^bid (\d+)([SHDCN])$/.exec(raw);
  if (!m) return null;
  return m[2] === "N" ? `${m[1]} ${t("ntBid")}` : `${m[1]} ${suitLabel(m[2])}`;
}

function renderActions(el, view, ctx, ui, plan) {
  const parts = [];
  if (plan.mode === "select") parts.push(selectBar(view, ctx, ui, plan));
  if (plan.mode === "direct" && ui.choice) {
    const acts = actionsForCard(plan.cardActs, ui.choice);
    parts.push(h("div", { class: "choice" }, acts.map((a) => actionButton(a.raw, view, ctx, "primary"))));
  }
  if (plan.adjutant.length) parts.push(adjutantPicker(view, ctx, plan));
  // (a turn with nothing but Pass has no card bar: the note of the cards just received goes
  // under its line, or the dot was unexplained on such a turn — a fifth review)
  if (onlyPass(view, ctx)) parts.push(h("p", { class: "hint", id: "only-pass" }, t("onlyPass")), freshNote(view, ctx));
  if (plan.buttons.length) parts.push(buttonBar(view, ctx, plan));
  // the panel keeps the height it last had in this phase while others move: it came and went
  // with each of this player's turns, and the felt above grew and shrank by as much (200 px
  // in an auction on a laptop), its seats jumping each time
  // (of this game: between games the next deal's auction is the same phase, and the height
  // kept from the last one squashed the felt while the game's last trick lay on it, its cards
  // piled up on a phone: a fifth review)
  const phase = `${view.game}:${view.match?.games_played ?? 0}:${view.phase}`;
  if (parts.length) {
    patch(el, parts);
    el.hidden = false;
    el.style.removeProperty("min-height");
    ui.held = { phase, height: el.getBoundingClientRect().height };
    return;
  }
  // on a phone at most a row of buttons' height is kept (a twelfth review: Daifugo's bar of a
  // few lines while choosing, Napoleon's bid table, left a white box of 130-280 px that said
  // only "Sora's turn…", the felt squeezed above it): the felt takes the rest, and a turn's
  // usual one-row bar comes back without moving it
  const cap = NARROW.matches ? HELD_ON_A_PHONE : Infinity;
  const held = ui.held?.phase === phase && view.to_play != null ? Math.min(ui.held.height, cap) : 0;
  if (ctx.between) {
    // (between games the next deal's first player is not "to play" yet: all must be ready)
    // (and the cards the next deal's exchange brought and took: the hand below lost its K♣ K♥
    // while the results were up, with no word until this player's turn — a tenth review)
    // (a table of bots alone waits for nobody's Ready: "when everyone is ready" to its
    // spectators said otherwise, a fifty-third review)
    const people = (ctx.table?.seats || []).some((s) => s.kind === "human");
    patch(el, [h("p", { class: "muted small actions-wait", id: "actions-wait" }, t(people ? "sc_nextDealtShort" : "sc_nextSoon", { game: view.game })), freshLine(view, ctx)]);
    el.style.removeProperty("min-height");
    el.hidden = false;
  } else if (held > 0) {
    patch(el, [h("p", { class: "muted small actions-wait", id: "actions-wait" }, `${t("turnOf", { name: seatName(ctx.table, view.to_play) })}…`), freshLine(view, ctx)]);
    el.style.setProperty("min-height", `${Math.round(held)}px`);
    el.hidden = false;
  } else {
    // while others move, the cards the exchange just brought and took are still said (only
    // this player's own turn said them: a poor player on a phone saw a teal dot, no words)
    const fresh = freshLine(view, ctx);
    patch(el, fresh ? [fresh] : []);
    el.style.removeProperty("min-height");
    el.hidden = !fresh;
  }
}

function freshLine(view, ctx) {
  const note = freshNote(view, ctx);
  return note ? h("p", { class: "fresh-line" }, note) : null;
}

function selectBar(view, ctx, ui, plan) {
  const hand = view.hand || [];
  const chosen = ui.selected.map((i) => hand[i]);
  const matches = fits(plan, chosen);
  const buttons = matches.map((a) => actionButton(a.raw, view, ctx, "primary"));
  const progress = selectProgress(plan, chosen, matches);
  // the cards chosen in the order the button names them, where one move fits ("出す ♥Q ♠Q"
  // beside "♠Q ♥Q", a fifty-third review); else as picked
  const named = matches.length === 1 ? matches[0].cards || [] : [];
  const at = (c) => (named.includes(c) ? named.indexOf(c) : named.length);
  const shown = named.length ? [...chosen].sort((a, b) => at(a) - at(b)) : chosen;
  return h(
    "div",
    { class: "select-bar" },
    h("div", { class: "select-text" },
      h("span", { class: "hint purpose", id: "select-purpose" }, selectPurpose(view, ctx)), " ",
      // (all chosen, nothing more to add: the button names them — on a phone this line, the
      // cards again, ran under the panel's foot, a fifty-first review; style.css hides it there)
      h("span", { class: `hint${progress.text === t("selectReady") ? " settled" : ""}`, id: "select-hint", dataset: { chosen: chosen.length, state: progress.state } },
        progress.text, " ", h("span", { class: "chosen" }, cardsNode(shown))),
      // (the rich returning cards are told what they received by the line above: "You received
      // from Ren: ♦A" then "● Just received: ♦A" read twice, a twenty-third review)
      view.game === "daifugo" && view.phase === "exchange" ? null : freshNote(view, ctx),
      foulWarning(view, matches)),
    h("div", { class: "row" }, buttons,
      chosen.length ? h("button", { type: "button", class: "act ghost", dataset: { clear: "1" }, onclick: () => ctx.clear() }, t("clear")) : null),
  );
}

/** A play chosen that would go out on a forbidden finish (反則上がり: ranked last), said before
 * it is made (the player learnt it from the badge after: a twenty-eighth review). The engine's
 * view names such plays (`foul_finishes`), with the card that makes each one. */
function foulWarning(view, matches) {
  const fouls = view.foul_finishes || {};
  const hit = matches.find((a) => Object.hasOwn(fouls, a.raw));
  if (!hit) return null;
  const card = String(fouls[hit.raw]);
  const words = { 2: "foulCard2", JK: "foulCardJK", KH: "foulCardKH" };
  const named = words[card] ? t(words[card]) : card.replace("JK", t("foulCardJK"));
  return h("span", { class: "hint foul-warn", id: "foul-warn" }, t("foulWarn", { card: named }));
}

/** What the teal dot on a hand card means, said where a phone shows it (the card's tooltip was
 * all: a phone has no hover, a fifth review): "● Just received: ♥K ♠2", or null. */
function freshNote(view, ctx) {
  const hand = view.hand || [];
  const fresh = [...freshCards(view, ctx)].filter((c) => hand.includes(c));
  const gave = gaveCards(view, ctx);
  if (!fresh.length && !gave) return null;
  return h("span", { class: "hint fresh-note", id: "fresh-note" },
    fresh.length ? [h("span", { class: "fresh-dot", "aria-hidden": "true" }), ` ${t("freshCard")}: `, cardsNode(fresh)] : null,
    gave ? [fresh.length ? " · " : "", t("youGaveTo", { who: seatName(ctx.table, gave.to, true) }), " ", cardsNode(gave.cards)] : null);
}

/** Whether `seat` has played in this Daifugo game (a log the snapshot cut, `log_from`, is
 * long past the exchange: taken as so). */
function playedYet(view, seat) {
  if ((view.log_from || 0) > 0) return true;
  return (view.log || []).some((e) => e.seat === seat && String(e.action).startsWith("play"));
}

/** The cards the Daifugo exchange took from this poor seat (its best, handed up without a
 * choice) and to whom, until it first plays: a poor player on a phone saw a card arrive and
 * was not told what had gone (a ninth review). */
function gaveCards(view, ctx) {
  const me = ctx.mySeat;
  if (me == null || !ctx.live || view.game !== "daifugo") return null;
  if (playedYet(view, me)) return null;
  const row = (view.exchange || []).find((e) => e.poor === me && e.given?.length);
  return row ? { to: row.rich, cards: row.given } : null;
}

/** The cards in every one of the legal plays (none if passing is legal): ["3D"] on a Daifugo
 * opening lead that must hold ♦3. */
export function mustHold(legal) {
  const plays = legal.filter((a) => a.startsWith("play "));
  if (!plays.length || plays.length !== legal.length) return [];
  const cards = (a) => a.split(/\s+/).slice(1).map((w) => w.split("=")[0].toUpperCase());
  return plays.map(cards).reduce((common, these) => common.filter((c) => these.includes(c)));
}

/** What the selection is for: the widow discard, the Daifugo exchange (what this seat received
 * and whom it returns cards to, and why), 7渡し, 10捨て, a play. */
export function selectPurpose(view, ctx) {
  const name = (s) => seatName(ctx.table, s, true);
  if (view.game === "daifugo") {
    if (view.phase === "exchange") {
      const row = (view.exchange || []).find((e) => e.rich === ctx.mySeat && !e.returned);
      if (row) {
        const titles = view.titles || [];
        return [t("exchangeReturn", { richTitle: titleName(titles[row.rich]), poorTitle: titleName(titles[row.poor]), poor: name(row.poor), k: row.count }),
          // (a sentence of its own: "…受け取ったカード: ♠A 1枚選んでください" ran on, a review)
          row.given?.length ? [" ", t("youReceived", { who: name(row.poor) }), " ", cardsNode(row.given), t("fullStop")] : null];
      }
    }
    if (view.phase === "give") return t("givePrompt", { k: maxSelectable(view), to: name(nextSeat(view, ctx.mySeat)) });
    if (view.phase === "discard") return t("discardPrompt", { k: maxSelectable(view) });
    // a card every play must hold (♦3 on the opening lead): said before a wrong tap says it
    // (only a refusal's toast did: a ninth review)
    // (not where the card is the hand's one: "every play must hold ♠9" with ♠9 alone left read
    // as a rule, a twenty-second review)
    const must = view.hand?.length === 1 ? [] : mustHold(ctx.legal || []);
    return must.length ? [t("playPrompt"), " ", t("mustHold"), " ", cardsNode(must), t("mustHoldEnd")] : t("playPrompt");
  }
  // (the count is the line after's, "Choose 3 cards." — said in both, it read twice: a
  // twenty-third review)
  // and who will see them (everyone saw "discard ♦3 ♣7 ♣8", and the prompt never said it
  // would: the same review)
  if (view.game === "napoleon" && view.phase === "exchange") {
    const shown = { all: "discardsShownAll", honors: "discardsShownHonors" }[view.rules?.reveal_discards];
    // the named card among the widow's (or the Napoleon's own): alone, whatever is discarded
    const alone = view.alone && view.adjutant_card && !view.alone_declared
      ? [" ", h("span", { id: "widow-alone" }, t("widowAlone", { card: cardText(view.adjutant_card) }))] : null;
    // (sentences, not "捨てます: (…公開されます) 4枚選んでください", a twenty-fifth review)
    return [t("widowPrompt"), alone, shown ? [" ", h("span", { class: "discards-shown", id: "discards-shown" }, t(shown))] : null];
  }
  return t("selectCards");
}

function maxSelectable(view) {
  return view.pending || view.choose?.max || Math.max(0, ...(view.legal_actions || []).map((a) => a.split(/\s+/).length - 1));
}

/** The next seat still in after `s`, in the order of play (seating, turned by Qリバース). */
export function nextSeat(view, s) {
  const order = Array.isArray(view.seating) ? view.seating : [...Array(view.players).keys()];
  const out = new Set(view.out || []);
  const n = order.length;
  let i = order.indexOf(s);
  for (let k = 0; k < n; k++) {
    i = (i + (view.direction === -1 ? -1 : 1) + n) % n;
    if (!out.has(order[i])) return order[i];
  }
  return s;
}

/**
 * How far the selection is, from the selection itself (never from earlier clicks): "choose 2
 * more", "ready: confirm", "you may choose up to 1 more", or "no legal action".
 */
export function selectProgress(plan, chosen, matches) {
  // the most cards of a legal action that holds the chosen ones: more than chosen, and more
  // may be chosen
  const top = most(plan, chosen);
  const reachable = top > chosen.length;
  if (plan.need != null) {
    const left = plan.need - chosen.length;
    // nothing chosen yet: how many, not "1 more" of nothing (a third review)
    if (left > 0) return { state: "more", text: t(chosen.length ? "selectMore" : "selectNeed", { k: left }) };
    return matches.length ? { state: "ready", text: t("selectReady") } : { state: "none", text: t("noMatch") };
  }
  if (!chosen.length) return { state: "empty", text: t("selectStart") };
  if (matches.length) return { state: "ready", text: reachable ? t("selectReadyMore", { k: top - chosen.length }) : t("selectReady") };
  return reachable ? { state: "more", text: t("selectContinue") } : { state: "none", text: t("noMatch") };
}

function buttonBar(view, ctx, plan) {
  const bids = plan.buttons.filter((a) => a.verb === "bid");
  const others = plan.buttons.filter((a) => a.verb !== "bid");
  const grid = view.game === "napoleon" && bids.length > 6;
  // the hook's "the dealer may not bid n" is a sentence of its own, on its own line (glued on
  // after the label's colon it read as one run-on prompt: a twenty-eighth review)
  const label = bids.length ? h("div", { class: "hint" }, armedHint(view, ctx, [`${view.game === "hell" ? t("bidHell") : t("bid")}:`,
    view.game === "hell" && view.forbidden_bid != null && view.dealer === ctx.mySeat
      ? h("span", { class: "hook-note", id: "hook-note" }, t("forbidden", { n: view.forbidden_bid })) : null])) : null;
  const row = others.map((a) => actionButton(a.raw, view, ctx, a.verb === "pass" ? "pass" : ""));
  // Nap's bids say what they are worth, and what Misère is (ツー (2), ミゼール… and nothing of the
  // points: a twenty-third review)
  // and a Napoleon bidder who passed before, asked again, is told why (their "Pass" still on
  // the felt, the word on the soft pass only in the side panel below: a newcomer took the table
  // for broken, a thirty-fourth review)
  const passedBefore = view.game === "napoleon" && bids.length && !view.rules?.pass_is_final
    && (view.auction || []).some((a) => a.seat === ctx.mySeat && a.action === "pass");
  const note = view.game === "nap" && bids.length && view.stakes ? h("p", { class: "hint small", id: "nap-stakes-note" }, t("napStakesNote"))
    : passedBefore ? h("p", { class: "hint small", id: "pass-again-note" }, t("passAgain")) : null;
  return h(
    "div",
    { class: "buttons" },
    // beside a bid table, Pass and the label share a line: the table's last rows stay in view
    grid ? h("div", { class: "row bid-head" }, row, label) : h("div", { class: "row" }, row),
    grid ? null : label,
    bids.length ? (grid ? bidTable(bids, view, ctx)
      : h("div", { class: "row bids" }, withHooked(bids.map((a) => actionButton(a.raw, view, ctx, "bidbtn")), bids, view, ctx))) : null,
    note,
  );
}

/** Hell's dealer's bids with the one the hook forbids in its place, struck through and idle
 * (it was missing: "0 2 3 5" read as a broken row, where other tables grey it: a fifteenth
 * review). */
function withHooked(buttons, bids, view, ctx) {
  const n = view.forbidden_bid;
  if (view.game !== "hell" || n == null || view.dealer !== ctx.mySeat) return buttons;
  const hooked = h("button", { type: "button", class: "act bidbtn hooked", id: "hooked-bid", disabled: true,
    title: t("forbidden", { n }), "aria-label": t("forbidden", { n }) }, String(n));
  const at = bids.findIndex((a) => Number(a.raw.split(" ")[1]) > n);
  return at < 0 ? [...buttons, hooked] : [...buttons.slice(0, at), hooked, ...buttons.slice(at)];
}

const BID_SUITS = ["C", "D", "H", "S", "N"]; // lowest to highest, as Napoleon ranks a bid's suit

/** Napoleon's bids as a table, each bid in the cell of its number and its suit (♣ ♦ ♥ ♠, NT) —
 * found at a glance, where a flow of 30 buttons wrapped at the screen's width put 14♠ under 13♦
 * on one screen and under 15♣ on another: a row per suit on a wide screen, a row per number on
 * a narrow one (a phone's four columns). */
function bidTable(bids, view, ctx) {
  const cell = (a) => /^bid (\d+)([CDHSN])$/.exec(a.raw);
  const parsed = bids.map((a) => [a, cell(a)]);
  if (parsed.some(([, m]) => !m)) return h("div", { class: "bid-grid" }, bids.map((a) => actionButton(a.raw, view, ctx, "bidbtn")));
  const suits = BID_SUITS.filter((s) => parsed.some(([, m]) => m[2] === s));
  const numbers = parsed.map(([, m]) => Number(m[1]));
  const low = Math.min(...numbers);
  // (a phone on its side too: its actions have a hundred pixels or so, and the rows of the
  // lowest bids, every suit in each, are the ones a bidder looks for — by suit, ♥ and ♠ were
  // below the fold: a nineteenth review)
  const wide = !BIDS_NARROW.matches;
  if (!wide && ctx.setBidAt) return bidPicker(parsed, suits, view, ctx);
  const across = wide ? Math.max(...numbers) - low + 1 : suits.length;
  return h("div", { class: `bid-grid bid-table ${wide ? "by-suit" : "by-number"}`, style: { "grid-template-columns": `repeat(${across}, minmax(0, 1fr))` } },
    parsed.map(([a, m]) => {
      const b = actionButton(a.raw, view, ctx, "bidbtn");
      const [row, col] = [Number(m[1]) - low + 1, suits.indexOf(m[2]) + 1];
      b.style.setProperty("grid-row", String(wide ? col : row));
      b.style.setProperty("grid-column", String(wide ? row : col));
      return b;
    }));
}

/** On a phone, Napoleon's bids in two steps: the number (the lowest open at first), then the
 * suit, each a button a finger finds — the table of ten rows had buttons 24 px high, its last
 * rows cut at the panel's foot (a twenty-fifth review). A suit no longer open at that number is
 * shown, idle, so the row keeps its places. */
function bidPicker(parsed, suits, view, ctx) {
  const numbers = [...new Set(parsed.map(([, m]) => Number(m[1])))].sort((a, b) => a - b);
  const armed = Number(/^bid (\d+)/.exec(ctx.armed || "")?.[1]);
  const at = numbers.includes(ctx.bidAt) ? ctx.bidAt : numbers.includes(armed) ? armed : numbers[0];
  const nums = h("div", { class: "bid-numbers", role: "group", "aria-label": t("bidNumbers"), style: { "grid-template-columns": `repeat(${numbers.length}, minmax(0, 1fr))` } },
    numbers.map((n) => h("button", { type: "button", class: `bid-num${n === at ? " on" : ""}`, "aria-pressed": String(n === at),
      dataset: { bidNum: String(n) }, onclick: () => ctx.setBidAt(n) }, String(n))));
  const cells = suits.map((s) => {
    const open = parsed.find(([, m]) => Number(m[1]) === at && m[2] === s);
    if (open) {
      const b = actionButton(open[0].raw, view, ctx, "bidbtn");
      if (ctx.armed === open[0].raw) b.dataset.again = t("tapAgainShort");
      return b;
    }
    const raw = `bid ${at}${s}`;
    return h("button", { type: "button", class: "act bidbtn", disabled: true, dataset: { bidShut: raw }, "aria-label": bidLabel(raw) }, actionNode(raw, view.game));
  });
  return h("div", { class: "bid-picker", id: "bid-picker" }, nums,
    h("div", { class: "bid-suits", style: { "grid-template-columns": `repeat(${suits.length}, minmax(0, 1fr))` } }, cells));
}

const ADJ_RANKS = "23456789TJQKA";

function adjutantPicker(view, ctx, plan) {
  const hand = new Set(view.hand || []);
  // the cards the Napoleon has just discarded (adjutant named after the exchange) are as good as
  // their own: named, they make a lone Napoleon — they were offered as usual calls, unmarked
  // ("Joker", "Mighty" just discarded: a fifty-fifth review)
  const gone = new Set((view.discards || []).filter((c) => !hand.has(c)));
  const mine = new Set([...hand, ...gone]);
  const bySuit = {};
  for (const a of plan.adjutant) {
    const suit = parseCard(a.cards[0]).suit || "JK";
    (bySuit[suit] ||= []).push(a);
  }
  // each suit from its ace down: the cards an adjutant is named by come first (on a phone a
  // suit is one row that scrolls sideways, its high cards in view)
  const high = (a) => ADJ_RANKS.indexOf(parseCard(a.cards[0]).rank.replace("10", "T"));
  const label = (c) => (gone.has(c) ? t("adjDiscarded", { card: cardText(c) }) : hand.has(c) ? t("adjInHand", { card: cardText(c) }) : cardText(c));
  const rows = Object.entries(bySuit).map(([suit, acts]) =>
    h("div", { class: "adj-row", dataset: { suit } }, [...acts].sort((x, y) => high(y) - high(x)).map((a) =>
      h("button", {
        type: "button",
        class: `act adj-card ${mine.has(a.cards[0]) ? "in-hand" : ""}${gone.has(a.cards[0]) ? " discarded" : ""}${ctx.armed === a.raw ? " armed" : ""}`,
        dataset: { action: a.raw },
        title: label(a.cards[0]),
        // (the fading alone said "in your hand": a screen reader heard "♦J" either way)
        "aria-label": label(a.cards[0]),
        "aria-pressed": confirmsTwice(a.raw, ctx.legal) ? String(ctx.armed === a.raw) : null,
        onclick: (e) => press(a.raw, ctx, e),
      }, cardImage(a.cards[0])),
    )),
  );
  const usual = usualCalls(view, plan.adjutant, mine).map(({ a, name }) =>
    h("button", {
      type: "button",
      class: `act adj-quick${ctx.armed === a.raw ? " armed" : ""}`,
      dataset: { quick: a.raw },
      "aria-label": name === cardText(a.cards[0]) ? name : `${name}: ${cardText(a.cards[0])}`,
      "aria-pressed": confirmsTwice(a.raw, ctx.legal) ? String(ctx.armed === a.raw) : null,
      onclick: (e) => press(a.raw, ctx, e),
    }, hideFromReaders(h("span", { class: "mini-card" }, cardImage(a.cards[0]))), h("span", { class: "adj-name" }, name)),
  );
  return h("div", { class: "adjutant-picker" }, h("div", { class: "hint" }, armedHint(view, ctx, t(gone.size ? "pickAdjutantDiscards" : "pickAdjutant"))),
    usual.length ? h("div", { class: "adj-usual", role: "group", "aria-label": t("adjUsual") },
      h("span", { class: "hint" }, t("adjUsual")), usual) : null,
    rows);
}

const USUAL_CALLS = 4;

/** The cards a Napoleon usually names, strongest first: the strongest `USUAL_CALLS` of those
 * not in `mine` (the joker by its mode, Mighty, 正J, 裏J, then trumps), and よろめき's ♥Q where
 * it is in force, each with its name (a review could not find them among 53 small cards). */
function usualCalls(view, acts, mine) {
  const trump = view.trump;
  const other = OTHER_JACK[trump];
  const nameOf = (card) => {
    const { rank, suit } = parseCard(card);
    if (!suit) return t("joker");
    if (card === "AS") return t("adjMighty");
    if (rank === "J" && suit === trump) return t("adjSeiJ");
    if (rank === "J" && suit === other) return t("adjUraJ");
    if (card === "QH" && view.rules?.yoromeki) return t("adjYoromeki");
    return cardText(card);
  };
  const free = acts.filter((a) => !mine.has(a.cards[0]));
  const top = [...free].sort((x, y) => trickStrength(y.cards[0], view) - trickStrength(x.cards[0], view)).slice(0, USUAL_CALLS);
  const qh = view.rules?.yoromeki ? free.find((a) => a.cards[0] === "QH") : null;
  if (qh && !top.includes(qh)) top.push(qh);
  return top.map((a) => ({ a, name: nameOf(a.cards[0]) }));
}

