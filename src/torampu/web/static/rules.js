// The rules of this table, one click away: a dialog listing every option in force (the table's
// resolved options and its preset) with its explanation from torampu.rules (served by
// GET /api/games), in the player's language: first the rules in play at the table (those changed
// from the preset first, marked), then the rest, off or at their plain default, folded.
//
// Option metadata may carry Japanese texts (label_ja, description_ja, values_ja for the values of
// a choice or set; a preset's name_ja and note_ja) and English ones for players (label,
// description_en, values_en; a preset's note_en); whichever is missing falls back to the
// developers' description and note, the option's name and the raw value.

import { api } from "./api.js";
import { isCard } from "./cards.js";
import { fill, h } from "./dom.js";
import { gameName, lang, pick, t } from "./i18n.js";
import { cardsNode } from "./labels.js";
import { seatLegend } from "./game.js";

let games = null; // the promise of GET /api/games, fetched once

function gameInfo(game) {
  games ||= api.games().catch((e) => {
    games = null;
    throw e;
  });
  return games.then((all) => (all.games || all).find((g) => g.name === game) || null);
}

function textOf(o, field) {
  const ja = lang() === "ja";
  const v = ja ? o[`${field}_ja`] ?? o[field] : o[`${field}_en`] ?? o[field];
  return v == null ? "" : pick(v);
}

/** The name of an option as shown: its label in the player's language, else its name. */
export function optionLabel(o) {
  return textOf(o, "label") || o.name;
}

/** The explanation of an option in the player's language (English when there is no other). */
export function optionText(o) {
  return textOf(o, "description");
}

/** The options of the preset (defaults overridden by the preset's own options), and with
 * `players` what the preset resolves to with so many (Napoleon's Basic shows every discard at
 * 4: a 4-player table of it read "Basic + 1 change", a code review of 664f8bc). */
export function presetDefaults(info, preset, players = null) {
  const out = {};
  for (const o of info.options) out[o.name] = o.default;
  const p = preset && info.presets ? info.presets[preset] : null;
  if (p?.options) Object.assign(out, p.options);
  if (players != null && p?.players_options?.[String(players)]) Object.assign(out, p.players_options[String(players)]);
  return out;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The label of one choice or set member: Japanese (values_ja) in Japanese, else the value. */
export function memberLabel(o, v) {
  const labels = lang() === "ja" ? o.values_ja : o.values_en;
  return labels && Object.hasOwn(labels, String(v)) ? pick(labels[String(v)]) : String(v);
}

/** One value as text or nodes: on/off, a card list, a number, a choice. */
export function valueNode(o, v) {
  if (typeof v === "boolean") return t(v ? "on" : "off");
  if (Array.isArray(v)) {
    if (!v.length) return t("feelNone");
    if (v.every((x) => typeof x === "string" && isCard(x)) && !o.values_ja) return cardsNode(v);
    return v.map((x) => (Array.isArray(x) ? x.join(" / ") : memberLabel(o, x))).join(", ");
  }
  if (typeof v === "string" && isCard(v) && !(lang() === "ja" && o.values_ja?.[v])) return cardsNode([v]);
  return v == null ? "–" : memberLabel(o, v);
}

/** The rows of the rules list for a table: [{option, value, preset, changed, inPlay}]. */
export function rulesRows(info, table) {
  const inForce = table.rules || {};
  const base = presetDefaults(info, table.preset, inForce.players ?? table.players);
  return info.options.map((o) => {
    const value = Object.hasOwn(inForce, o.name) ? inForce[o.name] : base[o.name];
    // the number of players is the table's seats, not a rule changed for it: a 4-player Daifugo
    // table read "Players: 4" before the house rules its host chose; it is in play, unmarked
    if (o.name === "players") return { option: o, value, preset: base[o.name], changed: false, inPlay: true };
    return { option: o, value, preset: base[o.name], changed: !same(value, base[o.name]), inPlay: inPlay(o, value) };
  });
}

/** Whether a value is "off": false, none, 0 (0 means never for the counts), an empty list. */
function isOff(v) {
  return v === false || v == null || v === 0 || v === "none" || (Array.isArray(v) && !v.length);
}

/** Whether an option is in play at a table: a rule turned on, or a value other than the option's
 * own plain default that is not "off" (a player asked for the table's house rules read the
 * list of some 45 options, the two the host chose about 12th and 25th: a review). */
export function inPlay(o, v) {
  if (typeof v === "boolean") return v;
  return !isOff(v) && !same(v, o.default);
}

/** The rules list in two parts: what is in play at the table (the ones changed for this table
 * first, an option turned off for it too), and the rest, off or at the plain default. */
export function splitRows(rows) {
  const first = [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed && r.inPlay)];
  const rest = rows.filter((r) => !r.changed && !r.inPlay);
  return { first, rest };
}

