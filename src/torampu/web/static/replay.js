// The replay viewer: steps through a finished game's views, for a chosen seat or a spectator.

import { api, recordLink, tokens } from "./api.js";
import { fill, h, patch, toast } from "./dom.js";
import { onLayoutChange, renderFelt, renderPlay, seatName } from "./game.js";
import { errorText, gameName, t } from "./i18n.js";
import { cardsNode, moveNode } from "./labels.js";
import { followLogs, sidePanels } from "./panels.js";
import { adoptInvite, settleInvite } from "./links.js";

export function replayPage(root, id, k) {
  // a private table's replay is opened by its link as the table is, with #invite=… (a fresh
  // browser was told "no such table or game": only the table's page kept the invite, a tenth
  // review); its requests carry it from there
  adoptInvite(id);
  // a player looks back from their own seat (a spectator's view showed them no hand at all)
  const own = tokens.seat(id)?.seat;
  const state = { table: null, steps: [], at: 0, seat: Number.isInteger(own) ? own : null, all: false, result: null };
  const el = {
    head: h("div", { class: "table-head" }),
    controls: h("div", { class: "replay-controls", id: "replay-controls" }),
    status: h("div", { id: "status", class: "status", role: "status", "aria-live": "polite" }),
    felt: h("div", { class: "felt", id: "felt" }),
    actions: h("div", { class: "actions", hidden: true }),
    hand: h("div", { class: "hand replay", id: "hand" }),
    side: h("aside", { class: "side-col", id: "side" }),
  };
  fill(root, h("div", { class: "table-page replay-page" }, el.head, el.controls,
    h("div", { class: "play-layout" }, h("div", { class: "play-main" }, el.status, el.felt, el.actions, el.hand), el.side)));

  const show = () => render(state, el, k, id, show);
  onLayoutChange(() => { if (state.steps.length) show(); }); // (a phone turned: the felt drawn for it)
  // a replay that cannot be shown at all (no such table or game, a game not over) says why on
  // the page, with the way back, instead of a toast over an empty felt (a fourth review)
  const gone = (e) => fill(root, h("div", { class: "panel", id: "table-gone" },
    h("p", {}, errorText(e)),
    h("p", {}, h("a", { href: `/t/${encodeURIComponent(id)}` }, t("backTable")), " · ", h("a", { href: "/" }, t("back")))));
  // a server busy making other replays (or this address past its rate), the replay not shown
  // yet: said on the page and asked again a few times, not a toast over an empty felt for good
  // (a code review: a whole-process bound on replays made that more likely)
  let tries = 0;
  const soon = (e) => e?.code === "rate_limited" || e?.code === "busy";
  const later = (e, again) => {
    if (tries >= 5) return gone(e);
    tries += 1;
    patch(el.status, h("span", { id: "replay-wait" }, `${errorText(e)} — ${t("retryingSoon")}`));
    setTimeout(again, 2000 * tries);
  };
  const load = async () => {
    try {
      state.steps = (await api.replay(id, k, state.seat, state.all)).steps;
      state.at = Math.min(state.at, state.steps.length - 1);
      show();
    } catch (e) {
      if (!state.steps.length) (soon(e) ? later(e, load) : gone(e));
      else toast(errorText(e)); // in the reader's language ("Too fast: wait a moment" for a 429)
    }
  };
  state.load = load;
  document.addEventListener("keydown", (e) => {
    if (e.target.matches?.("input[type=text], select, textarea")) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      go(state, state.at + (e.key === "ArrowLeft" ? -1 : 1), show);
    } else if (e.key === "Home" || e.key === "End") {
      // the deal's start and its end, where its score is (a fifteenth review)
      e.preventDefault();
      go(state, e.key === "Home" ? 0 : state.steps.length - 1, show);
    } else if (e.key === " " && !e.target.matches?.("button, input, select, a, summary, textarea")) {
      // (Space on the "Every hand" box ticks it: it started the replay, a twenty-first review)
      e.preventDefault();
      togglePlay(state, show);
    }
  });
  // (a link's invite replaces the one held only if it opens the table: see adoptInvite)
  const start = () => settleInvite(id).then(() => api.table(id)).then((tb) => {
    state.table = tb;
    load();
    // the game's result, shown at its last step (the replay ended on its last card, nothing
    // said of the score: a twenty-first review)
    api.finished(id).then((r) => {
      state.result = (r.games || []).find((g) => g.index === Number(k))?.result || null;
      show();
    }).catch(() => {});
  }).catch((e) => (soon(e) ? later(e, start) : gone(e)));
  start();
  return { rerender: show };
}

