// The HTTP API and the tokens kept in localStorage.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(res.status, err.code || String(res.status), err.message || res.statusText);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  bots: () => request("GET", "/api/bots"),
  tables: (status = null, limit = 50) =>
    request("GET", `/api/tables?limit=${limit}${status ? `&status=${encodeURIComponent(status)}` : ""}`),
  table: (id) => request("GET", `/api/tables/${enc(id)}`),
  create: (body) => request("POST", "/api/tables", body),
  join: (id, body) => request("POST", `/api/tables/${enc(id)}/join`, body),
  setSeat: (id, seat, body, host) =>
    request("POST", `/api/tables/${enc(id)}/seats/${seat}`, body, host),
  start: (id, body, host) => request("POST", `/api/tables/${enc(id)}/start`, body, host),
  finished: (id) => request("GET", `/api/tables/${enc(id)}/games`),
  replay: (id, k, seat) =>
    request("GET", `/api/tables/${enc(id)}/games/${k}/replay${seat == null ? "" : `?seat=${seat}`}`),
  recordUrl: (id, k) => `/api/tables/${enc(id)}/games/${k}/record`,
  rematch: (id, token) => request("POST", `/api/tables/${enc(id)}/rematch`, {}, token),
};

function enc(s) {
  return encodeURIComponent(s);
}

// ------------------------------------------------------------------ tokens

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}");
  } catch {
    return {};
  }
}

function save(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}

export const tokens = {
  host: (id) => load("torampu.host")[id] || null,
  setHost(id, token) {
    const all = load("torampu.host");
    all[id] = token;
    save("torampu.host", all);
  },
  seat: (id) => load("torampu.seats")[id] || null,
  clearSeat(id) {
    const all = load("torampu.seats");
    delete all[id];
    save("torampu.seats", all);
  },
  setSeat(id, seat, token) {
    const all = load("torampu.seats");
    all[id] = { seat, token };
    save("torampu.seats", all);
  },
  name: () => localStorage.getItem("torampu.name") || "",
  setName: (name) => localStorage.setItem("torampu.name", name),
};
