// The lobby: the list of tables and the form that creates one.

import { api, closable, leftInPlay, leaveNote, tokens } from "./api.js";
import { drawnAfterPress, fill, h, patch, toast } from "./dom.js";
import { errorText, gameName, lang, pick, t } from "./i18n.js";
import { botHoldsSeat, seatName } from "./game.js";
import { botName, botStrengthLabel, turnTimeText, winnersText } from "./labels.js";
import { changedSummary, memberLabel, optionLabel, optionText as optionDescription, presetNote as notePlayers, rulesRows } from "./rules.js";

const REFRESH_MS = 4000;
const MINE_MAX = 8; // the tables of this browser's own looked up at each refresh
const LAST_GAME = "torampu.lastGame"; // the game last chosen in the form (localStorage)
const FORM_OF = "torampu.form."; // + a game's name: its form as a table was last made with it

export function lobbyPage(root) {
  const state = { games: [], bots: [], tables: [], mine: [], form: null };
  const list = h("section", { class: "panel tables", id: "tables" });
  const form = h("section", { class: "panel create", id: "create" });
  // what the site is, in a line, before any list or form (a newcomer opened on an empty "Tables"
  // and a form: a fifty-third review)
  fill(root, h("p", { class: "lobby-intro", id: "lobby-intro" }, t("lobbyIntro")), h("div", { class: "lobby" }, list, form));

  // a press on the list (a table's link) holds its redraw: a table that starts or ends moves the
  // rows, and a press that began on one row must not end on another
  const showTables = drawnAfterPress(list, () => renderTables(list, state));
  const render = () => {
    renderTables(list, state);
    renderForm(form, state);
  };
  let listed = false; // (a list shown: a poll refused for now leaves it, unsaid)
  const refresh = async () => {
    try {
      // the tables one can join or watch, then the newest finished ones (a page of finished
      // tables never hides an open one)
      const [open, over] = await Promise.all([api.tables("open"), api.tables("over", 20)]);
      state.tables = [...open.tables, ...over.tables];
      state.openFull = open.tables.length >= (open.limit ?? 50); // (more may be open: "50+")
      const mine = await myTables(state.tables);
      const finished = (tb) => tb.status === "over" && !reclaimable.has(tb.id);
      state.mine = mine.filter((tb) => !finished(tb));
      state.mineOver = mine.filter(finished);
      showTables();
      // (patched, not drawn anew: the link a keyboard's focus was on lost it at every refresh,
      // and a press that spanned one opened nothing — a review of c038926)
      const resume = form.querySelector("#quick-continue");
      if (resume) patch(resume, continueLink(state));
      listed = true;
    } catch (e) {
      // (a busy server's or a spent allowance's refusal of a poll, once the list is shown: the
      // list stays and the next poll asks again — a toast every 4 s said nothing new)
      if (!(listed && (e?.code === "busy" || e?.code === "rate_limited"))) toast(errorText(e));
    }
  };
  state.refresh = refresh; // (a table closed from the list: the list again)
  Promise.all([api.games(), api.bots()])
    .then(([g, b]) => {
      state.games = g.games;
      state.turnLimit = Number(g.turn_timeout) || 0; // (this server's time for a turn; 0: none)
      state.bots = b.bots;
      // the game chosen last in this browser (back from a Hell match, the form showed
      // Napoleon again: a seventh review); an unknown or missing name, the first game
      const last = localStorage.getItem(LAST_GAME);
      state.form = rememberedForm(state.games.find((x) => x.name === last) || state.games[0], state);
      render();
    })
    .catch((e) => toast(errorText(e)));
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return { rerender: render, stop: () => clearInterval(timer) };
}

// ------------------------------------------------------------------ table list

/** The unfinished tables this browser has a seat at, is the host of or was invited to — a
 * private one is in no list, so this is where its people find it again. A table the public
 * lists hold is taken from them; the others are asked for at most every MINE_TTL_MS. */
const mineCache = new Map(); // id -> { table (null: gone), at }
const MINE_TTL_MS = 30000;
const adoptTried = new Set(); // rematch ids this page asked for to take a seat along
// finished tables of this browser whose rematch, still playing, has a bot in its seat (away as
// it began): listed among its own tables, their page gives the seat back (a thirteenth review:
// the rematch was nowhere in the lobby, the finished table folded away)
const reclaimable = new Set();

