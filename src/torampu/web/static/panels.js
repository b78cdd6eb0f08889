// The side panels: contract and trump, auction, previous trick, honors, standings, the Hell
// score sheet, the Daifugo log, the last game's result and finished games. Every piece of the
// view a player needs has its labelled place here or on the felt; nothing is shown raw.

import { recordLink } from "./api.js";
import { cardImage, cardText } from "./cards.js";
import { h, sentence } from "./dom.js";
import { lang, pick, t } from "./i18n.js";
import { actionNode, bidNode, cardNode, cardsNode, daifugoWhy, FLUSHES, logActionNode, signed, suitNode, whyText } from "./labels.js";
import { daifugoFlags, napMisere, nextSeat, seatName, titleName } from "./game.js";

function panel(id, title, ...body) {
  return h("section", { class: "panel side", id }, h("h3", {}, title), ...body);
}

/** A span of nodes and strings (strings as text): the label of a value in a panel. */
function span(...parts) {
  return h("span", {}, ...parts);
}

function dl(pairs) {
  return h("dl", { class: "kv" }, pairs.filter(Boolean).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
}

/** All panels for a view, in order; `ctx` has table, mySeat, lastResult, finished, tableId. */
export function sidePanels(view, ctx) {
  const play = [];
  play.push(infoPanel(view, ctx));
  if (view.game === "napoleon" || view.game === "nap") play.push(auctionPanel(view, ctx));
  if (view.game !== "daifugo") play.push(lastTrickPanel(view, ctx));
  // (the honors taken once tricks are played: through the auction a table of noughts pushed
  // the standings under the chat at 1920×1080, a twenty-ninth review)
  if (view.game === "napoleon" && (view.phase === "play" || (view.tricks || []).length)) play.push(honorsPanel(view, ctx));
  if (view.game === "daifugo") play.push(logPanel(view, ctx));
  // the last game's result after the standings: the game in play comes first (the result
  // was shown whole in the box between the games)
  const match = [standingsPanel(view, ctx)];
  if (ctx.lastResult) match.push(resultPanel(view, ctx));
  if (view.match?.sheet?.length) match.push(sheetPanel(view, ctx));
  if (ctx.finished?.length) match.push(finishedPanel(ctx));
  // once the match is over, the standings and the games' records come first: there is no
  // game in play, and they sat below its panels, cut off at the column's foot (a review);
  // so between games too, the next deal's empty panels after them ("Game 2 is over" over
  // "Contract –", the game's result under the chat at a laptop's foot: a fourteenth review)
  const over = view.match && view.match.games_played >= view.match.games;
  return (over || ctx.between ? [...match, ...play] : [...play, ...match]).filter(Boolean);
}

// ------------------------------------------------------------------ info

function infoPanel(view, ctx) {
  const name = (s) => (s == null ? "–" : seatName(ctx.table, s));
  const rows = [];
  if (view.game === "napoleon") {
    rows.push([t("contract"), view.contract ? span(bidNode(view.contract, "napoleon"), ` · ${name(view.napoleon)}`) : "–"]);
    rows.push([t("trump"), view.contract ? span(suitNode(view.trump)) : "–"]);
    rows.push([t("adjutantCard"), view.adjutant_card ? span(cardNode(view.adjutant_card)) : "–"]);
    let adj = view.adjutant_card ? t("adjutantUnknown") : "–";
    if (view.alone || view.alone_declared) adj = t("alone");
    else if (view.adjutant_known && view.adjutant != null) adj = name(view.adjutant);
    rows.push([t("adjutant"), adj]);
    if (view.widow?.length) rows.push([t("widow"), span(cardsNode(view.widow))]);
    if (view.discards?.length) rows.push([t("discards"), span(cardsNode(view.discards))]);
    else if (view.discards_count) rows.push([t("discards"), t("discardsHidden", { n: view.discards_count })]);
    if (view.call) rows.push([t("call"), t("callActive", { card: view.rules?.joker_call ? cardText(view.rules.joker_call) : "" })]);
    // (how a game scores is said in the box between games, where the points are: a row here,
    // two lines long, put the standings below a large screen's fold — a fifty-fifth review)
  } else if (view.game === "nap") {
    rows.push([t("contract"), view.contract ? span(bidNode(view.contract, "nap"), ` · ${name(view.declarer)}`) : "–"]);
    // (a misère is played without trumps: the row said "–", as before the first lead of any
    // other contract, and nothing else on the page said there would be none — a 52nd review)
    rows.push([t("trump"), view.trump ? span(suitNode(view.trump)) : napMisere(view) ? span(suitNode("N")) : "–"]);
  } else if (view.game === "hell") {
    rows.push([t("cardsThisRound", { n: view.cards }), ""]);
    rows.push([t("trump"), span(suitNode(view.trump), " ", view.upcard ? ["(", `${t("upcard")} `, cardNode(view.upcard), ")"] : null)]);
    if (view.forbidden_bid != null) rows.push([t("forbidden", { n: view.forbidden_bid }), ""]);
    rows.push(["", bidsTable(view, ctx)]);
    // how a round scores, with this table's numbers (a newcomer saw points and not why)
    const scoring = hellScoringText(view.rules);
    if (scoring) rows.push([t("hellScoring"), h("span", { id: "hell-scoring" }, scoring)]);
  } else if (view.game === "daifugo") {
    daifugoRows(view, ctx, rows, (s) => (s == null ? "–" : seatName(ctx.table, s, true)));
  }
  if ((view.game === "napoleon" || view.game === "nap") && view.redeals) {
    rows.push([t("redealsLabel"), t("redealsText", { n: view.redeals })]);
  }
  rows.push([t("dealerLabel"), view.dealer != null ? name(view.dealer) : null]);
  const shown = rows.filter((r) => r[1] !== null);
  // an empty box said nothing (Daifugo's start): say that nothing is in force yet
  if (!shown.length) return panel("info", t(`game_${view.game}`), h("p", { class: "muted small", id: "info-calm" }, t("infoCalm")));
  return panel("info", t(`game_${view.game}`), dl(shown));
}

/** Daifugo's state, each piece under its name: titles, the exchange (who gives how many cards
 * to whom, and what this seat received), 天変地異, 7渡し / 10捨て in progress, the cards
 * discarded, the order of play, the finishing order with 反則上がり and 都落ち. */
function daifugoRows(view, ctx, rows, name) {
  // (a game over is in no state: its last trick's イレブンバック stayed listed as in force through
  // the pause and after the match — a thirtieth review)
  const flags = view.phase === "over" ? [] : daifugoFlags(view);
  if (flags.length) rows.push([t("tableState"), h("span", { class: "flags" }, flags)]);
  if (view.titles) rows.push([t("titles"), h("span", { class: "title-list" }, view.titles.map((ti, s) =>
    h("span", { class: "title-item" }, `${name(s)}: `, h("b", {}, titleName(ti, true)))))]);
  if (view.exchange?.length) rows.push([t("exchangeTitle"), exchangeList(view, ctx)]);
  if (view.defense > 0 && view.rules?.defense) rows.push([t("defenseLabel"), t("defenseText", { n: view.defense })]);
  if (view.tenpen) {
    rows.push([t("tenpenLabel"), span(t("tenpenText", { poor: name(view.tenpen.poor), rich: name(view.tenpen.rich) }), " ",
      cardsNode(view.tenpen.hand || []))]);
  }
  if (view.phase === "give" || view.phase === "discard") {
    const who = name(view.to_play);
    const text = view.phase === "give"
      ? t("givingNow", { who, to: name(nextSeat(view, view.to_play)) })
      : t("discardingNow", { who });
    rows.push([t(`phase_${view.phase}`), text]);
  }
  if (view.discarded?.length) {
    // what put them there: 10捨て, and 都落ち (the dropped 大富豪's hand goes to the pile face
    // up) — "Discarded (10捨て)" over a dropped 大富豪's cards, 10捨て off, read as a rule in
    // force that was not (an eighteenth review)
    const why = [view.rules?.ten_discard ? t("phase_discard") : null, view.fallen != null ? t("discardedFallen") : null].filter(Boolean);
    // (the reason beside the cards, not in the label: the long label made its column wide and
    // squeezed every value of the panel to a letter or two a line — a twenty-third review)
    const note = why.length ? h("span", { class: "muted small kv-why" }, `${why.join(" · ")}: `) : null;
    rows.push([t("discardedLabel"), span(note, cardsNode(view.discarded))]);
  }
  if (view.rules?.queen_reverse || view.direction === -1 || !isIdentity(view.seating)) {
    rows.push([t("orderLabel"), playOrder(view, name)]);
  }
  if (view.passed?.length) rows.push([t("passed"), view.passed.map((s) => name(s)).join(", ")]);
  if (view.out?.length) rows.push([t("outOrder"), outList(view, name)]);
}

function exchangeList(view, ctx) {
  const name = (s) => seatName(ctx.table, s, true);
  const me = ctx.mySeat;
  const title = (s) => titleName(view.titles?.[s]);
  const items = [];
  // the exchange rows are settled in order: before the one whose 大富豪/富豪 is to return now
  const current = view.phase === "exchange" ? view.exchange.findIndex((e) => e.rich === view.to_play) : view.exchange.length;
  for (const [i, e] of view.exchange.entries()) {
    const settled = e.returned != null || (current >= 0 && i < current);
    const up = t("exchangeUp", { poorTitle: title(e.poor), poor: name(e.poor), richTitle: title(e.rich), rich: name(e.rich), k: e.count });
    const down = t("exchangeDown", { poorTitle: title(e.poor), poor: name(e.poor), richTitle: title(e.rich), rich: name(e.rich), k: e.count });
    items.push(h("li", { dataset: { exchangeRich: e.rich, exchangePoor: e.poor } },
      h("div", {}, up, e.given && (me === e.rich || me === e.poor) ? [" ", h("span", { class: "ex-cards" }, cardsNode(e.given))] : null),
      h("div", {}, down, " ", e.returned?.length ? h("span", { class: "ex-cards" }, cardsNode(e.returned))
        : settled ? h("span", { class: "muted" }, t("done")) : h("span", { class: "muted" }, t("exchangeWaiting")))));
  }
  const mine = view.exchange.find((e) => e.rich === me || e.poor === me);
  let got = null;
  if (mine && me === mine.rich && mine.given?.length) got = [t("youReceived", { who: name(mine.poor) }), " ", cardsNode(mine.given)];
  if (mine && me === mine.poor && mine.returned?.length) got = [t("youReceived", { who: name(mine.rich) }), " ", cardsNode(mine.returned)];
  return h("div", { class: "exchange-info", id: "exchange-info" }, h("ul", { class: "plain" }, items),
    got ? h("p", { class: "received", id: "exchange-received" }, got) : null);
}

function isIdentity(seating) {
  return !Array.isArray(seating) || seating.every((s, i) => s === i);
}

function playOrder(view, name) {
  const order = Array.isArray(view.seating) ? [...view.seating] : [...Array(view.players).keys()];
  if (view.direction === -1) order.reverse();
  return span(view.direction === -1 ? t("directionReversed") : t("directionNormal"), ": ", order.map(name).join(" → "));
}

function outList(view, name) {
  const fouls = new Set(view.fouls || []);
  return h("ol", { class: "out-list" }, (view.out || []).map((s) => {
    let note = null;
    if (fouls.has(s)) note = t("foulNote");
    else if (view.fallen === s) note = t("fallenNote");
    return h("li", {}, name(s), note ? h("span", { class: "muted small" }, ` (${note})`) : null);
  }));
}

function bidsTable(view, ctx) {
  const rows = (view.bids || []).map((b, s) =>
    h("tr", {}, h("th", {}, seatName(ctx.table, s)), h("td", { class: "num" }, b == null ? "–" : String(b)),
      h("td", { class: "num" }, String(view.tricks_won?.[s] ?? 0))));
  return h("table", { class: "grid" }, h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", { class: "num" }, t("bids")),
    h("th", { class: "num" }, t("tricksWon")))), h("tbody", {}, rows));
}