function rowNode({ option, value, preset, changed, inPlay: on }) {
  return h("li", { class: `feel-rule rule-row ${changed ? "changed" : ""}`, dataset: { option: option.name, changed: changed ? "1" : "0", inPlay: on ? "1" : "0" } },
    h("div", { class: "feel-rule-head" },
      // (the option's name, for the command line and the API, only on hover)
      h("span", { class: "feel-rule-name", title: option.name }, optionLabel(option)),
      h("span", { class: "feel-rule-value" }, valueNode(option, value)),
      changed ? h("span", { class: "feel-rule-changed" }, t("feelChanged"), " · ", t("feelPresetValue", { v: "" }), valueNode(option, preset)) : null),
    h("p", { class: "feel-rule-desc" }, optionText(option)));
}

/** "11-back, Lock, 8-cut: off": the options changed for this table, for the summary line. */
export function changedSummary(rows) {
  const parts = [];
  for (const r of rows.filter((x) => x.changed)) {
    const v = valueNode(r.option, r.value);
    const label = optionLabel(r.option);
    // a rule turned on is its name; anything else says its value
    parts.push(r.value === true ? label : `${label}: ${typeof v === "string" ? v : v.textContent}`);
  }
  return parts.join(lang() === "ja" ? "、" : ", ");
}

/** A preset's note for players in the page's language (the developers' note if none). */
export function presetNote(preset) {
  return pick((lang() === "ja" ? preset.note_ja : preset.note_en) ?? preset.note ?? "");
}

function presetName(name, preset) {
  if (!name) return t("feelNoPreset");
  // the players' name, and (in English) the code name the API and the terminal know it by:
  // "標準 (standard)" read as English leaking into the Japanese page (an eleventh review)
  const shown = lang() === "ja" ? preset?.name_ja : preset?.name_en;
  // (nor "Standard (standard)": the code name said again when it is the name in lower case, a
  // forty-fifth review — or in it: "napoleon-web's rules (napoleon-web)", a forty-ninth)
  if (!shown || shown.toLowerCase().includes(name.toLowerCase())) return shown || name;
  return lang() === "ja" ? shown : `${shown} (${name})`;
}

/** What a table is played by, in a few words: its preset's name and what its host changed from
 * it ("" for nothing), in the page's language (`null` if the games' list cannot be read). */
export async function rulesSummary(tb) {
  let info;
  try {
    info = await gameInfo(tb.game);
  } catch {
    return null;
  }
  if (!info) return null;
  const rows = rulesRows(info, tb);
  return { preset: presetName(tb.preset, tb.preset && info.presets?.[tb.preset]), changed: rows.some((r) => r.changed) ? changedSummary(rows) : "" };
}

