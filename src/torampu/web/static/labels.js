// Human-readable labels of cards, bids and actions as DOM nodes (suits drawn in colour).
// Everything here is built from text nodes and elements: a card name or action from the server
// is only ever text, never markup. The suit symbols are the SVG drawings of cards.js.

import { cardText, parseCard, suitImage } from "./cards.js";
import { parseAction } from "./actions.js";
import { h } from "./dom.js";
import { pick, t } from "./i18n.js";

/** A DocumentFragment of nodes and strings (strings become text). */
function frag(...parts) {
  const f = document.createDocumentFragment();
  for (const p of parts.flat(Infinity)) {
    if (p == null || p === false) continue;
    f.append(p instanceof Node ? p : document.createTextNode(String(p)));
  }
  return f;
}

function text(s) {
  return document.createTextNode(String(s));
}

/** A card as coloured inline text: 10♥ in red. "JK=6H" reads JK(6♥). */
export function cardNode(word) {
  const [card, stands] = String(word).split("=");
  const { suit } = parseCard(card);
  const cls = suit === "H" || suit === "D" ? "red" : suit ? "black" : "joker";
  const main = h("span", { class: `ct ${cls}` }, suit ? cardText(card) : t("joker"));
  return stands ? frag(main, h("span", { class: "muted" }, "(", cardNode(stands), ")")) : main;
}

/** Cards separated by spaces. */
export function cardsNode(words) {
  return frag(words.map((w, i) => (i ? [" ", cardNode(w)] : cardNode(w))));
}

const SUIT_ORDER = "SHDC";
const RANK_ORDER = "AKQJT98765432";

/** Cards as the panels list them (the engine's display order): suits ♠ ♥ ♦ ♣, each high to low,
 * the joker last — a discard's move names its cards by rank (its notation), and the player
 * looked for them by suit (a thirtieth review). */
export function displayOrder(words) {
  const key = (w) => {
    const { rank, suit } = parseCard(w);
    return suit ? SUIT_ORDER.indexOf(suit) * 13 + RANK_ORDER.indexOf(rank) : 99;
  };
  return [...words].sort((a, b) => key(a) - key(b));
}

/** A suit letter as an icon; "N" (no trump) as text. */
export function suitNode(suit) {
  if (!suit || suit === "N") return h("span", { class: "nt" }, t("noTrump"));
  return suitImage(suit, 14) || h("span", { class: "nt" }, "NT");
}

/** No trump's word as a bid's, with a place to break it ("ノー|トランプ"), kept whole else. */
function ntWords() {
  const word = t("ntBid");
  const at = word.indexOf("ートランプ");
  return at < 0 ? [word] : [word.slice(0, at + 1), h("wbr"), word.slice(at + 1)];
}

/** A bid value: Napoleon "13S", Nap "three", Hell "2". */
export function bidNode(value, game) {
  const s = String(value);
  if (game === "nap") return text(t(`nap_${s}`));
  const m = /^(\d+)([SHDCN])$/.exec(s);
  // (no trump's word broken only where a reader would: "11ノート / ランプ" broke inside it in
  // a narrow bid button, a 46th review — the number, then "ノー" "トランプ", on lines of their own)
  if (m) return h("span", { class: "bid" }, m[1], m[2] === "N" ? h("span", { class: "bid-nt" }, ...ntWords()) : suitImage(m[2], 14));
  return text(s);
}

/** Any legal action as a short label. */
/** :func:`actionNode`, and a bid says it is one ("Bid 1": a bare "1" read as nothing, out of
 * the auction's buttons — a bot's moves for an absent player, a hint). */
export function moveNode(raw, game) {
  const what = actionNode(raw, game);
  return /^bid\s/.test(raw) ? h("span", {}, `${t("bid")} `, what) : what;
}

export function actionNode(raw, game) {
  const a = parseAction(raw);
  switch (a.verb) {
    case "pass":
      return text(t("pass"));
    case "alone":
      return text(t("alone"));
    case "bid":
      return bidNode(String(raw).split(/\s+/)[1] ?? "", game);
    case "adjutant":
      return frag(t("adjutant"), " ", cardsNode(a.words));
    case "play":
    case "discard":
    case "exchange":
    case "give": {
      // "give" / "discard" with no card: 7渡し or 10捨て declined ("渡さない", "捨てない")
      if (!a.words.length) return text(t(`${a.verb}None`));
      const call = a.extra.includes("call") ? [" ", h("span", { class: "tag" }, t("call"))] : null;
      return frag(t(a.verb), " ", cardsNode(a.verb === "discard" ? displayOrder(a.words) : a.words), call);
    }
    default:
      return text(raw);
  }
}

// card codes inside a server's ruling text ("8S wins", "QHがASに勝つ"): shown as players write
// cards, suit first ("♠8", "♥Q"); the joker by name
const CARD_IN_TEXT = /(?<![0-9A-Za-z])(10|[2-9TJQKA])([SHDC])(?![0-9A-Za-z])|(?<![0-9A-Za-z])JK(?![0-9A-Za-z])/g;
const GLYPH = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A ruling text with its card codes written as cards ("8Sの勝ち" → "♠8の勝ち"). */
export function prettyCards(s) {
  return String(s)
    .replace(CARD_IN_TEXT, (m, rank, suit) => (suit ? `${GLYPH[suit]}${rank === "T" ? "10" : rank}` : t("joker")))
    // "(H)", "(trump H)", "(正J; trump H)" → "(♥)", "(trump ♥)", "(正J; trump ♥)" (the last
    // kept its letter: "trump C" in a ruling, a twenty-fifth review)
    .replace(/\(([SHDC])\)/g, (m, suit) => `(${GLYPH[suit]})`)
    .replace(/\btrump ([SHDC])(?![0-9A-Za-z])/g, (m, suit) => `trump ${GLYPH[suit]}`);
}

