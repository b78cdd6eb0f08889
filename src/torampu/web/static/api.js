// The HTTP API and the tokens kept in localStorage.

import { toast } from "./dom.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// a private table's invite goes with every request about it (never in the address the
// request is made to, which servers and proxies log)
// (and, unless the request names its own, this browser's seat or host token for that table,
// which open a private table to its players whatever became of the invite)
function headersFor(body, token, tableId) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const held = tableId == null ? null : tokens.seat(tableId)?.token || tokens.host(tableId);
  if (token || held) headers.Authorization = `Bearer ${token || held}`;
  const invite = tableId == null ? null : tokens.invite(tableId);
  if (invite) headers["X-Torampu-Invite"] = invite;
  return headers;
}

async function request(method, path, body, token, tableId = null) {
  const headers = headersFor(body, token, tableId);
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await jsonOrNull(res);
  if (!res.ok) throw errorOf(res, data);
  return data;
}

async function jsonOrNull(res) {
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/** The error a failed response names (the server's `{"error": {code, message}}`). */
function errorOf(res, data) {
  const err = (data && data.error) || {};
  return new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
}

function recordName(id, k) {
  return `${id}-game${Number(k) + 1}.json`;
}

export const api = {
  games: () => request("GET", "/api/games"),
  bots: () => request("GET", "/api/bots"),
  tables: (status = null, limit = 50) =>
    request("GET", `/api/tables?limit=${limit}${status ? `&status=${encodeURIComponent(status)}` : ""}`),
  table: (id, token = null) => request("GET", `/api/tables/${enc(id)}`, undefined, token, id),
  create: (body) => request("POST", "/api/tables", body),
  join: (id, body) => request("POST", `/api/tables/${enc(id)}/join`, body, null, id),
  setSeat: (id, seat, body, host) =>
    request("POST", `/api/tables/${enc(id)}/seats/${seat}`, body, host, id),
  start: (id, body, host) => request("POST", `/api/tables/${enc(id)}/start`, body, host, id),
  finished: (id) => request("GET", `/api/tables/${enc(id)}/games`, undefined, null, id),
  replay: (id, k, seat, all = false) => {
    const q = [seat == null ? null : `seat=${seat}`, all ? "hands=all" : null].filter(Boolean).join("&");
    return request("GET", `/api/tables/${enc(id)}/games/${k}/replay${q ? `?${q}` : ""}`, undefined, null, id);
  },
  recordUrl: (id, k) => `/api/tables/${enc(id)}/games/${k}/record`,
  leave: (id, token) => request("POST", `/api/tables/${enc(id)}/leave`, {}, token, id),
  /** Leave the game in progress for good: a bot plays the seat to the match's end. */
  leaveGame: (id, token) => request("POST", `/api/tables/${enc(id)}/leave`, { in_play: true }, token, id),
  move: (id, seat, token) => request("POST", `/api/tables/${enc(id)}/move`, { seat }, token, id),
  swap: (id, a, b, host) => request("POST", `/api/tables/${enc(id)}/swap`, { seats: [a, b] }, host, id),
  close: (id, host) => request("POST", `/api/tables/${enc(id)}/close`, {}, host, id),
  rename: (id, name, token) => request("POST", `/api/tables/${enc(id)}/name`, { name }, token, id),
  // (a seat's wish carries the host token too, where this page has it: the host who asked
  // keeps the table's invite and closing at a rematch made with a bot in a seat)
  rematch: (id, token, host) => request("POST", `/api/tables/${enc(id)}/rematch`, host && host !== token ? { host } : {}, token, id),
  withdrawRematch: (id, token) => request("POST", `/api/tables/${enc(id)}/rematch`, { withdraw: true }, token, id),
  newInvite: (id, host) => request("POST", `/api/tables/${enc(id)}/invite`, {}, host, id),
  /** A private table's record is fetched with its invite and saved from memory: a plain link
   * cannot carry the invite without putting it in the address. */
  async download(id, k) {
    const res = await fetch(api.recordUrl(id, k), { headers: headersFor(undefined, null, id) });
    if (!res.ok) throw errorOf(res, await jsonOrNull(res));
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement("a");
    a.href = url;
    a.download = recordName(id, k);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};

/** Props for a finished game's record link: a plain download, or at a private table a click
 * that fetches it with what opens the table (its invite, or this browser's seat or host
 * token). */
export function recordLink(id, k, isPrivate) {
  const props = { href: api.recordUrl(id, k), download: recordName(id, k) };
  if (isPrivate || tokens.invite(id)) {
    props.onclick = (e) => {
      e.preventDefault();
      api.download(id, k).catch((err) => toast(`${err.message} (${err.code})`));
    };
  }
  return props;
}

function enc(s) {
  return encodeURIComponent(s);
}

// ------------------------------------------------------------------ tokens

function load(key) {
  try {
    return own(JSON.parse(localStorage.getItem(key) || "{}"));
  } catch {
    return own({});
  }
}

/** The plain object `v` as a map with no prototype: a key read from it is only what was stored
 * (a key such as "__proto__" or "constructor" read the built-in). */
export function own(v) {
  return Object.assign(Object.create(null), v && typeof v === "object" ? v : {});
}

function save(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

/** Whether `v` has the shape of a token the server makes (URL-safe base64, 43 characters): a
 * value a crafted link put in storage ("#invite=€") made every request of that table fail in
 * the browser — a header can hold no such character — until the site's data was cleared. */
export function isToken(v) {
  return typeof v === "string" && /^[A-Za-z0-9_-]{20,128}$/.test(v);
}

const ok = (v) => (isToken(v) ? v : null);

/** Whether the TABLE seat `s` is one its person left in play: the bot plays it to the match's
 * end under their name (a bot's seat has none otherwise). */
export function leftInPlay(s) {
  return s?.kind === "bot" && !!s.name;
}

/** Whether a table's host may close it: not started, or in play with at most one person
 * seated (a game against bots). The server decides; this only offers the button. */
export function closable(tb) {
  // (a seat its person left in play still theirs to count, as the server does: the host who
  // left must not close the others' match)
  const people = (tb?.seats || []).filter((s) => s.kind === "human" || leftInPlay(s)).length;
  return tb?.status === "waiting" || (tb?.status === "playing" && people <= 1);
}

/** A note for the page of table `id` that this tab opens next (sessionStorage, lost in private
 * mode), read once by `takeNote`: who came along to a rematch, the name the lobby gave a
 * table's maker, a quick play's start. Whether it was kept. */
export function leaveNote(key, id, value) {
  try {
    sessionStorage.setItem(key, JSON.stringify({ id, value }));
    return true;
  } catch {
    return false; // (private mode: no note)
  }
}

/** The note `key` left for table `id` (then gone), or null. */
export function takeNote(key, id) {
  let note = null;
  try { note = JSON.parse(sessionStorage.getItem(key) || "null"); } catch { note = null; }
  if (!note || note.id !== id) return null;
  try { sessionStorage.removeItem(key); } catch { /* nothing kept */ }
  return note.value ?? null;
}

export const tokens = {
  host: (id) => ok(load("torampu.host")[id]),
  setHost(id, token) {
    if (!isToken(token)) return;
    const all = load("torampu.host");
    all[id] = token;
    save("torampu.host", all);
  },
  seat: (id) => {
    const held = load("torampu.seats")[id];
    return held && isToken(held.token) ? held : null;
  },
  /** Forget everything held of a table (it was closed). */
  forget(id) {
    for (const key of ["torampu.seats", "torampu.host", "torampu.invites"]) {
      const all = load(key);
      delete all[id];
      save(key, all);
    }
  },
  clearSeat(id) {
    const all = load("torampu.seats");
    delete all[id];
    save("torampu.seats", all);
  },
  setSeat(id, seat, token) {
    if (!isToken(token)) return;
    const all = load("torampu.seats");
    all[id] = { seat, token };
    save("torampu.seats", all);
  },
  /** A private table's invite (from its link's #invite=… or the table's creation). */
  invite: (id) => ok(load("torampu.invites")[id]),
  setInvite(id, invite) {
    if (!isToken(invite)) return;
    const all = load("torampu.invites");
    all[id] = invite;
    save("torampu.invites", all);
  },
  /** The tables this browser holds something of (a seat, the host token, an invite), the
   * newest first (as they were stored), at most `n`. */
  mine(n) {
    const ids = new Set([...Object.keys(load("torampu.seats")), ...Object.keys(load("torampu.host")), ...Object.keys(load("torampu.invites"))].reverse());
    return [...ids].slice(0, n);
  },
  name: () => localStorage.getItem("torampu.name") || "",
  setName: (name) => localStorage.setItem("torampu.name", name),
};