// ------------------------------------------------------------------ auction and tricks

function auctionPanel(view, ctx) {
  const rows = (view.auction || []).map((a) =>
    h("li", {}, h("span", { class: "who" }, seatName(ctx.table, a.seat)), span(actionNode(a.action, view.game))));
  // whether a pass is for good, while the bidding lasts: a player who had passed, asked to bid
  // again, thought the table broken (the soft pass of 001 is the default: a fourteenth review)
  const note = view.game === "napoleon" && view.phase === "bid" && view.rules
    ? h("p", { class: "muted small", id: "auction-note" }, t(view.rules.pass_is_final ? "passFinal" : "passSoft"))
    : null;
  const list = rows.length ? h("ol", { class: "auction" }, rows) : h("p", { class: "muted" }, t("noBids"));
  // once the bidding is over, folded to its title (the contract and its maker are in the panel
  // above): six players' bids and passes pushed the standings out of the column at 1920×1080
  // (a thirtieth review); a press opens it, and it stays as the player left it
  if (view.phase === "bid" || !rows.length) return panel("auction", t("auction"), list, note);
  return h("section", { class: "panel side", id: "auction" },
    h("details", { class: "fold-panel", id: "auction-fold" },
      h("summary", {}, h("h3", {}, `${t("auction")} (${rows.length})`)), list));
}