async function myTables(listed) {
  const byId = new Map(listed.map((tb) => [tb.id, tb]));
  const now = Date.now();
  const found = await Promise.all(tokens.mine(MINE_MAX).map(async (id) => {
    if (byId.has(id)) return byId.get(id);
    const hit = mineCache.get(id);
    if (hit && now - hit.at < MINE_TTL_MS) return hit.table;
    const table = await api.table(id).catch(() => null);
    mineCache.set(id, { table, at: now });
    return table;
  }));
  // (finished ones too: a quick game against bots is private, so once over it was nowhere,
  // its results and replays lost to its player: a fourth review)
  const have = found.filter((tb) => tb);
  // a rematch made while this browser was away (the host made it): the seat held at the old
  // table is held at the new one, by the same token — taken along here, where before only a
  // page open at the old table took it (a sixth review: the player found "Watch" on a table
  // of their own seat)
  const known = new Set(have.map((tb) => tb.id));
  const adopted = await Promise.all(have.map(async (tb) => {
    const held = tokens.seat(tb.id);
    if (tb.status !== "over" || !tb.rematch || !held || known.has(tb.rematch) || tokens.seat(tb.rematch)) return null;
    // (asked once: a rematch whose seat went to a bot was asked for at every refresh, each
    // request loading the table again — an eleventh audit)
    if (adoptTried.has(tb.rematch)) return null;
    adoptTried.add(tb.rematch);
    const next = await api.table(tb.rematch, held.token).catch(() => null); // (its token opens a private one)
    const st = next?.seats?.[held.seat];
    if (botHoldsSeat(next, held.seat) && tb.seats?.[held.seat]?.kind === "human") reclaimable.add(tb.id);
    if (!st || st.kind !== "human" || st.name !== tb.seats?.[held.seat]?.name) return null;
    tokens.setSeat(next.id, held.seat, held.token);
    const invite = tokens.invite(tb.id);
    if (invite) tokens.setInvite(next.id, invite);
    return next;
  }));
  return [...adopted.filter((tb) => tb), ...have];
}

function renderTables(el, state) {
  const { games, mine } = state;
  const own = new Set([...mine, ...(state.mineOver || [])].map((tb) => tb.id));
  const tables = state.tables.filter((tb) => !own.has(tb.id)); // each table once
  // this browser's own tables, then tables one can join, then those in play; finished ones
  // folded away below
  // (a table nobody has been at for a while, its bots waiting, after those in play)
  const rank = (tb) => (tb.status === "waiting" ? 0 : tb.paused ? 2 : 1);
  const open = tables.filter((tb) => tb.status !== "over").sort((a, b) => rank(a) - rank(b));
  const over = tables.filter((tb) => tb.status === "over");
  const rows = open.map((tb) => tableRow(tb, games));
  // patch: a press on a table's link that spans the refresh still opens that table, and the
  // finished tables stay unfolded if they were
  patch(
    el,
    mine.length ? h("h2", { id: "my-tables-title" }, t("myTables")) : null,
    mine.length ? h("ul", { class: "table-list", id: "my-tables" }, mine.map((tb) => tableRow(tb, games, state))) : null,
    // (how many: a list longer than its box said nothing of the rows below, the same review)
    h("h2", { id: "tables-title" }, t("tables"), rows.length ? h("span", { class: "muted count" }, ` (${rows.length}${state.openFull ? "+" : ""})`) : null),
    rows.length ? h("ul", { class: "table-list" }, rows) : h("p", { class: "muted" }, t(mine.length ? "noOtherTables" : over.length ? "noOpenTables" : "noTables")),
    over.length ? h("details", { class: "finished-tables", id: "finished-tables" },
      h("summary", {}, t("finishedTables", { n: over.length })),
      h("ul", { class: "table-list" }, over.map((tb) => tableRow(tb, games)))) : null,
    state.mineOver?.length ? h("details", { class: "finished-tables", id: "my-finished" },
      h("summary", {}, t("myFinished", { n: state.mineOver.length })),
      h("ul", { class: "table-list" }, state.mineOver.map((tb) => tableRow(tb, games)))) : null,
  );
}

function seatLabel(s, i, seats) {
  if (s.kind === "open") return t("openShort");
  if (s.kind === "bot" && !s.name) return `${botName(s.seat ?? i, seats)} (${botStrengthLabel(s.bot, true)})`;
  return s.name || s.bot;
}

/** A preset's name in the page's language (its code name, "house-001", only if it has none). */
export function presetName(games, game, preset) {
  const info = (games || []).find((g) => g.name === game)?.presets?.[preset];
  return (lang() === "ja" ? info?.name_ja : info?.name_en) || preset;
}

function tableRow(tb, games, state = null) {
  const seats = tb.seats.map((s, i) => h("span", { class: `chip ${s.kind}` }, seatLabel(s, i, tb.seats)));
  const progress =
    tb.status === "waiting" ? "" : t("gameOf", { k: Math.min(tb.games_played + 1, tb.games), n: tb.games, game: tb.game });
  return h(
    "li",
    { class: "table-row", dataset: { table: tb.id } },
    h(
      "a",
      { href: `/t/${tb.id}` },
      h("strong", {}, gameName(tb.game)),
      tb.preset ? presetNode(tb, games) : null,
      tb.paused
        ? h("span", { class: "badge paused", title: t("pausedHelp") }, t("status_paused"))
        : h("span", { class: `badge ${tb.status}` }, t(`status_${tb.status}`)),
      tb.private ? h("span", { class: "badge private" }, t("private")) : null,
      yourTurn(tb) ? h("span", { class: "badge your-turn" }, t("lobbyYourTurn")) : null,
      h("span", { class: "muted" }, progress ? `${t("playersN", { n: tb.players })} · ${progress}` : t("playersN", { n: tb.players })),
      h("span", { class: "muted small" }, t("created", { t: when(tb.created) })),
      winnerNote(tb),
      // (an offer, not an alarm: the red of "your turn" after a plain "Not this time" was loud, a
      // fourteenth review)
      reclaimable.has(tb.id) ? h("span", { class: "badge reclaim" }, t("lobbyReclaim")) : null,
      // what opening the row does, on the link's end (the rows did not look like links: a review)
      h("span", { class: "row-go" },
        t(tokens.seat(tb.id) || tokens.host(tb.id) ? "rowOpen" : tb.status === "waiting" && tb.seats.some((s) => s.kind === "open") ? "rowJoin" : "rowWatch")),
    ),
    h("div", { class: "chips" }, seats),
    // among this browser's own tables, those its host may close (a quick game left unfinished
    // counts against the tables one may open)
    state && tokens.host(tb.id) && closable(tb)
      ? h("button", { type: "button", class: "ghost close-table", dataset: { close: tb.id }, onclick: () => closeMine(tb.id, state) }, t("closeTable"))
      : null,
  );
}

