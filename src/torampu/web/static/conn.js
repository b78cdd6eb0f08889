// The table's websocket: hello with the token and last version, automatic reconnection with
// backoff, pings to keep the line open, and a line that went dead found out.

const PING_MS = 25000;
const MAX_BACKOFF_MS = 10000;
/** A ping or a move unanswered this long: the line is dead (a Wi-Fi gone quiet closes nothing:
 * the page said "connected" for a minute and dropped the move, a sixth review). */
export const ANSWER_MS = 8000;

/** ``ms`` give or take a quarter, at random: the tabs a server's restart dropped do not all
 * come back at one moment. */
export function jittered(ms) {
  return ms * (0.75 + Math.random() * 0.5);
}

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
    this.answerBy = null;
    // the device is back on a network: try at once, not after the backoff
    this.onOnline = () => { if (!this.closed && this.ws?.readyState !== WebSocket.OPEN) this.retryNow(); };
    window.addEventListener("online", this.onOnline);
    // and off it: the line is gone now, said at once — not at the next ping's unanswered 8 s
    // (the page kept its green dot and "Your turn" for 12 s and more offline, a tenth review)
    this.onOffline = () => { if (!this.closed && this.ws) this.giveUp(); };
    window.addEventListener("offline", this.onOffline);
    this.open();
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    clearInterval(this.pinger); // (a socket given up while open had one running)
    ws.onopen = () => {
      if (this.ws !== ws) return;
      // (the backoff starts again at a snapshot, not here: a socket accepted then refused
      // after its hello — too many at the table from this address — reconnected twice a
      // second for ever, an eleventh audit)
      const hello = { type: "hello", token: this.token, version: this.version };
      if (this.invite) hello.invite = this.invite;
      this.hello = hello;
      this.greeted = false;
      this.helloWait = 500;
      this.send(hello);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
      this.handlers.status("open");
    };
    ws.onmessage = (event) => { if (this.ws === ws) this.receive(event.data); };
    ws.onclose = () => { if (this.ws === ws) this.lost(); };
  }

  /** Something sent wants an answer (every ping and move is answered at once): none in
   * ANSWER_MS, and the socket is given up and a new one opened. */
  expectAnswer() {
    if (this.answerBy) return;
    this.answerBy = setTimeout(() => {
      this.answerBy = null;
      if (this.closed || this.ws?.readyState !== WebSocket.OPEN) return;
      this.giveUp();
    }, ANSWER_MS);
  }

  /** The socket is dead to us (unanswered, or the device went offline): closed, and the
   * line reported lost, a new socket tried after the backoff (or at once when back online). */
  giveUp() {
    const ws = this.ws;
    this.ws = null; // (its close, whenever it comes, is no longer this connection's)
    try { ws.close(); } catch { /* already going */ }
    this.lost();
  }

  /** Reconnect now (the device is online again, or the player asked). */
  retryNow() {
    clearTimeout(this.retry);
    this.backoff = 500;
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.open();
  }

  receive(data) {
    clearTimeout(this.answerBy);
    this.answerBy = null;
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "snapshot") {
      this.backoff = 500;
      this.version = msg.version;
      this.greeted = true;
      this.handlers.snapshot(msg);
    } else if (msg.type === "error" && msg.code === "rate_limited" && !this.greeted && this.hello) {
      // the hello itself refused for now (the table read back into memory at a bounded rate
      // from one address: after a server's restart, an office's tabs all came back at once):
      // said again after a moment (0.5 s, doubling to 4), not left unanswered until the
      // server's hello timeout closed the socket ten seconds later (a nineteenth scale audit)
      const ws = this.ws;
      clearTimeout(this.rehello);
      this.rehello = setTimeout(() => { if (this.ws === ws && !this.greeted) this.send(this.hello); }, jittered(this.helloWait));
      this.helloWait = Math.min(this.helloWait * 2, 4000); // (within the server's hello timeout)
    } else if (msg.type === "error") this.handlers.error(msg);
    else if (this.handlers.message) this.handlers.message(msg); // chat, chat_history, hint
  }

  lost() {
    clearInterval(this.pinger);
    clearTimeout(this.answerBy);
    this.answerBy = null;
    if (this.closed) return; // (closed on purpose: nothing to reconnect, nothing to report)
    this.handlers.status("closed");
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.open(), jittered(this.backoff));
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      if (msg.type === "ping" || msg.type === "act") this.expectAnswer();
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
    clearTimeout(this.retry);
    clearTimeout(this.answerBy);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    if (this.ws) this.ws.close();
  }
}
