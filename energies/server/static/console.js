// The teacher's console (anywidget ES module, no build step): every table of the class live,
// and the teacher's commands. The same module draws the console web page (over a websocket,
// see console-page.js) and the notebook widget (energies.server.ConsoleWidget). It reads
// `console` (the class, see energies/server/console.py), `qr` (join codes as SVG), `status`
// (the answer to the last command) and `downloads` (true: offer the downloads), and sends
// {type: "pause" | "resume" | "start" | "end_round" | "next_round" | "seat_to_bot" | "free_seat" |
// "download"}. Its words come from Python in the console's language (`words`, see
// energies/server/pages.py): this module writes no sentence of its own.

const esc = (t) => String(t ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
const fill = (text, vars) => String(text).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "energies-console";
  el.appendChild(root);
  let confirming = null; // a command that asks for a second click ("end_round", "next_round:true")
  let dealRoles = true; // the next round deals lesson 07's role cards (seat order)
  const W = (key, vars = {}) => fill((model.get("words") || {})[key] ?? key, vars);
  const E = (key, vars = {}) => esc(W(key, vars));
  const status = (s) => ((model.get("words") || {})[`status_${s}`] ? W(`status_${s}`) : s);

  function seatRows(t) {
    const rows = t.seats.map((s) => {
      const away = s.student && !s.online;
      const hand = s.student && t.status === "playing" && !String(s.who).startsWith("bot")
        ? `<button class="e-btn k-small" data-command="seat_to_bot" data-table="${t.number}" data-seat="${s.seat}" title="${E("to_bot_title")}">${E("to_bot")}</button>`
        : s.student && t.status === "waiting"
          ? `<button class="e-btn k-small" data-command="free_seat" data-table="${t.number}" data-seat="${s.seat}" title="${E("free_title")}">${E("free")}</button>` : "";
      const numbers = "lf" in s
        ? `<td>${s.lf}</td><td>${s.fossil} / ${s.renewable}</td><td>${s.vp}</td><td>${s.cards}</td>` : "<td></td><td></td><td></td><td></td>";
      return `<tr data-seat="${s.seat}"><td><span class="k-swatch" style="background:${s.color}"></span><b>${esc(s.name || "—")}</b>
        <small class="k-who ${away ? "k-off" : ""}">${esc(s.who)}</small></td>${numbers}<td>${hand}</td></tr>`;
    }).join("");
    return `<table class="k-seats"><tr><th>${E("col_seat")}</th><th title="${E("col_lf_title")}">${E("col_lf")}</th><th title="${E("col_plants_title")}">${E("col_plants")}</th><th>${E("col_vp")}</th><th>${E("col_cards")}</th><th></th></tr>${rows}</table>`;
  }

  function tableCard(t, qr) {
    const numbers = { seed: t.seed, turn: t.turn, gf: `<b>${t.gf}</b>`, most: t.gf_max, discs: t.discs, bag: t.bag, moves: t.moves };
    const game = t.status === "waiting" ? `<div class="k-line">${E("waiting_line", { seed: t.seed })}</div>`
      : `<div class="k-line">${fill(esc(W(t.status === "playing" ? "game_line_draws" : "game_line")), numbers)}</div>`;
    const events = (t.events || []).length ? `<div class="k-events">${t.events.map(esc).join("<br>")}</div>` : "";
    const outcome = t.outcome ? `<div class="k-outcome energies-outcome">${esc(t.outcome)}</div>` : "";
    return `<div class="k-table energies-table" data-table="${t.number}" data-status="${t.status}">
      <div class="k-qr" title="${esc(t.link)}">${qr || ""}</div>
      <div class="k-head"><b>${E("table_n", { table: t.number })}</b><span class="k-code">${esc(t.code)}</span>
        <span class="k-status">${esc(status(t.status))}</span></div>
      ${game}<div class="k-link"><a href="${esc(t.link)}" target="_blank" rel="noopener">${esc(t.link)}</a></div>
      ${seatRows(t)}${events}${outcome}</div>`;
  }

  function button(command, label, extra = "") {
    const armed = confirming === command;
    return `<button class="e-btn ${armed ? "e-primary" : ""}" data-command="${command}" ${extra}>${armed ? E("click_again", { label }) : esc(label)}</button>`;
  }

  function draw() {
    const c = model.get("console");
    if (!c) { root.innerHTML = `<p>${E("connecting")}</p>`; return; }
    const qr = model.get("qr") || {};
    const next = c.round + 1;
    const paused = c.paused
      ? button("resume", W("resume")) : button("pause", W("pause"));
    const downloads = model.get("downloads")
      ? `<button class="e-btn" data-download="games.zip">${E("download_zip")}</button>
         <button class="e-btn" data-download="games.csv">${E("download_csv")}</button>` : "";
    const said = model.get("status") || "";
    const counts = {};
    for (const t of c.tables) counts[t.status] = (counts[t.status] || 0) + 1;
    const summary = Object.entries(counts).map(([k, n]) => W("count", { status: status(k), n })).join(", ");
    const how = [...(c.roles ? [W("in_role")] : []), c.agreement ? W("with_agreement") : W("without_agreement")];
    const round = W("round_n", { round: c.round }) + (c.round > 1 ? ` (${how.join(", ")})` : "");
    root.innerHTML = `<div class="k-top">
        <span class="k-class">${esc(c.class)}</span>
        <span class="k-state ${c.paused ? "k-paused" : ""}" data-class-state data-paused="${c.paused}">${esc(round)} · ${E(c.paused ? "paused" : "running")} · ${esc(summary)}</span>
        ${paused}
        ${button("start", W("start"))}
        ${button("end_round", W("end_round"))}
        ${button("next_round:true", W("next_with", { round: next }))}
        ${button("next_round:false", W("next_without", { round: next }))}
        <label class="k-roles"><input type="checkbox" data-roles ${dealRoles ? "checked" : ""}> ${E("roles", { round: next })}</label>
        ${downloads}
        <button class="e-btn" data-print>${E("print")}</button>
      </div>
      <div class="k-note energies-console-status" role="status">${esc(said)}</div>
      <p class="k-join">${fill(esc(W("students_open")), { address: `<b>${esc(c.join)}</b>` })}</p>
      <div class="k-tables">${c.tables.map((t) => tableCard(t, qr[String(t.number)])).join("")}</div>
      <div class="k-sheet">${c.tables.map((t) => `<div><h2>${E("sheet_title", { table: t.number, code: t.code })}</h2>${qr[String(t.number)] || ""}<p>${esc(t.link)}</p></div>`).join("")}</div>`;
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
  model.on("change:words", draw);
  draw();
  return () => {
    root.removeEventListener("click", onClick);
    root.removeEventListener("change", onChange);
    model.off("change:console", draw);
    model.off("change:qr", draw);
    model.off("change:status", draw);
    model.off("change:words", draw);
  };
}

export default { render };
