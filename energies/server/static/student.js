// A student's page of the class server: the table's lobby (type a name, take a seat), then the
// PlayApp's own page code (playapp.js, shared with the notebook app) drawn from the seat's view
// that the server sends over a websocket. The seat token is kept in this browser
// (localStorage) and in the address (#seat=...), so a reload gets the seat back.

import playapp from "./playapp.js";
import { SocketModel, connect } from "./transport.js";

const $ = (selector) => document.querySelector(selector);
const esc = (t) => String(t ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
// The page's words come from Python in the page's language (energies/server/pages.py): a JSON
// block on the page; this module writes no sentence of its own.
const WORDS = JSON.parse(document.getElementById("energies-words")?.textContent || "{}");
const W = (key, vars = {}) => String(WORDS[key] ?? key).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
const LANG = document.documentElement.lang || "en";

function indexPage() {
  const form = $("[data-code-form]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("[data-code]").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (code.length !== 6) {
      $("[data-error]").textContent = W("code_length");
      return;
    }
    const asked = new URLSearchParams(window.location.search).get("lang");
    window.location.href = `t/${code}${asked ? `?lang=${encodeURIComponent(asked)}` : ""}`;
  });
}

function studentPage() {
  const code = decodeURIComponent(window.location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
  const store = `energies-seat-${code}`;
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("seat");
  let token = fromHash || window.localStorage.getItem(store) || "";
  let seated = false;
  let drawn = false;
  let lastLobby = null;
  let nextId = 1;
  const lobbyBox = $("[data-lobby]");
  const appBox = $("[data-app]");
  const banner = $("[data-banner]");
  const error = $("[data-error]");
  $("[data-link]").textContent = W("table_code", { code });

  // the connection speaks the page's language: the board, the lobby and every refusal
  const link = connect(`../ws/table/${encodeURIComponent(code)}?lang=${encodeURIComponent(LANG)}`, {
    onOpen: () => link.send({ type: "hello", ...(token ? { token } : {}), id: nextId++ }),
    onMessage: receive,
    onState: (state, reason) => {
      if (state === "closed") show(reason ? W("disconnected", { reason }) : W("reconnecting"), "error");
      else show("");
    },
  });
  const model = new SocketModel((content) => link.send({ ...content, id: nextId++ }));

  function show(text, kind = "info") {
    banner.hidden = !text;
    banner.textContent = text;
    banner.className = `c-banner c-${kind}`;
  }

  function keep(newToken) {
    token = newToken;
    window.localStorage.setItem(store, token);
    history.replaceState(null, "", `#seat=${encodeURIComponent(token)}`);
  }

  function forget() {
    token = "";
    window.localStorage.removeItem(store);
    history.replaceState(null, "", window.location.pathname);
  }

  function where(info) {
    if (!info) return;
    const me = info.you !== null && info.you !== undefined ? info.seats[info.you] : null;
    const parts = [W("table_n", { table: info.table }), W("round_n", { round: info.round })];
    if (info.round > 1) parts.push(info.agreement ? W("with_agreement") : W("without_agreement"));
    if (me) parts.push(W("you_are", { name: me.name, seat: info.you + 1 }));
    $("[data-where]").textContent = parts.join(" · ");
    const card = $("[data-role]");
    card.hidden = !info.role;
    if (info.role) {
      const r = info.role;
      card.querySelector("summary").textContent = W("your_role", { title: r.title });
      card.querySelector(".c-card").innerHTML = `<p>${esc(r.who)}</p><p><b>${esc(W("you_want"))}</b> ${esc(r.wants)}</p>
        <p><b>${esc(W("you_may"))}</b></p><ul>${r.may.map((m) => `<li>${esc(m)}</li>`).join("")}</ul>
        <p><b>${esc(W("your_goal"))}</b> ${esc(r.goal)}</p>`;
    }
    if (info.paused) show(W("paused"), "warn");
    else if (info.status === "ended") show(W("ended"), "warn");
    else if (!banner.classList.contains("c-error")) show("");
  }

  function drawLobby(info) {
    lastLobby = info;
    where(info);
    $("[data-lobby-title]").textContent = W("lobby_title", { table: info.table, class: info.class });
    const note = $("[data-lobby-note]");
    const form = $("[data-join]");
    if (seated) {
      note.textContent = info.note || W("waiting_to_start");
      form.hidden = true;
      return;
    }
    if (info.status !== "waiting") {
      note.textContent = W("started_without_you");
      form.hidden = true;
      return;
    }
    note.textContent = info.taken_note; // said in Python: the count takes the language's plural
    form.hidden = false;
    $("[data-seats]").innerHTML = info.seats.map((s) => s.free
      ? `<button class="e-btn e-primary c-seat" type="button" data-seat="${s.seat}">${esc(W("take_seat", { seat: s.seat + 1 }))}</button>`
      : `<span class="c-seat c-taken">${esc(W("seat_taken", { seat: s.seat + 1, name: s.name || W("taken") }))}</span>`).join("");
  }

  $("[data-join]").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-seat]");
    if (!button) return;
    const name = $("[data-name]").value.trim();
    if (!name) { error.textContent = W("type_name_first"); return; }
    error.textContent = "";
    link.send({ type: "join", name, seat: Number(button.dataset.seat), id: nextId++ });
  });
  $("[data-join]").addEventListener("submit", (event) => event.preventDefault());

  function drawApp(changes) {
    if (!drawn) {
      lobbyBox.hidden = true;
      appBox.hidden = false;
      model.apply(changes);
      playapp.render({ model, el: appBox });
      drawn = true;
    } else {
      model.apply(changes);
    }
  }

  function receive(message) {
    if (message.type === "lobby") {
      drawLobby(message.lobby);
      if (drawn && message.lobby.status === "waiting") { appBox.hidden = true; lobbyBox.hidden = false; }
    } else if (message.type === "token") {
      keep(message.token);
    } else if (message.type === "set") {
      seated = true;
      if (message.moves !== undefined) appBox.dataset.moves = message.moves; // tests wait for it
      if (message.lobby) where(message.lobby);
      appBox.hidden = false;
      lobbyBox.hidden = true;
      drawApp(message.changes);
    } else if (message.type === "ack") {
      if (message.of === "hello" && !message.ok) forget();
      if (!message.ok && !drawn) error.textContent = message.reason;
      if (message.of === "join" && message.ok) seated = true;
    } else if (message.type === "error") {
      show(message.reason, "error");
      model.poke("view"); // the page stops waiting for an answer that will not come
    }
    if (seated && lastLobby && !drawn) drawLobby(lastLobby);
  }
}

if (document.querySelector("[data-code-form]")) indexPage();
else studentPage();