/** A listed table's preset, and how many of its rules its host changed, named on hover: the
 * list said "標準" of a table that added 11-back and locks, and nobody joining or watching could
 * tell (a fifty-third review). */
function presetNode(tb, games) {
  const info = (games || []).find((g) => g.name === tb.game);
  const changed = info?.options && tb.rules ? rulesRows(info, tb).filter((r) => r.changed) : [];
  const name = presetName(games, tb.game, tb.preset);
  return h("span", { class: "muted preset", title: changed.length ? changedSummary(changed) : null },
    changed.length ? t("presetChanged", { preset: name, n: changed.length }) : name);
}

/** Who won a finished table, as its results box says it (the list said only "Game 5 of 5": a
 * ninth session); nothing for one finished before the server kept it. */
function winnerNote(tb) {
  const won = tb.status === "over" ? winnersText(tb.result, (s) => seatName(tb, s, true)) : null;
  return won ? h("span", { class: "winner-note" }, won) : null;
}

async function closeMine(id, state) {
  if (!window.confirm(t("closeTableConfirm"))) return;
  try {
    await api.close(id, tokens.host(id));
    forgetTable(state, id);
    state.refresh?.();
  } catch (e) {
    toast(errorText(e));
  }
}

/** Whether this browser holds the seat whose turn it is at a table in play. */
function yourTurn(tb) {
  const mine = tokens.seat(tb.id);
  return tb.status === "playing" && mine != null && tb.to_play === mine.seat;
}

function when(created) {
  const d = typeof created === "number" ? new Date(created * 1000) : new Date(created);
  if (Number.isNaN(d.getTime())) return String(created ?? "");
  return d.toLocaleString(lang() === "ja" ? "ja-JP" : undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// ------------------------------------------------------------------ the form

function defaultForm(game) {
  const presets = Object.keys(game.presets);
  return {
    game: game.name,
    preset: presets[0],
    players: game.players.default,
    games: "",
    seats: Array(game.players.default).fill("open"),
    overrides: {},
    hints: false,
    spectatorChat: false,
    private: false,
    sitMe: true,
    turnTimeout: null, // (the server's, unless chosen)
  };
}

/** The form ``game``'s last table in this browser was made with (:func:`rememberForm`), each
 * part checked against what the game and this server offer now — a part they no longer offer,
 * or a stored value that is not the form's, is the game's default. Back in the lobby from a
 * four-handed Hell match, the form said five players again, and "Play now" made a five-handed
 * table (a forty-fifth review). */
function rememberedForm(game, state) {
  const f = defaultForm(game);
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(FORM_OF + game.name) || "null");
  } catch {
    saved = null; // (not JSON: the default form)
  }
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) return f;
  keptForms.add(f); // (its note says it is the last table's form: a default one edited is not)
  if (typeof saved.preset === "string" && Object.hasOwn(game.presets, saved.preset)) f.preset = saved.preset;
  if (playerChoices(game).includes(saved.players)) f.players = saved.players;
  const seatValues = new Set(["open", ...(state.bots || []).map((b) => `bot:${b.spec}`)]);
  const seats = Array.isArray(saved.seats) ? saved.seats : [];
  f.seats = Array.from({ length: f.players }, (_, i) => (seatValues.has(seats[i]) ? seats[i] : "open"));
  // (within the form's own bounds: its field's min and max)
  if (typeof saved.games === "string" && /^[1-9][0-9]?$/.test(saved.games) && Number(saved.games) <= 50) f.games = saved.games;
  if (saved.overrides && typeof saved.overrides === "object" && !Array.isArray(saved.overrides)) {
    for (const opt of game.options) {
      if (opt.name === "players" || !Object.hasOwn(saved.overrides, opt.name)) continue;
      const v = saved.overrides[opt.name];
      if (optionTakes(opt, v) && JSON.stringify(v) !== JSON.stringify(presetValue(game, f.preset, opt))) f.overrides[opt.name] = v;
    }
  }
  for (const key of ["hints", "spectatorChat", "private", "sitMe"]) if (typeof saved[key] === "boolean") f[key] = saved[key];
  if (turnTimes(state.turnLimit ?? 0).includes(saved.turnTimeout)) f.turnTimeout = saved.turnTimeout;
  return f;
}