function trickRow(trick, ctx) {
  return h("div", { class: "trick-row" }, trick.cards.map((c) =>
    h("div", { class: `mini ${c.seat === trick.winner ? "winner" : ""}` },
      h("span", { class: "mini-card" }, cardImage(c.card)), h("span", { class: "small" }, seatName(ctx.table, c.seat, true)))));
}

function lastTrickPanel(view, ctx) {
  const tricks = view.tricks || [];
  if (!tricks.length) return null;
  const last = tricks[tricks.length - 1];
  return panel(
    "last-trick",
    `${t("lastTrick")} · ${t("trick", { n: tricks.length })}`,
    trickRow(last, ctx),
    last.why ? h("p", { class: "why-text" }, whyText(last.why)) : null,
  );
}

function honorsPanel(view, ctx) {
  // the seats that took some only (each seat's count is on its box on the felt): six rows of
  // noughts pushed the standings out of the column at 1920×1080 (a thirtieth review)
  const rows = (view.honors_taken || []).map((cards, s) => [cards, s, view.honor_counts?.[s] ?? cards.length])
    .filter(([, , n]) => n > 0)
    .map(([cards, s, n]) => h("tr", {}, h("th", {}, seatName(ctx.table, s)), h("td", { class: "num" }, String(n)),
      h("td", {}, span(cardsNode(cards)))));
  return panel("honors", t("honors"), rows.length
    ? h("table", { class: "grid" }, h("tbody", {}, rows))
    : h("p", { class: "muted small", id: "honors-none" }, t("honorsNone")));
}

