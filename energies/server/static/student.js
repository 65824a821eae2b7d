// A student's page of the class server: the table's lobby (type a name, take a seat), then the
// PlayApp's own page code (playapp.js, shared with the notebook app) drawn from the seat's view
// that the server sends over a websocket. The seat token is kept in this browser
// (localStorage) and in the address (#seat=...), so a reload gets the seat back.

import playapp from "./playapp.js";
import { SocketModel, connect } from "./transport.js";

const $ = (selector) => document.querySelector(selector);
const esc = (t) => String(t ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

function indexPage() {
  const form = $("[data-code-form]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("[data-code]").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (code.length !== 6) {
      $("[data-error]").textContent = "A table code has six letters and digits.";
      return;
    }
    window.location.href = `t/${code}`;
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
  $("[data-link]").textContent = `table code ${code}`;

  const link = connect(`../ws/table/${encodeURIComponent(code)}`, {
    onOpen: () => link.send({ type: "hello", ...(token ? { token } : {}), id: nextId++ }),
    onMessage: receive,
    onState: (state, reason) => {
      if (state === "closed") show(reason ? `Disconnected: ${reason}` : "Connection lost: reconnecting…", "error");
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
    const parts = [`Table ${info.table}`, `round ${info.round}`];
    if (info.round > 1) parts.push(info.agreement ? "with your written agreement" : "without a written agreement");
    if (me) parts.push(`you: ${me.name} (seat ${info.you + 1})`);
    $("[data-where]").textContent = parts.join(" · ");
    const card = $("[data-role]");
    card.hidden = !info.role;
    if (info.role) {
      const r = info.role;
      card.querySelector("summary").textContent = `Your role: ${r.title}`;
      card.querySelector(".c-card").innerHTML = `<p>${esc(r.who)}</p><p><b>You want:</b> ${esc(r.wants)}</p>
        <p><b>You may:</b></p><ul>${r.may.map((m) => `<li>${esc(m)}</li>`).join("")}</ul>
        <p><b>Your goal in role:</b> ${esc(r.goal)}</p>`;
    }
    if (info.paused) show("The teacher paused the class.", "warn");
    else if (info.status === "ended") show("The teacher ended this round.", "warn");
    else if (!banner.classList.contains("c-error")) show("");
  }

  function drawLobby(info) {
    lastLobby = info;
    where(info);
    $("[data-lobby-title]").textContent = `Table ${info.table} · ${info.class}`;
    const forStudents = info.seats.filter((s) => !s.bot);
    const taken = forStudents.filter((s) => !s.free).length;
    const note = $("[data-lobby-note]");
    const form = $("[data-join]");
    if (seated) {
      note.textContent = info.note || "Waiting for the game to start…";
      form.hidden = true;
      return;
    }
    if (info.status !== "waiting") {
      note.textContent = "This table's game has started. If you sat here, open the page where you joined (or ask your teacher).";
      form.hidden = true;
      return;
    }
    note.textContent = `${taken} of ${forStudents.length} seats for students taken. Type your name, then take a free seat.`;
    form.hidden = false;
    $("[data-seats]").innerHTML = info.seats.map((s) => s.free
      ? `<button class="e-btn e-primary c-seat" type="button" data-seat="${s.seat}">Take seat ${s.seat + 1}</button>`
      : `<span class="c-seat c-taken">Seat ${s.seat + 1}: ${esc(s.name || "taken")}</span>`).join("");
  }

  $("[data-join]").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-seat]");
    if (!button) return;
    const name = $("[data-name]").value.trim();
    if (!name) { error.textContent = "Type your name first."; return; }
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