const keptForms = new WeakSet(); // the forms read back from storage (rememberedForm)

/** When the form is not the game's default (it is as the last table of this game was made in
 * this browser), say so where Play now is, with the changed rules counted, and offer the way
 * back to the defaults: a changed rule was only counted on the folded "Rule details" at the
 * foot of the form, while the preset's line above said its own values (a 46th review). */
function rememberedNote(state, game, rerender) {
  const f = state.form;
  const d = defaultForm(game);
  const keys = ["preset", "players", "games", "seats", "overrides", "hints", "spectatorChat", "private", "sitMe", "turnTimeout"];
  if (!keptForms.has(f) || keys.every((k) => JSON.stringify(f[k]) === JSON.stringify(d[k]))) return null;
  const n = Object.keys(f.overrides).length;
  const sp = lang() === "ja" ? "" : " "; // (no spaces between Japanese sentences)
  return h("p", { class: "muted small", id: "form-remembered" },
    t("formRemembered"), n ? `${sp}${t("formRememberedRules", { n })}` : "", sp,
    h("button", { type: "button", class: "link", id: "form-defaults",
      onclick: () => {
        state.form = defaultForm(game);
        try { localStorage.removeItem(FORM_OF + game.name); } catch { /* (kept nowhere) */ }
        rerender();
        // (the link is gone with the note: the focus to Play now, not lost to the page, a 47th review)
        document.getElementById("quick-play")?.focus();
      } }, t("formDefaults")));
}

/** Whether ``v`` is a value the form's control for ``opt`` could have set: a set's members
 * among its values (a set's values are its members, not sets: a rule set chosen was never
 * kept), a list of cards as its words (no values listed: every one was dropped), else one of
 * its values, or of its default's type where it lists none. */
function optionTakes(opt, v) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const values = Array.isArray(opt.values) ? opt.values : [];
  if (opt.type === "bool") return typeof v === "boolean";
  if (opt.type === "set") return Array.isArray(v) && new Set(v).size === v.length && v.every((x) => values.some((y) => same(x, y)));
  if (opt.type === "cards") return Array.isArray(v) && v.every((x) => typeof x === "string" && /^[0-9A-Z]{1,4}$/.test(x));
  if (values.length) return values.some((x) => same(x, v));
  return v !== null && typeof v === typeof opt.default && (typeof v !== "number" || Number.isFinite(v));
}

/** Keep the form a table is being made with, for the next table of its game (a full store,
 * or storage turned off: not kept). */
function rememberForm(f) {
  try {
    localStorage.setItem(FORM_OF + f.game, JSON.stringify(f));
  } catch {
    // (not kept: the next form is the game's default)
  }
}

function currentGame(state) {
  return state.games.find((g) => g.name === state.form.game);
}

function presetValue(game, preset, opt) {
  const over = game.presets[preset]?.options || {};
  return opt.name in over ? over[opt.name] : opt.default;
}

function renderForm(el, state) {
  if (!state.form) return;
  const game = currentGame(state);
  const f = state.form;
  const usual = defaultGames(game, f); // the games of a match when the table does not say
  const rerender = () => renderForm(el, state);
  // the form is drawn anew when the game, the preset or the number of players changes, or the
  // options are reset: the control the person was using keeps the keyboard focus, and the rule
  // options stay open
  const using = el.contains(document.activeElement) ? selectorOf(document.activeElement) : null;
  const open = el.querySelector("#options")?.open ?? false;
  fill(
    el,
    h("h2", {}, t("newTable")),
    h("div", { class: "quick-play" },
      // the game first, where quick play is: its button said "Napoleon" and the game's menu lay
      // below it, in the form (a fifty-third review's newcomer)
      gamePicker(state, rerender),
      // the name this browser plays under (kept, as at a table's seats): quick play asked none
      h("label", { class: "field inline-field" }, h("span", { class: "label" }, t("yourName")),
        h("input", { id: "quick-name", type: "text", maxlength: "40", value: tokens.name(), placeholder: t("playerN", { n: 1 }),
          oninput: (e) => tokens.setName(e.target.value),
          // Enter in the name box plays, as the button beside it (it did nothing: a 52nd
          // review); not the Enter that ends an input method's composition (Japanese)
          onkeydown: (e) => {
            if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return;
            e.preventDefault();
            el.querySelector("#quick-play")?.click();
          } })),
      h("button", { type: "button", class: "primary", id: "quick-play", onclick: (e) => quickPlay(e.currentTarget, state) },
        t("quickPlay", { game: gameName(f.game) })),
      h("small", { class: "muted", id: "quick-play-note" }, quickNote(f, usual)),
      h("p", { class: "small", id: "quick-continue" }, continueLink(state)),
      rememberedNote(state, game, rerender)),
    // the game in a few lines for a newcomer, before any table (it was only in a table's Rules);
    // above the form
    h("details", { class: "feel-howto lobby-howto", id: "lobby-howto" },
      h("summary", {}, `${t("howTo")} · ${gameName(f.game)}`), h("p", {}, t(`howto_${f.game}`))),
    h(
      "form",
      { id: "create-form", onsubmit: (e) => submit(e, state) },
      field(t("preset"), presetSelect(game, f, rerender), h("small", { class: "muted" }, presetNote(game, f))),
      h(
        "div",
        { class: "row2" },
        field(t("players"), playersInput(game, f, rerender)),
        field(
          t("games", { game: f.game }),
          h("input", {
            type: "number",
            name: "games",
            min: "1",
            max: "50",
            placeholder: usual ? t("gamesDefaultN", { n: usual }) : t("gamesDefault"),
            value: f.games,
            oninput: (e) => {
              f.games = e.target.value;
              // the note by the quick-play button says the length typed here (it said "by
              // default 10 games" with 3 typed: a seventh review)
              const note = el.querySelector("#quick-play-note");
              if (note) note.textContent = quickNote(f, usual);
              const cards = el.querySelector("#hell-series");
              if (cards) cards.textContent = hellSeries(f, usual);
            },
          }),
          f.game === "hell" && usual ? h("small", { class: "muted", id: "hell-series" }, hellSeries(f, usual)) : null,
        ),
      ),
      seatsFieldset(state),
      tableSettings(f, state.turnLimit ?? 0),
      optionsForm(game, f, rerender),
      h("button", { type: "submit", class: "primary big", id: "create-btn" }, t("create")),
    ),
  );
  if (open) el.querySelector("#options").open = true;
  if (using) el.querySelector(using)?.focus();
}