/** The dialog element (one per page); `table()` gives the table's public data when opened. */
export class RulesDialog {
  constructor(table) {
    this.table = table;
    this.body = h("div", { class: "feel-rules-body", id: "rules-body" });
    this.title = h("h2", { id: "rules-title" });
    this.el = h("dialog", { class: "feel-rules", id: "rules-dialog", "aria-labelledby": "rules-title" },
      h("div", { class: "feel-rules-top" }, this.title,
        h("button", { type: "button", class: "ghost", id: "rules-close", onclick: () => this.el.close() }, t("feelClose"))),
      this.body);
    // a click on the backdrop (outside the box) closes it
    this.el.addEventListener("click", (e) => {
      if (e.target === this.el) this.el.close();
    });
    document.body.append(this.el);
  }

  async open() {
    if (!this.el.open) {
      this.el.showModal();
      // from the top each time (it opened where it was last scrolled to, mid-list)
      this.el.scrollTop = 0;
      // the game in a few lines for a newcomer, first (after ten rules and "other rules" it
      // was last: a fifty-third review), open the first time this browser shows a game's rules
      // and folded after (open each time, it filled a laptop's dialog and pushed the table's
      // own rules out of sight: an earlier review); as the person left it while open
      const game = this.table()?.game;
      this.howtoOpen = true;
      try {
        // (no game yet, the table not loaded: open, and nothing noted)
        if (game) {
          this.howtoOpen = localStorage.getItem(`torampu.howtoSeen.${game}`) !== "1";
          localStorage.setItem(`torampu.howtoSeen.${game}`, "1");
        }
      } catch {
        // (nothing kept: open each time)
      }
    }
    await this.render();
  }

  async render() {
    const tb = this.table();
    this.title.textContent = t("feelRulesTitle");
    this.el.querySelector("#rules-close").textContent = t("feelClose");
    if (!tb) return;
    fill(this.body, h("p", { class: "muted" }, t("feelLoading")));
    let info;
    try {
      info = await gameInfo(tb.game);
    } catch {
      info = null;
    }
    if (!info) {
      fill(this.body, h("p", {}, t("feelRulesFail")));
      return;
    }
    const rows = rulesRows(info, tb);
    const preset = tb.preset && info.presets?.[tb.preset];
    const { first, rest } = splitRows(rows);
    const changed = rows.filter((r) => r.changed).length;
    fill(this.body,
      h("details", { class: "feel-howto", id: "rules-howto", open: this.howtoOpen !== false,
        ontoggle: (e) => (this.howtoOpen = e.target.open) },
        h("summary", {}, t("howTo")), h("p", {}, t(`howto_${tb.game}`))),
      h("p", { class: "feel-rules-preset" }, h("strong", {}, `${gameName(tb.game)} · ${t("feelPreset")}: `),
        h("span", { id: "rules-preset" }, presetName(tb.preset, preset)),
        preset?.note ? h("span", { class: "muted" }, ` — ${presetNote(preset)}`) : null),
      // the summary names what the host changed (it said "2 options differ", and which only in the
      // list: a review)
      changed ? h("p", { class: "feel-rules-count", id: "rules-changed" },
        h("strong", {}, `${t("feelChangedHere")}: `), changedSummary(rows)) : null,
      // the rules in play first, the rest folded: a host's two house rules were 12th and 25th of
      // some 45 options, every rule that is off among them (a review)
      h("div", { class: "feel-rule-list", id: "rules-list" },
        h("section", { class: "feel-rules-inplay", id: "rules-inplay", "aria-labelledby": "rules-inplay-title" },
          h("h3", { id: "rules-inplay-title" }, t("feelInPlay")),
          first.length
            ? h("ul", { class: "feel-rule-list" }, first.map(rowNode))
            : h("p", { class: "muted" }, t("feelInPlayNone"))),
        rest.length
          ? h("details", { class: "feel-rules-rest", id: "rules-rest" },
            h("summary", {}, t("feelRulesRest", { n: rest.length })),
            h("ul", { class: "feel-rule-list" }, rest.map(rowNode)))
          : null),
      h("details", { class: "feel-howto", id: "rules-legend" },
        h("summary", {}, t("legendTitle")), seatLegend(tb.game)));
  }
}
