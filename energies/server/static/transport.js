// The anywidget `model` interface over a websocket: the PlayApp's page code (and the console's)
// runs unchanged in a plain web page. Python owns the truth: the server sends
// {"type": "set", "changes": {name: value, ...}} and the page draws; what the page sends with
// `model.send(content)` goes to the server as one JSON message. No build step.

export class SocketModel {
  constructor(send) {
    this._send = send; // (object) => void
    this._values = {};
    this._handlers = new Map(); // event name -> Set of callbacks
  }

  get(name) {
    return this._values[name];
  }

  // a value set by the page itself stays in the page: the server owns every synced value
  set(name, value) {
    this._values[name] = value;
    this._fire(`change:${name}`);
  }

  save_changes() {}

  on(event, callback) {
    if (!this._handlers.has(event)) this._handlers.set(event, new Set());
    this._handlers.get(event).add(callback);
  }

  off(event, callback) {
    if (!event) { this._handlers.clear(); return; }
    const set = this._handlers.get(event);
    if (!set) return;
    if (callback) set.delete(callback); else set.clear();
  }

  send(content) {
    this._send(content);
  }

  // the server's changes: every value first, then one event per name, the board's shape
  // before anything drawn on it (as a widget's first sync does)
  apply(changes) {
    const names = Object.keys(changes).sort((a, b) => (a === "geometry" ? -1 : b === "geometry" ? 1 : 0));
    for (const name of names) this._values[name] = changes[name];
    for (const name of names) this._fire(`change:${name}`);
  }

  // draw again what is there (a refused message: the page stops waiting for its answer)
  poke(name) {
    if (name in this._values) this._fire(`change:${name}`);
  }

  _fire(event) {
    for (const callback of [...(this._handlers.get(event) || [])]) {
      try { callback(); } catch (error) { console.error(error); }
    }
  }
}

// A websocket to `path` (relative to this page), opened again after a break with a growing
// pause; `onOpen(socket)` runs at every (re)opening, `onMessage(object)` for each message.
export function connect(path, { onOpen, onMessage, onState }) {
  let socket = null;
  let pause = 500;
  let stopped = false;
  const url = new URL(path, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const queue = [];
  function open() {
    socket = new WebSocket(url);
    socket.addEventListener("open", () => {
      pause = 500;
      onState && onState("open");
      onOpen && onOpen();
      while (queue.length) socket.send(queue.shift());
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      onState && onState("closed", event.reason || "");
      if (stopped || event.code === 1008) return; // refused or closed on purpose: no retry loop
      setTimeout(open, pause);
      pause = Math.min(pause * 2, 8000);
    });
  }
  open();
  return {
    send(object) {
      const text = JSON.stringify(object);
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
      else queue.push(text);
    },
    stop() { stopped = true; if (socket) socket.close(); },
  };
}
