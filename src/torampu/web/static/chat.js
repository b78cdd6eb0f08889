// The table chat: short texts and quick reactions, for the seated players (and the spectators
// where the host allowed it). Every message is shown as text (text nodes), never as markup.

import { fill, h } from "./dom.js";
import { seatName } from "./game.js";
import { t } from "./i18n.js";

export const REACTIONS = ["hello", "nice", "thanks", "dontmind", "gg", "wow", "sorry", "oops"];
const MAX = 200;
const KEEP = 100;

export class ChatPanel {
  constructor(page) {
    this.page = page;
    this.messages = [];
    this.list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
    // open at first only where it leaves room for the table's panels (not on a phone, nor on a
    // laptop's 650 px height); closed, its title counts the messages not yet seen
    this.unread = 0;
    this.el = h("details", { class: "panel chat", id: "chat", open: !window.matchMedia?.("(max-width: 600px), (max-height: 800px)").matches, hidden: true,
      ontoggle: () => { if (this.el.open) { this.unread = 0; this.renderSummary(); } } });
    this.relabel();
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
    fill(this.el, [this.summary, this.list, this.reactions, form]);
    this.renderSummary();
    this.renderList();
  }

  renderSummary() {
    fill(this.summary, t("sc_chat"), this.unread ? h("span", { class: "unread", id: "chat-unread" }, t("sc_chatUnread", { n: this.unread })) : null);
  }

  allowed() {
    const snap = this.page.snap;
    return !!snap && (snap.seat != null || !!snap.table?.chat?.spectators);
  }

  onSnapshot() {
    this.el.hidden = !this.allowed();
  }

  onMessage(msg) {
    if (msg.type === "chat_history") {
      this.messages = msg.messages || [];
    } else if (msg.type === "chat") {
      if (this.messages.some((m) => m.id === msg.id)) return;
      this.messages.push(msg);
      this.messages = this.messages.slice(-KEEP);
      if (!this.el.open && msg.seat !== this.page.snap?.seat) {
        this.unread += 1;
        this.renderSummary();
      }
    } else return;
    this.renderList();
  }

  say() {
    const text = this.input.value.trim();
    if (!text) return;
    if (this.page.conn.send({ type: "chat", text: text.slice(0, MAX) })) this.input.value = "";
  }

  renderList() {
    fill(this.list, this.messages.map((m) => {
      const who = m.seat == null ? t("sc_spectator") : (m.name || seatName(this.page.table, m.seat));
      const body = m.reaction ? h("span", { class: "reaction-text" }, t(`sc_r_${m.reaction}`)) : h("span", { class: "chat-text" }, m.text ?? "");
      return h("li", { class: m.seat != null && m.seat === this.page.snap?.seat ? "me" : "", dataset: { id: m.id } },
        h("strong", { class: "chat-who" }, who), " ", body);
    }));
    this.list.scrollTop = this.list.scrollHeight;
  }
}
