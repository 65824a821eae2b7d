// The teacher's console (anywidget ES module, no build step): every table of the class live,
// and the teacher's commands. The same module draws the console web page (over a websocket,
// see console-page.js) and the notebook widget (energies.server.ConsoleWidget). It reads
// `console` (the class, see energies/server/console.py), `qr` (join codes as SVG), `status`
// (the answer to the last command) and `downloads` (true: offer the downloads), and sends
// {type: "pause" | "resume" | "start" | "end_round" | "next_round" | "seat_to_bot" | "free_seat" |
// "download"}.

const esc = (t) => String(t ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const STATUS = { waiting: "waiting for students", playing: "playing", over: "game over", ended: "ended by you" };

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "energies-console";
  el.appendChild(root);
  let confirming = null; // a command that asks for a second click ("end_round", "next_round:true")
  let dealRoles = true; // the next round deals lesson 07's role cards (seat order)

  function seatRows(t) {
    const rows = t.seats.map((s) => {
      const away = s.student && !s.online;
      const hand = s.student && t.status === "playing" && !String(s.who).startsWith("bot")
        ? `<button class="e-btn k-small" data-command="seat_to_bot" data-table="${t.number}" data-seat="${s.seat}" title="a bot plays this seat until the student comes back">bot</button>`
        : s.student && t.status === "waiting"
          ? `<button class="e-btn k-small" data-command="free_seat" data-table="${t.number}" data-seat="${s.seat}" title="the seat is open again">free</button>` : "";
      const numbers = "lf" in s
        ? `<td>${s.lf}</td><td>${s.fossil} / ${s.renewable}</td><td>${s.vp}</td><td>${s.cards}</td>` : "<td></td><td></td><td></td><td></td>";
      return `<tr data-seat="${s.seat}"><td><span class="k-swatch" style="background:${s.color}"></span><b>${esc(s.name || "—")}</b>
        <small class="k-who ${away ? "k-off" : ""}">${esc(s.who)}</small></td>${numbers}<td>${hand}</td></tr>`;
    }).join("");
    return `<table class="k-seats"><tr><th>seat</th><th title="local footprint">LF</th><th title="fossil / renewable plants">f / r</th><th>VP</th><th>cards</th><th></th></tr>${rows}</table>`;
  }

  function tableCard(t, qr) {
    const game = t.status === "waiting" ? `<div class="k-line">seed ${t.seed} · waiting for its students</div>`
      : `<div class="k-line">seed ${t.seed} · turn ${t.turn} · GF <b>${t.gf}</b> of ${t.gf_max}${t.status === "playing" ? ` · draws ${t.discs}` : ""} · bag ${t.bag} · ${t.moves} moves</div>`;
    const events = (t.events || []).length ? `<div class="k-events">${t.events.map(esc).join("<br>")}</div>` : "";
    const outcome = t.outcome ? `<div class="k-outcome energies-outcome">${esc(t.outcome)}</div>` : "";
    return `<div class="k-table energies-table" data-table="${t.number}" data-status="${t.status}">
      <div class="k-qr" title="${esc(t.link)}">${qr || ""}</div>
      <div class="k-head"><b>Table ${t.number}</b><span class="k-code">${esc(t.code)}</span>
        <span class="k-status">${STATUS[t.status] || t.status}</span></div>
      ${game}<div class="k-link"><a href="${esc(t.link)}" target="_blank" rel="noopener">${esc(t.link)}</a></div>
      ${seatRows(t)}${events}${outcome}</div>`;
  }

  function button(command, label, extra = "") {
    const armed = confirming === command;
    return `<button class="e-btn ${armed ? "e-primary" : ""}" data-command="${command}" ${extra}>${armed ? "Click again: " : ""}${esc(label)}</button>`;
  }

  function draw() {
    const c = model.get("console");
    if (!c) { root.innerHTML = `<p>Connecting to the class…</p>`; return; }
    const qr = model.get("qr") || {};
    const next = c.round + 1;
    const paused = c.paused
      ? button("resume", "Resume all tables") : button("pause", "Pause all tables");
    const downloads = model.get("downloads")
      ? `<button class="e-btn" data-download="games.zip">Download save files (.zip)</button>
         <button class="e-btn" data-download="games.csv">Download the class as one table (.csv)</button>` : "";
    const status = model.get("status") || "";
    const counts = {};
    for (const t of c.tables) counts[t.status] = (counts[t.status] || 0) + 1;
    const summary = Object.entries(counts).map(([k, n]) => `${n} ${STATUS[k] || k}`).join(", ");
    root.innerHTML = `<div class="k-top">
        <span class="k-class">${esc(c.class)}</span>
        <span class="k-state ${c.paused ? "k-paused" : ""}" data-class-state>Round ${c.round}${c.round > 1 ? ` (${c.roles ? "in role, " : ""}${c.agreement ? "with the written agreement" : "without a written agreement"})` : ""} · ${c.paused ? "paused" : "running"} · ${summary}</span>
        ${paused}
        ${button("start", "Start waiting tables (bots fill free seats)")}
        ${button("end_round", "End the round")}
        ${button("next_round:true", `Start round ${next} with the written agreement`)}
        ${button("next_round:false", `Start round ${next} without it`)}
        <label class="k-roles"><input type="checkbox" data-roles ${dealRoles ? "checked" : ""}> role cards in round ${next}</label>
        ${downloads}
        <button class="e-btn" data-print>Print the join codes</button>
      </div>
      <div class="k-note energies-console-status" role="status">${esc(status)}</div>
      <p class="k-join">Students open <b>${esc(c.join)}</b> and type their table's code, or scan its QR code.</p>
      <div class="k-tables">${c.tables.map((t) => tableCard(t, qr[String(t.number)])).join("")}</div>
      <div class="k-sheet">${c.tables.map((t) => `<div><h2>Table ${t.number}: ${esc(t.code)}</h2>${qr[String(t.number)] || ""}<p>${esc(t.link)}</p></div>`).join("")}</div>`;
  }

  function onClick(event) {
    const print = event.target.closest("[data-print]");
    if (print) { window.print(); return; }
    const download = event.target.closest("[data-download]");
    if (download) { model.send({ type: "download", what: download.dataset.download }); return; }
    const b = event.target.closest("[data-command]");
    if (!b) return;
    const command = b.dataset.command;
    if (command === "seat_to_bot" || command === "free_seat") {
      model.send({ type: command, table: Number(b.dataset.table), seat: Number(b.dataset.seat) });
      return;
    }
    if ((command === "end_round" || command.startsWith("next_round")) && confirming !== command) {
      confirming = command; // a second click: these end every game still being played
      draw();
      return;
    }
    confirming = null;
    if (command.startsWith("next_round")) {
      model.send({ type: "next_round", agreement: command.endsWith("true"), roles: dealRoles });
    }
    else model.send({ type: command });
    draw();
  }

  const onChange = (event) => {
    if (event.target.matches("input[data-roles]")) dealRoles = event.target.checked;
  };
  root.addEventListener("click", onClick);
  root.addEventListener("change", onChange);
  model.on("change:console", draw);
  model.on("change:qr", draw);
  model.on("change:status", draw);
  draw();
  return () => {
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onChange);
    model.off("change:console", draw);
    model.off("change:qr", draw);
    model.off("change:status", draw);
  };
}

export default { render };