/** The note under the quick-play button: the match's length (as typed below, or the default)
 * and what the button does. */
function quickNote(f, usual) {
  const typed = Number(f.games);
  const game = f.game;
  const games = Number.isInteger(typed) && typed >= 1 ? t("quickPlayGamesSet", { n: typed, game }) : usual ? t("quickPlayGames", { n: usual, game }) : "";
  return `${games}${games && lang() !== "ja" ? " " : ""}${t("quickPlayNote", { game })}`;
}

/** A selector that finds a control again in the form drawn anew: its name, else its id. */
function selectorOf(control) {
  const name = control.getAttribute("name");
  if (name) return `[name="${CSS.escape(name)}"]`;
  return control.id ? `#${CSS.escape(control.id)}` : null;
}

const TURN_TIMES = [0, 30, 60, 120, 300];

/** The times for a move the form offers under this server's ``limit`` (seconds; 0: none) —
 * within it where it has one: none is then not offered. */
function turnTimes(limit) {
  return [...new Set([limit, ...TURN_TIMES.filter((s) => (limit > 0 ? s > 0 && s < limit : true))])].sort((a, b) => a - b);
}

// what the host allows at this table: learner hints, and spectators in the chat — and the time
// a player has for a move (one player idle, the tab open, held the table for good: only the
// operator's --turn-timeout bounded it, none by default)
function tableSettings(f, limit) {
  const box = (name, key, label) =>
    h("label", { class: "check" },
      h("input", { type: "checkbox", name, id: name, checked: f[key], onchange: (e) => (f[key] = e.target.checked) }),
      " ", label);
  const times = turnTimes(limit);
  const chosen = f.turnTimeout ?? limit;
  const turn = field(t("turnTime"),
    h("select", { name: "turn-timeout", id: "turn-timeout", onchange: (e) => (f.turnTimeout = Number(e.target.value)) },
      times.map((s) => h("option", { value: String(s), selected: s === chosen }, turnTimeText(s)))));
  return h("fieldset", { class: "table-settings" },
    h("legend", {}, t("tableSettings")),
    turn,
    // the maker sits at the first open seat, under the name above, as on other sites (they were
    // left to take a seat of the table they had just made: a fourteenth review)
    box("sit-me", "sitMe", t("sitMe")),
    box("allow-hints", "hints", t("allowHints")),
    box("spectator-chat", "spectatorChat", t("allowSpectatorChat")),
    box("private-table", "private", t("privateTable")));
}

/** Hell: the cards of each deal of the series as typed (else the whole series, ``usual``
 * deals: 1, 2, … up to the most, and back down to 1), e.g. "1 → 13 → 1" or "1 → 3". */
function hellSeries(f, usual) {
  const top = (usual + 1) / 2;
  const typed = Number(f.games);
  const k = Number.isInteger(typed) && typed >= 1 ? Math.min(typed, usual) : usual;
  const cards = k === 1 ? "1" : k <= top ? `1 → ${k}` : `1 → ${top} → ${2 * top - k}`;
  return t("hellSeries", { cards });
}

/** The games of a match at this many players when the table does not say (GET /api/games). */
function defaultGames(game, f) {
  return game?.games?.default?.[String(f.players)] ?? null;
}

function field(label, ...controls) {
  return h("label", { class: "field" }, h("span", { class: "label" }, label), ...controls);
}

