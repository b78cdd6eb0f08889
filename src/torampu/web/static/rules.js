// The rules of this table, one click away: a dialog listing every option in force (the table's
// resolved options and its preset) with its explanation from torampu.rules (served by
// GET /api/games), in the player's language. Options that differ from the preset are marked.
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

/** The options of the preset (defaults overridden by the preset's own options). */
export function presetDefaults(info, preset) {
  const out = {};
  for (const o of info.options) out[o.name] = o.default;
  const p = preset && info.presets ? info.presets[preset] : null;
  if (p?.options) Object.assign(out, p.options);
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

/** The rows of the rules list for a table: [{option, value, preset, changed}]. */
export function rulesRows(info, table) {
  const inForce = table.rules || {};
  const base = presetDefaults(info, table.preset);
  return info.options.map((o) => {
    const value = Object.hasOwn(inForce, o.name) ? inForce[o.name] : base[o.name];
    return { option: o, value, preset: base[o.name], changed: !same(value, base[o.name]) };
  });
}

function rowNode({ option, value, preset, changed }) {
  return h("li", { class: `feel-rule ${changed ? "changed" : ""}`, dataset: { option: option.name, changed: changed ? "1" : "0" } },
    h("div", { class: "feel-rule-head" },
      // (the option's name, for the command line and the API, only on hover)
      h("span", { class: "feel-rule-name", title: option.name }, optionLabel(option)),
      h("span", { class: "feel-rule-value" }, valueNode(option, value)),
      changed ? h("span", { class: "feel-rule-changed" }, t("feelChanged"), " · ", t("feelPresetValue", { v: "" }), valueNode(option, preset)) : null),
    h("p", { class: "feel-rule-desc" }, optionText(option)));
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
  if (!shown || shown === name) return name;
  return lang() === "ja" ? shown : `${shown} (${name})`;
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
    if (!this.el.open) this.el.showModal();
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
    const changed = rows.filter((r) => r.changed).length;
    fill(this.body,
      // the game in a few lines for a newcomer; the list below says which rules are in force
      h("details", { class: "feel-howto", id: "rules-howto", open: true },
        h("summary", {}, t("howTo")), h("p", {}, t(`howto_${tb.game}`))),
      h("details", { class: "feel-howto", id: "rules-legend" },
        h("summary", {}, t("legendTitle")), seatLegend(tb.game)),
      h("p", { class: "feel-rules-preset" }, h("strong", {}, `${gameName(tb.game)} · ${t("feelPreset")}: `),
        h("span", { id: "rules-preset" }, presetName(tb.preset, preset)),
        preset?.note ? h("span", { class: "muted" }, ` — ${presetNote(preset)}`) : null),
      changed ? h("p", { class: "feel-rules-count" }, t("feelChangedCount", { n: changed })) : null,
      h("ul", { class: "feel-rule-list", id: "rules-list" }, rows.map(rowNode)));
  }
}