/** Daifugo's play log, newest first. An entry's rulings are a note indented under it, smaller,
 * on a rule of their own; an entry that cleared the table has a dashed line above it, between
 * it and the plays on the new table. (The flush's note was a line like an entry under "Sora
 * Pass": it read as an older entry, before the pass that caused it — a twelfth review.) */
function logPanel(view, ctx) {
  // between games, the game just over's last plays (the pause carries them): "No plays yet",
  // the next game's, stood behind "Game 2 is over" (a twelfth review)
  const done = ctx.between?.log?.length ? ctx.between : null;
  const title = done ? `${t("log")} · ${t("gameNo", { k: done.game + 1, game: view.game })}` : t("log");
  const entries = (done ? done.log : view.log || []).slice(-14).reverse();
  const rows = entries.map((e) => {
    const flushed = (e.why || []).some((w) => FLUSHES.has(w?.code));
    return h("li", { class: flushed ? "flushed" : null },
      h("div", { class: "log-entry" }, h("span", { class: "who" }, seatName(ctx.table, e.seat)), span(logActionNode(e, view.game, (s) => seatName(ctx.table, s)))),
      e.why?.length ? h("div", { class: "why-text log-note" }, e.why.map((w) => daifugoWhy(w, (s) => seatName(ctx.table, s))).join(" · ")) : null);
  });
  if (!rows.length) return panel("log", title, h("p", { class: "muted small", id: "log-empty" }, t("logEmpty")));
  // (scrolled by the keyboard too: nothing in it takes the focus — a keyboard review)
  return panel("log", title, h("ul", { class: "log", tabindex: "0", "aria-label": title }, rows));
}

// ------------------------------------------------------------------ scores