/** The form for game `name`, as this browser last made a table of it; remembered as the game
 * last chosen. */
function chooseGame(state, name, rerender) {
  state.form = rememberedForm(state.games.find((g) => g.name === name), state);
  localStorage.setItem(LAST_GAME, state.form.game);
  rerender();
}

/** The games as buttons above quick play, the one chosen pressed: the game of quick play and of
 * the form below alike (the form had a menu of its own as well, the same choice twice: a
 * sixty-ninth session). */
function gamePicker(state, rerender) {
  return h("div", { class: "game-picker", id: "game-picker", role: "group", "aria-label": t("game") },
    state.games.map((g) => {
      const on = g.name === state.form.game;
      return h("button", { type: "button", id: `pick-${g.name}`, class: on ? "chosen" : "", "aria-pressed": String(on),
        onclick: () => on || chooseGame(state, g.name, rerender) }, gameName(g.name));
    }));
}

function presetSelect(game, f, rerender) {
  return h(
    "select",
    {
      name: "preset",
      onchange: (e) => {
        f.preset = e.target.value;
        f.overrides = {};
        rerender();
      },
    },
    Object.keys(game.presets).map((p) =>
      h("option", { value: p, selected: p === f.preset }, (lang() === "ja" ? game.presets[p].name_ja : game.presets[p].name_en) || p),
    ),
  );
}

function presetNote(game, f) {
  const p = game.presets[f.preset];
  return p ? notePlayers(p) : "";
}

/** An option's label, explanation and value names in the page's language, as the Rules dialog
 * shows them (the option's code name only where it has no label). */
function optionText(opt) {
  return {
    label: optionLabel(opt),
    labelled: optionLabel(opt) !== opt.name,
    description: optionDescription(opt),
    value: (v) => memberLabel(opt, v),
  };
}

function playerChoices(game) {
  const opt = game.options.find((o) => o.name === "players");
  if (opt && Array.isArray(opt.values) && opt.values.length) return [...opt.values].sort((a, b) => a - b);
  const out = [];
  for (let n = game.players.min; n <= game.players.max; n++) out.push(n);
  return out;
}

function playersInput(game, f, rerender) {
  return h(
    "select",
    {
      name: "players",
      onchange: (e) => {
        f.players = Number(e.target.value);
        f.seats = Array.from({ length: f.players }, (_, i) => f.seats[i] || "open");
        rerender();
      },
    },
    playerChoices(game).map((n) => h("option", { value: n, selected: n === f.players }, String(n))),
  );
}

function seatsFieldset(state) {
  const f = state.form;
  const rows = f.seats.map((value, i) =>
    h(
      "label",
      { class: "seat-choice" },
      h("span", { class: "label" }, t("seat", { n: i + 1 })),
      h(
        "select",
        { name: `seat-${i}`, dataset: { seatChoice: i }, onchange: (e) => (f.seats[i] = e.target.value) },
        h("option", { value: "open", selected: value === "open" }, t("open")),
        state.bots.map((b) =>
          h("option", { value: `bot:${b.spec}`, selected: value === `bot:${b.spec}` }, pick(b.label)),
        ),
      ),
    ),
  );
  // (friends and bots: the seats left open for friends may be filled with bots at the start,
  // which the form did not say — a host set three menus by hand, a fifty-fourth review)
  return h("fieldset", { class: "seats-field" }, h("legend", {}, t("seats")), h("div", { class: "seat-grid" }, rows),
    h("small", { class: "muted", id: "seats-note" }, t("seatsOpenNote")));
}

// ------------------------------------------------------------------ rule options

function optionsForm(game, f, rerender) {
  const rows = game.options.filter((o) => o.name !== "players").map((o) => optionRow(game, f, o));
  const reset = h(
    "button",
    {
      type: "button",
      class: "link",
      id: "reset-options",
      onclick: () => {
        f.overrides = {};
        rerender(); // the panel stays open and the focus on this link, as for any redraw
      },
    },
    t("reset"),
  );
  const count = Object.keys(f.overrides).length;
  return h(
    "details",
    { class: "options", id: "options" },
    h("summary", {}, t("options"), count ? ` (${count})` : ""),
    h("p", { class: "muted small" }, t("optionsHint"), " ", reset),
    h("div", { class: "option-grid" }, rows),
  );
}

function optionRow(game, f, opt) {
  const base = presetValue(game, f.preset, opt);
  const value = opt.name in f.overrides ? f.overrides[opt.name] : base;
  const set = (v) => {
    if (JSON.stringify(v) === JSON.stringify(base)) delete f.overrides[opt.name];
    else f.overrides[opt.name] = v;
    row.classList.toggle("changed", opt.name in f.overrides);
  };
  const text = optionText(opt);
  const row = h(
    "div",
    { class: `option ${opt.name in f.overrides ? "changed" : ""}`, title: text.description, dataset: { option: opt.name } },
    h("span", { class: `opt-name ${text.labelled ? "labelled" : ""}` }, text.label),
    optionControl(opt, value, set, text),
    h("small", { class: "muted opt-desc" }, text.description),
  );
  return row;
}