/** A trick's or ruling's {en, ja} text in the page's language, cards written as cards. */
export function whyText(why) {
  return prettyCards(pick(why));
}

/** The explanations (why codes, daifugo.py's MESSAGES) of Daifugo moves that clear the table:
 * the felt keeps the flushed play a moment (motion.js), the log draws a line above it. */
export const FLUSHES = new Set(["flush", "eight_cut", "spade3", "sandstorm", "five_skip_back", "finish_flush"]);

/**
 * A Daifugo ruling ({code, en, ja, seats?}) in the page's language with seat numbers replaced
 * by the players' names (`nameOf(seat)`): "1番席があがり" → "Aki があがり".
 */
export function daifugoWhy(w, nameOf) {
  const seats = new Set(Object.values(w?.seats || {}).filter(Number.isInteger));
  // every seat at once, each name as it is: a name is a replacement string no more ("$`" in it
  // put the text before it there again), nor read again as a seat ("seat 2" as a name)
  return whyText(w).replace(/(?<![0-9])([0-9]+)番席|\bseat ([0-9]+)\b/g, (all, ja, en) => {
    const seat = Number(ja ?? en);
    return seats.has(seat) ? nameOf(seat) : all;
  });
}

/**
 * One entry of Daifugo's play log as a label: a play, a pass, 7渡し (to whom, how many; the
 * cards only when this seat gave or received them), 10捨て, 天変地異.
 */
export function logActionNode(e, game, nameOf) {
  const raw = String(e.action || "");
  if (raw === "give") {
    const to = e.to != null ? nameOf(e.to) : "?";
    if (!e.count) return text(t("giveNone"));
    return frag(t("gaveTo", { to, k: e.count }), e.cards?.length ? [" ", cardsNode(e.cards)] : null);
  }
  if (raw === "tenpen") return text(t("tenpenLabel"));
  return actionNode(raw, game);
}

// ------------------------------------------------------------------ bots: a name and a strength

const BOT_NAMES = {
  ja: ["ハル", "ミナ", "ソラ", "レン", "ユイ", "カイ", "ナナ", "リク"],
  en: ["Hal", "Mina", "Sora", "Ren", "Yui", "Kai", "Nana", "Riku"],
};

/** The strength of a bot spec: "easy" (random), "normal" (heuristic), "strong" (a search of
 * under a second a move), "strongest" (a search of a second or more). */
export function botStrength(spec) {
  const [kind, ...opts] = String(spec || "").replace(/^bot:/, "").split(":");
  if (kind === "random") return "easy";
  if (kind === "heuristic") return "normal";
  if (kind === "ismcts") {
    const m = /(?:^|,)think=([0-9.]+)/.exec(opts.join(":"));
    return m && Number(m[1]) >= 1 ? "strongest" : "strong";
  }
  return "normal";
}

/** A bot's friendly name for a seat (one name per seat, in the page's language); with the
 * table's `seats`, never a name a person at the table goes by (a bot called "Sora" beside a
 * person called Sora made both "Sora 0" and "Sora 2": a review) nor another bot's. */
export function botName(seat, seats = null) {
  return (seats && botNames(seats)[Number(seat)]) || plainBotName(seat);
}

function plainBotName(k) {
  const names = BOT_NAMES[document.documentElement.lang === "ja" ? "ja" : "en"];
  return names[(((Number(k) || 0) % names.length) + names.length) % names.length];
}

/** The names of a table's unnamed bots (null for the other seats), in one pass: each the first
 * of the seat's names on that no person nor earlier bot of the table goes by. */
function botNames(seats) {
  const taken = new Set(seats.filter((s) => s?.name).map((s) => s.name));
  return seats.map((s, i) => {
    if (s?.kind !== "bot" || s.name) return null;
    let name = plainBotName(i);
    for (let k = 0; k < BOT_NAMES.en.length; k++) {
      if (!taken.has(plainBotName(i + k))) {
        name = plainBotName(i + k);
        break;
      }
    }
    taken.add(name);
    return name;
  });
}

/** "CPU・強" / "Bot (strong)" for a bot spec. */
export function botStrengthLabel(spec, inName = false) {
  // beside a name: "Mina (strong bot)", not "Mina (Bot (strong))"
  return t(`${inName ? "botLevelShort" : "botLevel"}_${botStrength(spec)}`);
}

/** A game's points as a change: "+3", "0", "-3". */
export function signed(d) {
  return d > 0 ? `+${d}` : String(d);
}

/** Who won a finished match, from the server's `table.result` ({winners, side}): "Winner: Mina",
 * "Winners (tied): …", or for a match of one game won by a side "Winning side: …"; `name(seat)`
 * names a seat. Null when it names nobody. The results box and the lobby's finished tables. */
export function winnersText(result, name) {
  const won = result?.winners || [];
  if (!won.length) return null;
  const key = result.side ? "sc_winnersSide" : won.length > 1 ? "sc_winners" : "sc_winner";
  return t(key, { names: won.map(name).join(t("listSep")) });
}

/** A time for a turn in words: "No limit", "30 s", "2 min". */
export function turnTimeText(seconds) {
  if (!(seconds > 0)) return t("turnNoLimit");
  return seconds < 60 || seconds % 60 ? t("turnSeconds", { n: seconds }) : t("turnMinutes", { n: seconds / 60 });
}