function standingsPanel(view, ctx) {
  const m = view.match;
  if (!m) return null;
  const n = m.totals.length;
  // the total stays at the row's right end while the games' columns scroll under it (at
  // game 19 of Hell it had scrolled out of sight, the first five games shown instead); the
  // columns named as in the box between games ("#1" beside "1戦": a fourteenth review)
  const head = h("tr", {}, h("th", {}, ""), m.per_game.map((_, k) => h("th", { class: "num", title: t("gameNo", { k: k + 1, game: view.game }) }, t("sc_gameCol", { k: k + 1, game: view.game }))), h("th", { class: "num total-col" }, t("total")));
  const rows = [];
  for (let s = 0; s < n; s++) {
    // (names short: a bot's strength is on its seat's box, and "(CPU・普通)" on every row
    // crowded the standings and the results, a thirty-second review)
    rows.push(h("tr", { class: m.leaders?.includes(s) && m.games_played ? "lead" : "" },
      h("th", {}, seatName(ctx.table, s, true)),
      m.per_game.map((g) => h("td", { class: "num" }, String(g[s]))),
      h("td", { class: "num total total-col", dataset: { totalSeat: s } }, String(m.totals[s]))));
  }
  // between games, the game just over, as the head and the status line say (the panel named
  // the next one: "game 1 of 5" above, "Standings · game 2 of 5" beside it, a third review)
  const k = ctx.between ? ctx.between.game + 1 : Math.min(m.games_played + 1, m.games);
  return panel("standings", `${t("standings")} · ${t("gameOf", { k, n: m.games, game: ctx.table?.game })}`,
    h("div", { class: "scroll" }, h("table", { class: "grid" }, h("thead", {}, head), h("tbody", {}, rows))));
}

function sheetPanel(view, ctx) {
  const sheet = view.match.sheet;
  const n = sheet[0].bids.length;
  // one column per player, as on the paper sheet (002): bid/tricks and the running total; the
  // first column (cards dealt and trump) stays put while the players' columns scroll sideways
  const head = h("tr", {}, h("th", { class: "sticky" }, `${t("sheetCards")}`),
    Array.from({ length: n }, (_, s) => h("th", { class: "num", title: seatName(ctx.table, s) }, seatName(ctx.table, s, true))));
  // the deal's dealer marked in their cell, as on a paper sheet: "who was hooked in deal 4?"
  // had no answer after the deal (an eighteenth review)
  const dealt = (r, s) => (r.dealer === s ? h("span", { class: "sheet-dealer", title: t("dealer"), "aria-label": t("dealer") }, "D") : null);
  const rows = sheet.map((r) => h("tr", {}, h("th", { class: "sticky num" }, `${r.cards} `, suitNode(r.trump)),
    r.bids.map((b, s) => h("td", { class: `num ${b === r.tricks[s] ? "hit" : "miss"}`, dataset: r.dealer === s ? { dealer: "1" } : null },
      dealt(r, s), `${b}/${r.tricks[s]} `, h("b", {}, String(r.totals[s]))))));
  return panel("sheet", t("sheet"), h("p", { class: "muted small sheet-key" }, t("sheetKey")),
    h("div", { class: "scroll" }, h("table", { class: "grid sheet-table" }, h("thead", {}, head), h("tbody", {}, rows))));
}

/** The previous game's result: scores from match.per_game, details from the games API. */
function resultPanel(view, ctx) {
  const { index, scores, detail } = ctx.lastResult;
  const winners = new Set(detail?.winners || []);
  const rows = scores.map((v, s) => h("tr", { class: winners.has(s) ? "lead" : "" },
    h("th", {}, seatName(ctx.table, s, true)), h("td", { class: "num score", dataset: { scoreSeat: s } }, String(v))));
  const extra = detail ? resultDetail(detail, view.game, ctx) : null;
  return h("section", { class: `panel side result ${ctx.freshResult ? "fresh" : ""}`, id: "result", dataset: { game: index } },
    h("h3", {}, t("resultOf", { k: index + 1, game: view.game })), extra, h("table", { class: "grid" }, h("tbody", {}, rows)));
}

/** How a Hell round scores, with the table's numbers ("exactly your bid: 10 + 3 a trick bid
 * …"); null where the rules do not say them. */
export function hellScoringText(r) {
  if (!r || ![r.exact_base, r.exact_per_trick, r.miss_per_trick].every(Number.isFinite)) return null;
  return t("hellScoringText", {
    base: r.exact_base, per: r.exact_per_trick, miss: String(r.miss_per_trick).replace("-", "−"),
    eg: r.exact_base + 2 * r.exact_per_trick });
}