function optionControl(opt, value, set, text) {
  const name = `opt-${opt.name}`;
  switch (opt.type) {
    case "bool":
      return h("input", { type: "checkbox", name, checked: !!value, onchange: (e) => set(e.target.checked) });
    case "choice":
      return h(
        "select",
        { name, onchange: (e) => set(opt.values.find((v) => String(v) === e.target.value)) },
        opt.values.map((v) => h("option", { value: String(v), selected: v === value }, text.value(v))),
      );
    case "int": {
      const nums = opt.values || [];
      return h("input", {
        type: "number",
        name,
        value: String(value),
        min: nums.length ? Math.min(...nums) : null,
        max: nums.length ? Math.max(...nums) : null,
        step: "1",
        onchange: (e) => set(Number(e.target.value)),
      });
    }
    case "set":
      return h(
        "span",
        { class: "set" },
        (opt.values || []).map((v) =>
          h(
            "label",
            { class: "inline" },
            h("input", {
              type: "checkbox",
              checked: (value || []).includes(v),
              onchange: (e) => {
                const box = e.target.closest(".set");
                const chosen = [...box.querySelectorAll("input")]
                  .map((inp, i) => (inp.checked ? opt.values[i] : null))
                  .filter((x) => x !== null);
                set(chosen);
              },
            }),
            text.value(v),
          ),
        ),
      );
    case "pair":
      return pairControl(name, value, set);
    default:
      // "cards" and anything new: space-separated words
      return h("input", {
        type: "text",
        name,
        value: Array.isArray(value) ? value.join(" ") : String(value ?? ""),
        placeholder: "2C 2D …",
        onchange: (e) => set(e.target.value.split(/[\s,]+/).filter(Boolean).map((w) => w.toUpperCase())),
      });
  }
}

function pairControl(name, value, set) {
  const pair = Array.isArray(value) ? [...value] : [0, 0];
  const input = (i) =>
    h("input", {
      type: "number",
      class: "narrow",
      value: String(pair[i]),
      onchange: (e) => {
        pair[i] = Number(e.target.value);
        set([...pair]);
      },
    });
  return h("span", { class: "pair", dataset: { name } }, input(0), " / ", input(1));
}

// ------------------------------------------------------------------ submit

/** Make a table, keep its host token (and a private table's invite), and take `seat` (null:
 * none) under the name this browser plays under: `{id, host, refused}`, `refused` the seat's
 * error if it was refused (the table is made). */
async function makeTable(body, seat) {
  const res = await api.create(body);
  const id = res.table.id;
  tokens.setHost(id, res.host_token);
  if (res.invite) tokens.setInvite(id, res.invite);
  let refused = null;
  if (seat != null) {
    try {
      const typed = (tokens.name() || "").trim().slice(0, 40);
      const name = typed || t("playerN", { n: seat + 1 });
      const joined = await api.join(id, { name, seat });
      tokens.setSeat(id, joined.seat, joined.token);
      // the table's page says the name given them, as it does to a friend who sat unnamed
      if (!typed) leaveNote("torampu.namedFor", id, name);
    } catch (e) {
      refused = e;
    }
  }
  return { id, host: res.host_token, refused };
}

/** This browser's unfinished games against bots alone — tables it made and sits at, a person in
 * its seat, every other seat a bot's — of ``game`` (null: of any), oldest first. (Not a seat a
 * friend left in play: its stand-in is a bot under their name, their match, which the server
 * keeps from a close; nor a table whose seat this browser no longer holds, an open seat or
 * another's now: a review of c038926.) */
function soloTables(state, game = null) {
  return (state.mine || [])
    .filter((tb) => {
      const held = tokens.seat(tb.id);
      return (tb.status === "playing" || tb.status === "waiting") && (game == null || tb.game === game) &&
        tokens.host(tb.id) && held && tb.seats?.[held.seat]?.kind === "human" &&
        tb.seats.every((s, i) => i === held.seat || (s.kind === "bot" && !leftInPlay(s)));
    })
    .sort((a, b) => madeAt(a) - madeAt(b));
}

function madeAt(tb) {
  const c = tb.created;
  return (typeof c === "number" ? c * 1000 : Date.parse(c)) || 0;
}

/** Beside quick play, the way back to this browser's latest unfinished game of the chosen one
 * against bots (each press of quick play made one more, and the one left mid-match was only
 * under "Your tables", the fourth of a list cut at the box's foot: a sixty-ninth session). */
function continueLink(state) {
  const solo = soloTables(state, state.form?.game);
  const tb = solo[solo.length - 1];
  if (!tb) return null;
  const progress = tb.status === "waiting" ? "" : t("gameOf", { k: Math.min(tb.games_played + 1, tb.games), n: tb.games, game: tb.game });
  return h("a", { href: `/t/${tb.id}`, id: "continue-solo" }, `${t("continueSolo", { game: gameName(tb.game) })}${progress ? ` · ${progress}` : ""}`);
}

/** Where quick play is refused for the tables this address holds open: close this browser's
 * oldest game against bots alone, if it has one and the person agrees, and say so (true); the
 * refusal told them to close one "under Your tables", where a list of eight left older ones
 * out of reach (a sixty-ninth session). */