/** One step every REPLAY_STEP_MS while the replay plays by itself. */
export const REPLAY_STEP_MS = 900;

function go(state, i, show, byHand = true) {
  if (byHand) stopPlaying(state); // a step, a drag or a key takes the replay back in hand
  const next = Math.max(0, Math.min(state.steps.length - 1, i));
  if (next !== state.at) {
    state.at = next;
    show();
  }
}

function stopPlaying(state) {
  clearInterval(state.player);
  state.player = null;
}

/** Play the steps one after another (from the start once at the end), or pause. */
function togglePlay(state, show) {
  if (state.player) {
    stopPlaying(state);
    show();
    return;
  }
  if (state.at >= state.steps.length - 1) state.at = 0;
  state.player = setInterval(() => {
    if (state.at >= state.steps.length - 1) {
      stopPlaying(state);
      show();
    } else go(state, state.at + 1, show, false);
  }, REPLAY_STEP_MS);
  show();
}

function render(state, el, k, id, show) {
  const tb = state.table;
  if (!tb || !state.steps.length) return;
  // the games before and after this one, a link each (one went back to the table for each)
  const at = Number(k);
  const other = (i, key) => h("a", { href: `/t/${encodeURIComponent(id)}/replay/${i}`, id: `replay-game-${key}` }, t(`${key}Game`, { k: i + 1, game: tb.game }));
  patch(el.head, h("div", { class: "title-line" }, h("h1", {}, gameName(tb.game)), h("span", { class: "muted" }, t("replayOf", { k: at + 1, game: tb.game }))),
    h("div", { class: "share" }, h("a", { href: `/t/${id}` }, t("backTable")), h("a", recordLink(id, k, tb.private), t("record")),
      at > 0 ? other(at - 1, "prev") : null, at + 1 < (tb.games_played ?? 0) ? other(at + 1, "next") : null));
  renderControls(state, el.controls, show);
  const step = state.steps[state.at];
  const view = step.view;
  const ctx = { table: tb, mySeat: state.seat, live: false, legal: [], act: () => {}, clear: () => {}, onCard: () => {} };
  const r = state.at === state.steps.length - 1 ? state.result : null;
  const end = r?.scores ? { index: at, scores: r.scores, detail: r } : null;
  // at the last step the game's points, in the status line (the result's panel lay at the side
  // column's foot, out of sight: a twenty-second review)
  const points = end ? h("span", { class: "replay-points", id: "replay-points" }, ` · ${t("resultOf", { k: at + 1, game: tb.game })}: `,
    end.scores.map((v, s) => `${seatName(tb, s, true)} ${v > 0 ? "+" : ""}${v}`).join(" · ")) : null;
  patch(el.status, step.action == null ? [t("start_step"), tribute(tb, view)] : `${seatName(tb, step.seat)}: `,
    // (moveNode: "Ben: Bid 0", not "Ben: 0" — a Hell bid is a bare number; a tenth review)
    step.action != null ? h("span", {}, moveNode(step.action, view.game)) : null, points);
  renderFelt(el.felt, view, ctx);
  // (every hand is listed below the felt: on a phone the felt makes room for the list, which
  // lay out of sight below it, a fifth review)
  el.felt.classList.toggle("with-hands", !!(state.all && step.hands));
  renderPlay(el.hand, el.actions, view, ctx, { selected: [], choice: null });
  el.actions.hidden = true;
  followLogs(el.side, () => patch(el.side, state.all && step.hands ? handsPanel(tb, step.hands) : null,
    // (its panel first at the last step, as between games)
    sidePanels(view, { table: tb, mySeat: state.seat, finished: [], tableId: id, lastResult: end, between: !!end })));
}

