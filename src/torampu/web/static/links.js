// A table's links: the secrets an address's fragment carries (#invite=, #seat=), kept in this
// browser for the table and never sent in an address (the table's page and its replays').

import { isToken, tokens } from "./api.js";
import { toast } from "./dom.js";
import { t } from "./i18n.js";

/** The value of `key=` in the address's fragment: null if there is none, "" if it is no token
 * (a bad escape, a character a header cannot carry: a crafted link), told once. */
function fragmentToken(key) {
  const m = new RegExp(`(?:^#|&)${key}=([^&]*)`).exec(location.hash);
  if (!m) return null;
  let value = "";
  try {
    value = decodeURIComponent(m[1]);
  } catch {
    /* "%ZZ": no value */
  }
  if (isToken(value)) return value;
  toast(t("brokenLink"));
  return "";
}

// Opened with #invite=<secret> (a private table's link): keep the invite for this table. It
// stays in the address bar, which is the table's link to pass on.
/** Keep the invite of `id` from the address's #invite= (the table's page and its replays'). */
export function adoptInvite(id) {
  const invite = fragmentToken("invite");
  // (where it would replace an invite this browser holds, it is kept aside until the server
  // says it opens the table: a crafted link replaced a friend's working invite, and the host's
  // Share box offered the crafted one — a thirty-eighth audit; given back only on a 404, it
  // stayed for good when the check failed otherwise, a thirty-ninth)
  const before = tokens.invite(id);
  if (invite && before && before !== invite) pending.set(id, invite);
  else if (invite) tokens.setInvite(id, invite);
  // the address bar carries the invite this browser holds (people copy the address bar, not
  // the Share box: a private table opened from "Create" or "Your tables" showed /t/<id>, which
  // tells anyone else "no such table", a fourth review)
  const held = tokens.invite(id);
  if (held && !invite && !/(?:^#|&)seat=/.test(location.hash)) showInvite(held);
}

/** Put `invite` in the address bar (the table's link people copy). */
function showInvite(invite) {
  history.replaceState(null, "", `${location.pathname}${location.search}#invite=${encodeURIComponent(invite)}`);
}

const pending = new Map(); // table id → a link's invite not yet checked (see adoptInvite)

/** A link's invite kept aside by adoptInvite: asked with it alone (no seat or host token,
 * which open the table whatever the invite), it replaces the one held only if the table
 * opens (200); else — refused, rate-limited, no answer — the one held stays, and is put in
 * the address bar. Awaited before the table's first request. */
export async function settleInvite(id) {
  const invite = pending.get(id);
  pending.delete(id);
  if (!invite) return;
  const headers = { Accept: "application/json", "X-Torampu-Invite": invite };
  const res = await fetch(`/api/tables/${encodeURIComponent(id)}`, { headers }).catch(() => null);
  if (res?.ok) tokens.setInvite(id, invite);
  else showInvite(tokens.invite(id));
}

// Opened with #seat=<token> (a player's own link, on another device): keep the token for this
// table and drop it from the address bar (the invite, if any, stays), so that it is not shared
// by accident.
export function adoptSeatLink(id) {
  if (!/(?:^#|&)seat=/.test(location.hash)) return;
  const token = fragmentToken("seat");
  const invite = /(?:^#|&)(invite=[^&]+)/.exec(location.hash);
  history.replaceState(null, "", location.pathname + location.search + (invite ? `#${invite[1]}` : ""));
  if (!token) return;
  const held = tokens.seat(id);
  // a link someone else made could otherwise take this browser's own seat away silently; and,
  // with none held, seat this browser where its maker sees every card it is dealt
  if (held?.token !== token && !window.confirm(t(held?.token ? "seatLinkReplace" : "seatLinkTake"))) return;
  tokens.setSeat(id, held?.token === token ? held.seat : null, token);
}