/** How a Napoleon game scores under these rules (`scoring`, `all_twenty`), or null: the
 * points between games ("−2", "+1") came with no reason, the rule one of 19 folded away in the
 * rules' window — where Hell's box said its own (a fifty-fifth review). */
export function napoleonScoringText(r) {
  if (!r || !["points", "win_loss"].includes(r.scoring)) return null;
  const base = t(r.scoring === "points" ? "napScoringPoints" : "napScoringWinLoss");
  return r.all_twenty === "lose" ? `${sentence(base)}${lang() === "ja" ? "" : " "}${t("napScoringTwenty")}` : base;
}

/** A finished game's outcome in a few lines (who declared, the contract, made or failed; the
 * titles; the bids taken), for the box between games: `detail` from the games API. */
export function resultSummary(detail, game, table, inTable = true) {
  // (not the game's winners: the points below say them, and at the match's end "Winners: Hana"
  // beside "Winner: Hana" of the match read as two verdicts, a second review); `inTable`: the
  // scores table beside has the game's own column (Daifugo's titles, Hell's bids) — at the
  // match's end it has every game's points instead, and the titles are said here
  const out = resultDetail(detail, game, { table }, false, inTable);
  return out.childElementCount ? out : null;
}

/** Draw `draw()` into the side column keeping the auction (oldest bid first) at its newest
 * bid — it stayed scrolled at its oldest, the newest bids out of sight — unless the reader
 * scrolled up in it to read. (The play log lists the newest move first: its top is already
 * the newest.) */
export function followLogs(el, draw) {
  const lists = () => el.querySelectorAll("ol.auction");
  // likewise the standings' games, sideways: the newest games beside the total (at game 14 of
  // Hell the first four showed), unless the reader scrolled back to read
  const wide = () => el.querySelectorAll("#standings .scroll");
  const atEnd = new Map();
  for (const list of lists()) {
    atEnd.set(list.closest("section")?.id, list.scrollTop + list.clientHeight >= list.scrollHeight - 4);
  }
  for (const box of wide()) atEnd.set("wide", box.scrollLeft + box.clientWidth >= box.scrollWidth - 4);
  draw();
  for (const list of lists()) {
    if (atEnd.get(list.closest("section")?.id) !== false) list.scrollTop = list.scrollHeight;
  }
  for (const box of wide()) if (atEnd.get("wide") !== false) box.scrollLeft = box.scrollWidth;
}

/** A finished game's result as label/value pairs; `inTable`: Daifugo's titles and Hell's bids
 * are in the scores table beside it (the box between games), not here. */
