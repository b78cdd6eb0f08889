// The table's websocket: hello with the token and last version, automatic reconnection with
// backoff, pings to keep the line open.

const PING_MS = 25000;
const MAX_BACKOFF_MS = 10000;

export class Connection {
  /** handlers: {snapshot(msg), error(msg), status("open"|"closed")}; invite: a private
   * table's invite (sent with every hello), or null */
  constructor(tableId, token, invite, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.invite = invite; // a private table's invite, or null
    this.handlers = handlers;
    this.version = null;
    this.backoff = 500;
    this.closed = false;
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      const hello = { type: "hello", token: this.token, version: this.version };
      if (this.invite) hello.invite = this.invite;
      this.send(hello);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.handlers.status("open");
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = () => this.lost();
  }

  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "snapshot") {
      this.version = msg.version;
      this.handlers.snapshot(msg);
    } else if (msg.type === "error") this.handlers.error(msg);
    else if (this.handlers.message) this.handlers.message(msg); // chat, chat_history, hint
  }

  lost() {
    clearInterval(this.pinger);
    if (this.closed) return; // (closed on purpose: nothing to reconnect, nothing to report)
    this.handlers.status("closed");
    setTimeout(() => this.open(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  act(action) {
    return this.send({ type: "act", action, version: this.version });
  }

  /** A new identity (after taking a seat): reconnect and say hello with it. */
  setToken(token) {
    this.token = token;
    this.backoff = 50;
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