/** Daifugo's deal after the first game comes with the tribute handed up already (the poor
 * give their best cards with the deal, no move of theirs): said at the deal's step, as far as
 * this view shows it ("The deal · Ren handed Mina: ♠2 ♣A"), or the hands of step 0 were not
 * the hands dealt, without a word (a ninth review's note). */
function tribute(tb, view) {
  const rows = view.game === "daifugo" ? (view.exchange || []).filter((e) => e.given?.length) : [];
  return rows.map((e) => [" · ", t("tributeGiven", { poor: seatName(tb, e.poor, true), rich: seatName(tb, e.rich, true) }), " ", cardsNode(e.given)]);
}

/** Every seat's hand at this step (the replay's "every hand" switch), as cards in text. */
function handsPanel(tb, hands) {
  return h("section", { class: "panel side", id: "replay-hands" }, h("h3", {}, t("replayHands")),
    h("dl", { class: "kv" }, hands.map((cards, s) => [h("dt", {}, seatName(tb, s)),
      h("dd", { dataset: { seat: String(s) } }, cards?.length ? cardsNode(cards) : "–")])));
}

function renderControls(state, el, show) {
  const n = state.steps.length;
  // (named, and its value said as the move: a screen reader read "slider, 30", a 21st review)
  const here = state.steps[state.at];
  const said = here?.action == null ? t("start_step") : `${seatName(state.table, here.seat)}: ${moveNode(here.action, here.view?.game).textContent}`;
  const slider = h("input", { type: "range", id: "replay-slider", min: "0", max: String(n - 1), value: String(state.at),
    "aria-label": t("replaySlider"), "aria-valuetext": `${t("step", { i: state.at, n: n - 1 })} · ${said}`,
    oninput: (e) => go(state, Number(e.target.value), show) });
  const seatSel = h("select", { id: "replay-seat", onchange: (e) => {
    state.seat = e.target.value === "" ? null : Number(e.target.value);
    state.load();
  } }, h("option", { value: "", selected: state.seat == null }, t("spectator")),
  state.table.seats.map((s) => h("option", { value: String(s.seat), selected: state.seat === s.seat }, seatName(state.table, s.seat))));
  // patch: every step draws the controls again, and the slider being dragged (or the button
  // being pressed) must stay the same element, or the drag ends after one step
  const playing = !!state.player;
  patch(el,
    h("button", { type: "button", id: "replay-play", class: playing ? "primary" : "", "aria-pressed": String(playing),
      onclick: () => togglePlay(state, show) }, playing ? t("replayPause") : t("replayPlay")),
    h("button", { type: "button", id: "replay-prev", disabled: state.at === 0, onclick: () => go(state, state.at - 1, show) }, t("prev")),
    slider,
    h("button", { type: "button", id: "replay-next", disabled: state.at === n - 1, onclick: () => go(state, state.at + 1, show) }, t("next")),
    h("span", { class: "step-no", id: "replay-step" }, t("step", { i: state.at, n: n - 1 })),
    h("label", { class: "inline-field" }, h("span", { class: "label" }, t("viewAs")), seatSel),
    h("label", { class: "inline-field" }, h("input", { type: "checkbox", id: "replay-all", checked: state.all,
      onchange: (e) => { state.all = e.target.checked; state.load(); } }), h("span", {}, t("replayAll"))));
  // the slider takes the focus only when nothing holds it (or the button pressed is disabled
  // now, Next at the last step): every step took it from the button or box a keyboard user was
  // on (a fourth review)
  const a = document.activeElement;
  if (!a || a === document.body || a.disabled) el.querySelector("#replay-slider").focus({ preventScroll: true });
}