function resultDetail(d, game, ctx, winners = true, inTable = false) {
  const name = (s) => (s == null ? "–" : seatName(ctx.table, s, true));
  const pairs = [];
  if (game === "napoleon") {
    pairs.push([t("napoleon"), name(d.napoleon)], [t("contract"), span(bidNode(d.contract, game))]);
    // alone by the card named, not by choice: which card, and that it was the Napoleon's own
    // ("単独" alone left a veteran asking why, the card in the discards: a fifty-fifth review)
    const own = d.alone && !d.alone_declared && d.adjutant_card;
    pairs.push([t("adjutant"), own ? `${t("alone")} (${t("aloneOwnCard", { card: cardText(d.adjutant_card) })})` : d.alone ? t("alone") : name(d.adjutant)]);
    // (beside what the contract needed: "honors 2 · failed" left the sum to the reader, a
    // forty-first review)
    const need = Number.parseInt(String(d.contract ?? ""), 10);
    if (d.army_honors != null) pairs.push([t("armyHonors"), Number.isFinite(need) ? t("honorsOfNeeded", { n: d.army_honors, need }) : `${d.army_honors}`]);
    pairs.push([t("result"), [d.army_won ? t("made") : t("failed"), earlyEnd(d, d.army_won)]]);
  } else if (game === "nap") {
    pairs.push([t("declarer"), name(d.declarer)], [t("contract"), span(bidNode(d.contract, game))]);
    // "failed (1)": the number was the declarer's tricks, unnamed (a third review)
    pairs.push([t("result"), [`${d.made ? t("made") : t("failed")} (${t("tricksTaken", { n: d.declarer_tricks })})`, earlyEnd(d, d.made)]]);
    // the points, worked out: "+9" alone said nothing of Nap's stakes (a twenty-third review)
    const others = (d.scores?.length ?? 0) - 1;
    const total = d.scores?.[d.declarer];
    if (others > 0 && typeof total === "number") {
      const per = Math.abs(total / others);
      const key = `${d.made ? "napPointsMade" : "napPointsFailed"}${others === 1 ? "One" : ""}`;
      pairs.push([t("napPoints"), t(key, { per, n: others, total: signed(total) })]);
    }
  } else if (inTable) {
    // (Daifugo's titles, Hell's bids: a column of the scores table)
  } else if (game === "daifugo" && d.titles) {
    // one a line, from the 大富豪 down (a run-on line in seat order: a third review)
    const order = ["daifugo", "fugo", "heimin", "hinmin", "daihinmin"];
    const seats = d.titles.map((_, s) => s).sort((a, b) => order.indexOf(d.titles[a]) - order.indexOf(d.titles[b]));
    pairs.push([t("titles"), h("ul", { class: "plain result-lines" }, seats.map((s) => h("li", {}, `${titleName(d.titles[s], true)}: ${name(s)}`)))]);
  } else if (game === "hell" && d.bids) {
    // "Aki: bid 1 · took 1" (a bare "1/1" said neither which was which), one a line
    pairs.push([t("bids"), h("ul", { class: "plain result-lines" },
      d.bids.map((b, s) => h("li", {}, `${name(s)}: ${t("hellBidTook", { bid: b, took: d.tricks[s] })}`)))]);
  }
  if (game === "daifugo") pairs.push(...daifugoEnding(d, name));
  // (the game's: at the match's end "Winners: Aki, Kai" beside the match's "Winner: Kai" read
  // as two verdicts on one thing, a thirty-second review)
  if (winners && d.winners?.length) pairs.push([t("winnersGame", { game }), d.winners.map(name).join(t("listSep"))]);
  return dl(pairs);
}

/** How a Daifugo game ended, where it was not by the cards alone: a great revolution (大革命),
 * forbidden finishes (反則上がり), the old 大富豪's fall (都落ち) — the match's last box said
 * none of them, only the points (a twenty-eighth review). */
function daifugoEnding(d, name) {
  const out = [];
  if (d.great_revolution) out.push([t("greatLabel"), t("greatNote")]);
  const fouls = Array.isArray(d.fouls) ? d.fouls : [];
  if (fouls.length) out.push([t("foulLabel"), t("foulLine", { names: fouls.map(name).join(t("listSep")) })]);
  if (d.fallen != null) out.push([t("fallenLabel"), t("fallenLine", { name: name(d.fallen) })]);
  return out;
}

/** A deal stopped once its contract was decided (`early_end`), said under its result: "Made
 * (2 tricks taken)" beside cards left in every hand, and nothing said why (a tenth review). */
function earlyEnd(d, made) {
  return d.early_end ? h("span", { class: "early-end" }, t(made ? "earlyEndMade" : "earlyEndFailed")) : null;
}

function finishedPanel(ctx) {
  // each game's points say whose they are, and the record says it is a file (the row read
  // "#1 Record Replay 2 / 1 / 3 / 4": a fourth review)
  const points = (g) => (g.result?.scores || []).map((v, s) => `${seatName(ctx.table, s, true)} ${v}`).join(" · ");
  const rows = ctx.finished.map((g) => h("li", {},
    h("span", {}, t("gameNo", { k: g.index + 1, game: ctx.table?.game })),
    g.record === false ? h("span", { class: "muted small" }, t("afterMatch")) : [
      h("a", { href: `/t/${ctx.tableId}/replay/${g.index}`, dataset: { replay: g.index } }, t("replay")),
      h("a", { ...recordLink(ctx.tableId, g.index, ctx.table?.private), dataset: { record: g.index }, title: t("recordHelp", { game: ctx.table?.game }) }, t("recordFile"))],
    g.result?.scores?.length ? h("span", { class: "muted small finished-points" }, `${t("points")}: ${points(g)}`) : null));
  return panel("finished", t("finishedGames", { game: ctx.table?.game }), h("ul", { class: "finished" }, rows));
}
