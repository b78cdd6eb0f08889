// Entry point: the header (language switch, connection), then the page for the address.

import { fill, h } from "./dom.js";
import { lang, onLangChange, setLang, t } from "./i18n.js";
import { lobbyPage } from "./lobby.js";
import { replayPage } from "./replay.js";
import { tablePage } from "./table.js";

function header() {
  const toggle = h("button", { type: "button", class: "ghost lang", id: "lang", onclick: () => setLang(lang() === "ja" ? "en" : "ja") }, t("language"));
  onLangChange(() => (toggle.textContent = t("language")));
  return h("header", { class: "top" },
    h("a", { class: "brand", href: "/" }, h("span", { class: "logo" }, "🂡"), " torampu"),
    h("span", { class: "conn", id: "conn" }),
    toggle);
}

function route(root) {
  const path = location.pathname.replace(/\/+$/, "");
  // a table's id as the server makes them (validate.py's TABLE_ID): another is no table's —
  // /t/__proto__ read the built-in of the page's stored maps and left a blank page (a
  // twenty-seventh audit's note)
  const replay = /^\/t\/([A-Za-z0-9]{1,32})\/replay\/(\d+)$/.exec(path);
  if (replay) return replayPage(root, replay[1], Number(replay[2]));
  const table = /^\/t\/([A-Za-z0-9]{1,32})$/.exec(path);
  if (table) return tablePage(root, table[1]);
  if (path !== "") return notFoundPage(root); // (the server answers such a page 404)
  return lobbyPage(root);
}

/** A page the server does not have: said in the reader's language, with the way back. */
function notFoundPage(root) {
  const draw = () => fill(root, h("div", { class: "panel", id: "page-gone" },
    h("p", {}, t("noSuchPage")), h("a", { href: "/" }, t("back"))));
  draw();
  return { render: draw };
}

function main() {
  document.title = t("title");
  const root = h("main", { id: "app" });
  document.body.prepend(header(), root);
  const page = route(root);
  onLangChange(() => {
    document.title = t("title");
    if (page.rerender) page.rerender();
    else if (page.render) page.render();
  });
}

main();