async function closeOldestSolo(state) {
  // each asked for anew: the lobby's copy of a private table may be 30 s old (closed in another
  // tab meanwhile, or a friend seated: a review of c038926)
  for (const old of soloTables(state)) {
    let tb;
    try {
      tb = await api.table(old.id, tokens.seat(old.id)?.token);
    } catch (e) {
      if (e?.code !== "not_found") throw e;
    }
    if (!tb || !soloTables({ mine: [tb] }).length) {
      if (!tb) forgetTable(state, old.id);
      continue;
    }
    if (!window.confirm(t("closeOldestSolo", { game: gameName(tb.game), when: when(tb.created) }))) return false;
    try {
      await api.close(tb.id, tokens.host(tb.id));
    } catch (e) {
      // (closed meanwhile, in another tab: gone all the same, and the new table may be made)
      if (e?.code !== "not_found") throw e;
    }
    forgetTable(state, tb.id);
    return true;
  }
  return false;
}

/** A table of this browser's, closed: its tokens, its cached row and its place in the list go. */
function forgetTable(state, id) {
  tokens.forget(id);
  mineCache.delete(id);
  state.mine = state.mine.filter((x) => x.id !== id);
}

/** One click to play: the chosen game and rules, this person in the first seat (in Hell the
 * last), bots of the middle strength in the others, started at once. */
async function quickPlay(button, state) {
  const f = state.form;
  button.disabled = true;
  try {
    // in Hell the last seat: the first seat deals first, and the dealer bids last under the
    // hook — a newcomer's first bid, at one card a hand, was the forced one, lost, last after
    // one deal (a fifty-fourth review); the last seat first deals
    // the deal of as many cards as players
    const me = f.game === "hell" ? Math.max(0, f.seats.length - 1) : 0;
    const seats = Array.from({ length: Math.max(1, f.seats.length) }, (_, i) => (i === me ? "open" : "heuristic"));
    const rules = Object.keys(f.overrides).length ? { preset: f.preset, ...f.overrides } : f.preset;
    // a game against bots alone: unlisted (a private table, under "Your tables"), so that the
    // public list shows tables people can join or want to watch, not every solo practice
    const body = { game: f.game, rules, players: f.players, seats, private: true };
    if (f.games) body.games = Number(f.games);
    if (f.hints) body.hints = true; // the learner's hints, as ticked below (they were lost)
    let made;
    try {
      made = await makeTable(body, me);
    } catch (e) {
      if (e?.code !== "too_many_tables" || !(await closeOldestSolo(state))) throw e;
      made = await makeTable(body, me); // (once: refused again, said as before)
    }
    rememberForm(f); // (once made: a form the server refused is not the next one's)
    if (made.refused) {
      // the seat refused (a name the page uses for others, name_reserved): the table, made for
      // this person alone, goes — each press left one more waiting under "Your tables", open
      // seat and bots, counted against the tables this address may make (a code review of
      // 31b9f80)
      try {
        await api.close(made.id, made.host);
        tokens.forget(made.id);
      } catch {
        // (kept: "Your tables" offers it, as before)
      }
      throw made.refused;
    }
    // started by the table's page once its socket holds the seat: started here, the bots had
    // made three moves (an 8 that cut, two plays) before the newcomer's page was there to show
    // them (a fifty-third review). Where this tab keeps no note (private mode), here as before
    if (!leaveNote("torampu.arrive", made.id, true)) await api.start(made.id, {}, made.host);
    location.assign(`/t/${made.id}`);
  } catch (e) {
    toast(errorText(e));
    button.disabled = false;
  }
}

async function submit(event, state) {
  event.preventDefault();
  const f = state.form;
  const button = event.target.querySelector("#create-btn");
  const overrides = f.overrides;
  const body = {
    game: f.game,
    rules: Object.keys(overrides).length ? { preset: f.preset, ...overrides } : f.preset,
    players: f.players,
    seats: f.seats,
  };
  if (f.games) body.games = Number(f.games);
  if (f.hints) body.hints = true;
  if (f.spectatorChat) body.chat = { spectators: true };
  if (f.private) body.private = true;
  if (f.turnTimeout != null && f.turnTimeout !== (state.turnLimit ?? 0)) body.turn_timeout = f.turnTimeout;
  button.disabled = true;
  button.textContent = t("creating");
  try {
    const seat = f.seats.indexOf("open");
    // (the seat refused, the table is made all the same: its page offers the seats)
    const made = await makeTable(body, f.sitMe && seat >= 0 ? seat : null);
    rememberForm(f); // (once made: a form the server refused — 0 games, 999 — is not the next one's)
    if (made.refused) {
      // said before the table's page opens (it offers the seats), or the reason was lost
      toast(errorText(made.refused));
      await new Promise((done) => setTimeout(done, 2500));
    }
    location.assign(`/t/${made.id}`);
  } catch (e) {
    toast(errorText(e));
    button.disabled = false;
    button.textContent = t("create");
  }
}
