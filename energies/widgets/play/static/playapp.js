// The PlayApp page (anywidget ES module, no build step). Python owns the truth: this module
// draws the SVG board and the controls from the synced `geometry` and `view`, and sends clicks
// back as custom messages. DOM contract (browser checks rely on it): every corner, path and
// land hex is an element with data-corner / data-path / data-hex (engine ids), data-legal="true"
// when the deciding seat may act there now, data-owner="SEAT" when a piece of that seat stands
// there; every control that applies an action carries data-action="KIND" and the class
// energies-action-KIND; a page option that applies no action carries data-option="NAME".

const NS = "http://www.w3.org/2000/svg";
const TERRAIN = {
  forest: "#44BB99", hills: "#EE8866", pasture: "#BBCC33",
  fields: "#EEDD88", mountains: "#9AA6B2", desert: "#E4DCCB",
};
const SEATS = ["#0072B2", "#D55E00", "#CC79A7", "#E69F00"];
const TOWN = [[-15, 12], [15, 12], [15, -5], [0, -18], [-15, -5]];
const CITY = [[-25, 16], [25, 16], [25, -4], [13, -15], [1, -4], [1, -13], [-12, -26], [-25, -13]];
const TABS = ["build", "trade", "energy", "cards", "log", "charts", "file"];

const seatColor = (s) => SEATS[s % SEATS.length];
const esc = (t) => String(t ?? "").replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
const pts = (list, x = 0, y = 0) => list.map(([a, b]) => `${a + x},${b + y}`).join(" ");

// The page's words come from Python in the app's language (view.ui, geometry.ui): every
// visible string is one of them, with {placeholders} filled here.
let UI = {};
const fill = (text, vars, wrap) => text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? wrap(vars[k]) : m));
// plain text (textContent, attributes through esc): the values as they are
const Tt = (key, vars = {}) => fill(String(UI[key] ?? key), vars, (x) => String(x));
// HTML: the words escaped, the values given as HTML (the caller escapes what needs it)
const T = (key, vars = {}) => fill(esc(UI[key] ?? key), vars, (x) => String(x));

// what a spot's hover says: its name (unless the sentence names it already) and the tip
function spotText(name, spot) {
  const tip = spot && spot.tip ? spot.tip : Tt("nothing_here");
  return tip.includes(name) ? tip : `${name}: ${tip}`;
}

function svg(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "energies-app energies-playapp";
  root.innerHTML = `
    <div class="e-boardcol">
      <svg class="energies-board" xmlns="${NS}" role="img" aria-label="${T("island")}"></svg>
      <div class="e-tip energies-tip" aria-live="polite"></div>
      <div class="e-chooser energies-chooser" hidden></div>
    </div>
    <div class="e-side"></div>`;
  el.appendChild(root);
  const board = root.querySelector("svg");
  const side = root.querySelector(".e-side");
  const tip = root.querySelector(".e-tip");
  const chooser = root.querySelector(".e-chooser");
  const spots = new Map(); // "c12" -> element
  let acts = []; // actions of the current drawing, by data-act index
  let shown = null; // the view drawn now (model.get("view") may be newer while a redraw waits)
  // Clicks sent and answered: Python echoes each message's token in `answered` after the
  // redraw it caused, so the "Working…" note (data-busy) lasts until every click is answered.
  const pageId = Math.random().toString(36).slice(2, 10);
  let sent = 0;
  let answered = 0;
  // A redraw replaces the buttons: while a mouse button is down on the app it waits, or the
  // click being made would land on no button (mouse down on the old one, up on the new one).
  let pressed = false;
  let presses = 0; // counts the presses: a release ends only the press it was scheduled for
  let pending = null; // "all" | "side": the redraw waiting for the release
  // The decision a click is made on: the drawing's when the button went down, and for the
  // second click of a double click the one its first click was made on, even when the page
  // was redrawn in between.
  let pressDecision = null;
  let runDecision = null;
  let tab = "build";
  let lastTip = "";

  // -- the island (once per board) --------------------------------------------------------------
  function drawStatic() {
    const g = model.get("geometry");
    if (g && g.ui) UI = { ...UI, ...g.ui };
    board.innerHTML = "";
    spots.clear();
    if (!g || !g.hexes) return;
    board.setAttribute("viewBox", g.box.join(" "));
    const sea = svg("g", { class: "e-sea" }, board);
    svg("rect", { x: g.box[0], y: g.box[1], width: g.box[2], height: g.box[3], rx: 30, fill: "#CFE6F2" }, sea);
    for (const h of g.harbors) {
      for (const p of h.piers) svg("line", { x1: h.xy[0], y1: h.xy[1], x2: p[0], y2: p[1], class: "e-pier" }, sea);
      const label = svg("g", { class: "e-harbor" }, sea);
      const box = svg("rect", { y: h.xy[1] - 16, height: 32, rx: 8,
                    fill: h.resource ? TERRAIN[{lumber: "forest", brick: "hills", fiber: "pasture", food: "fields", steel: "mountains"}[h.resource]] : "#FFFFFF" }, label);
      const t = svg("text", { x: h.xy[0], y: h.xy[1] + 7, class: "e-harbor-text" }, label);
      t.textContent = h.text;
      // as wide as its words (a resource's name is longer in some languages)
      const w = Math.max(h.resource ? 92 : 52, (t.getComputedTextLength ? t.getComputedTextLength() : 0) + 16);
      box.setAttribute("x", h.xy[0] - w / 2);
      box.setAttribute("width", w);
    }
    const hexes = svg("g", { class: "e-hexes" }, board);
    for (const h of g.hexes) {
      const e = svg("g", { class: "e-hex", "data-hex": h.id, "data-spot": "h" + h.id, "data-name": h.name }, hexes);
      svg("polygon", { points: pts(h.points), fill: TERRAIN[h.terrain] || "#fff", class: "e-hexshape" }, e);
      const [cx, cy] = h.center;
      svg("polygon", { points: pts(h.points.map(([a, b]) => [cx + 0.84 * (a - cx), cy + 0.84 * (b - cy)])), class: "e-glow" }, e);
      const [x, y] = h.center;
      const name = svg("text", { x, y: y - 50, class: "e-terrain" }, e);
      name.textContent = h.terrain_name || h.terrain[0].toUpperCase() + h.terrain.slice(1);
      if (h.number !== null) {
        const red = h.number === 6 || h.number === 8;
        svg("circle", { cx: x, cy: y, r: 30, class: "e-token" }, e);
        const n = svg("text", { x, y: y + 9, class: "e-number" + (red ? " e-red" : "") }, e);
        n.textContent = h.number;
        for (let i = 0; i < h.pips; i++) {
          svg("circle", { cx: x + 7 * (i - (h.pips - 1) / 2), cy: y + 19, r: 2.6, class: red ? "e-pip e-red" : "e-pip" }, e);
        }
      }
      svg("title", {}, e);
      spots.set("h" + h.id, e);
    }
    const paths = svg("g", { class: "e-paths" }, board);
    for (const p of g.paths) {
      const e = svg("g", { class: "e-path", "data-path": p.id, "data-spot": "p" + p.id, "data-name": p.name }, paths);
      const [ax, ay] = p.a, [bx, by] = p.b;
      const cut = (t) => [ax + t * (bx - ax), ay + t * (by - ay)];
      const [x1, y1] = cut(0.2), [x2, y2] = cut(0.8);
      svg("line", { x1, y1, x2, y2, class: "e-casing" }, e); // white under a glowing path
      svg("line", { x1, y1, x2, y2, class: "e-hit" }, e);
      svg("line", { x1, y1, x2, y2, class: "e-road" }, e);
      // the click area: a thin rectangle along the path (a line alone has a zero-width box
      // when upright, and a browser or a test would call it invisible)
      const len = Math.hypot(x2 - x1, y2 - y1), nx = (-(y2 - y1) / len) * 13, ny = ((x2 - x1) / len) * 13;
      svg("polygon", { class: "e-hitarea",
        points: pts([[x1 + nx, y1 + ny], [x2 + nx, y2 + ny], [x2 - nx, y2 - ny], [x1 - nx, y1 - ny]]) }, e);
      svg("title", {}, e);
      spots.set("p" + p.id, e);
    }
    const corners = svg("g", { class: "e-corners" }, board);
    for (const c of g.corners) {
      const e = svg("g", { class: "e-corner", "data-corner": c.id, "data-spot": "c" + c.id, "data-name": c.name,
                           transform: `translate(${c.xy[0]},${c.xy[1]})` }, corners);
      svg("circle", { r: 19, class: "e-hit" }, e);
      svg("polygon", { class: "e-building", points: "" }, e);
      svg("title", {}, e);
      spots.set("c" + c.id, e);
    }
    svg("g", { class: "e-marks" }, board);
    // a key to the markers, in the empty sea at the top left
    const key = svg("g", { class: "e-legend", transform: `translate(${g.box[0] + 34},${g.box[1] + 40})` }, board);
    plantMark(key, 0, 0, "fossil", null);
    svg("text", { x: 30, y: 8 }, key).textContent = Tt("legend_fossil");
    plantMark(key, 0, 46, "renewable", null);
    svg("text", { x: 30, y: 54 }, key).textContent = Tt("legend_renewable");
    hazardMark(key, 0, 94, 0.85, "");
    svg("text", { x: 30, y: 100 }, key).textContent = Tt("legend_hazard");
  }

  function plantMark(parent, x, y, kind, seat) {
    const m = svg("g", { class: `e-plant e-${kind}`, transform: `translate(${x},${y})` }, parent);
    svg("circle", { r: 22, fill: seat === null ? "#FFFFFF" : seatColor(seat), class: "e-plant-ring" }, m);
    if (kind === "fossil") {
      svg("rect", { x: -13, y: -12, width: 26, height: 25, class: "e-plant-core" }, m);
      svg("rect", { x: 4, y: -23, width: 8, height: 11, class: "e-chimney" }, m);
    } else {
      svg("circle", { r: 14, class: "e-plant-core" }, m);
      svg("path", { d: "M-7,4 Q0,-14 8,-7 Q5,6 -7,4 Z", class: "e-leaf" }, m);
    }
    return m;
  }

  function hazardMark(parent, x, y, s, cls) {
    const m = svg("g", { class: "e-hazard " + cls, transform: `translate(${x},${y}) scale(${s})` }, parent);
    svg("polygon", { points: "0,-24 21,13 -21,13" }, m);
    svg("text", { y: 10 }, m).textContent = "!";
    return m;
  }

  // -- what changes: pieces, legal spots, hover sentences ----------------------------------------
  function drawPieces(v) {
    const p = v.pieces;
    const changed = new Set(v.changed || []);
    const owners = {};
    for (const [path, seat] of Object.entries(p.roads)) owners["p" + path] = [seat];
    for (const [corner, [seat]] of Object.entries(p.buildings)) owners["c" + corner] = [seat];
    for (const pl of p.plants) (owners["h" + pl.hex] = owners["h" + pl.hex] || []).push(pl.seat);
    for (const [key, e] of spots) {
      const spot = v.spots[key];
      const legal = !!(spot && spot.legal);
      if (legal) e.setAttribute("data-legal", "true"); else e.removeAttribute("data-legal");
      // a glowing spot is reached with Tab and clicked with Enter or Space (keyboard only)
      if (legal) {
        e.setAttribute("tabindex", "0");
        e.setAttribute("role", "button");
        e.setAttribute("aria-label", spotText(e.getAttribute("data-name"), spot));
      } else {
        for (const a of ["tabindex", "role", "aria-label"]) e.removeAttribute(a);
      }
      const own = owners[key];
      if (own && own.length) {
        e.setAttribute("data-owner", own[0]);
        e.setAttribute("data-owners", [...new Set(own)].join(" "));
      } else { e.removeAttribute("data-owner"); e.removeAttribute("data-owners"); }
      e.classList.toggle("energies-changed", changed.has(key));
      const name = e.getAttribute("data-name");
      e.querySelector("title").textContent = spotText(name, spot);
      if (key[0] === "p") {
        const road = e.querySelector(".e-road");
        road.style.stroke = own ? seatColor(own[0]) : "";
        e.classList.toggle("e-built", !!own);
      } else if (key[0] === "c") {
        const b = p.buildings[key.slice(1)];
        const shape = e.querySelector(".e-building");
        shape.setAttribute("points", b ? pts(b[1] === "city" ? CITY : TOWN) : "");
        shape.style.fill = b ? seatColor(b[0]) : "";
        e.classList.toggle("e-built", !!b);
      }
    }
    const marks = board.querySelector(".e-marks");
    if (!marks) return;
    marks.innerHTML = "";
    const g = model.get("geometry");
    for (const pl of p.plants) {
      const m = plantMark(marks, pl.xy[0], pl.xy[1], pl.kind, pl.seat);
      m.setAttribute("data-plant", pl.kind);
      m.setAttribute("data-owner", pl.seat);
      svg("title", {}, m).textContent = `${pl.kind} plant`;
    }
    const hazard = (x, y, s, cls) => hazardMark(marks, x, y, s, cls);
    for (const h of p.hex_hazards) {
      const [x, y] = g.hexes[h].center;
      hazard(x + 58, y, 1.2, "e-hex-hazard");
    }
    for (const b of p.building_hazards) hazard(b.xy[0], b.xy[1], 0.9, "e-building-hazard");
    const [ix, iy] = g.hexes[p.inspector].center;
    const ins = svg("g", { class: "e-inspector", transform: `translate(${ix - 58},${iy})` }, marks);
    svg("path", { d: "M-14,26 L14,26 L8,-6 L-8,-6 Z" }, ins);
    svg("circle", { cy: -16, r: 10 }, ins);
    svg("title", {}, ins).textContent = Tt("inspector");
  }

  // -- controls beside the board ------------------------------------------------------------------
  function act(option, extra = "") {
    const kind = option.kind;
    if (!option.a) {
      return `<span class="e-off"><button class="e-btn energies-action-${kind}" data-action="${kind}" disabled
        title="${esc(option.why)}">${esc(option.label)}${option.price ? ` <small>${esc(option.price)}</small>` : ""}</button>
        <span class="e-why">${esc(option.why)}</span></span>`;
    }
    const i = acts.push(option.a) - 1;
    const tipText = option.price ? Tt("costs", { label: option.label, price: option.price }) : option.label;
    return `<button class="e-btn energies-action-${kind} ${extra}" data-action="${kind}" data-act="${i}"
      title="${esc(tipText)}">${esc(option.label)}${option.price ? ` <small>${esc(option.price)}</small>` : ""}</button>`;
  }

  // rule 12.1: "don't ask me on the bots' turns" (the app passes for the humans) and, while it
  // is on, the way back: be asked at the next bot's roll all the same
  function askToggle(p) {
    return `<label class="e-option energies-option-ask"><input type="checkbox" data-option="ask_on_bot_turns"
      ${p.ask ? "" : "checked"}> ${T("dont_ask")}</label>`;
  }

  function proposalBox(v) {
    const p = v.proposals;
    if (!p) return "";
    let back = "";
    if (!p.ask) {
      back = p.next
        ? `<span class="e-note">${T("asked_at", { partner: esc(p.partner) })}</span>
           <button class="e-btn energies-option-propose" data-option="propose_next" data-value="false">${T("cancel")}</button>`
        : `<button class="e-btn e-primary energies-option-propose" data-option="propose_next" data-value="true">${T("ask_me_at", { partner: esc(p.partner) })}</button>`;
    }
    return `<div class="e-sub">${T("proposals_to_bots")}</div><div class="e-proposals">${askToggle(p)}${back}</div>`;
  }

  // rule 12.1: a human who is not active proposes to the active player at any time of the
  // action phase; Python holds the proposal until the active player's next free decision
  function interjectBox(v) {
    const p = v.interject;
    if (!p) return "";
    const names = p.kind_names || p.kinds;
    const opts = (chosen) => p.kinds.map((k, i) => `<option value="${esc(k)}"${k === chosen ? " selected" : ""}>${esc(names[i])}</option>`).join("");
    const rows = p.seats.map((s) => `<div class="e-offer energies-interject" data-seat="${s.seat}">
      ${p.seats.length > 1 ? `<b>${esc(s.name)}:</b>` : ""}
      <label>${T("give")} <select data-ipick="give">${opts(p.kinds[0])}</select></label>
      <label>${T("for")} <select data-ipick="get">${opts(p.kinds[1])}</select></label>
      <button class="e-btn energies-propose" data-propose="${s.seat}">${T("propose_to", { partner: esc(p.partner) })}</button>
      ${s.held ? `<span class="e-note energies-held">${T("held", { held: esc(s.held), partner: esc(p.partner) })}</span>
        <button class="e-btn energies-propose-cancel" data-propose-cancel="${s.seat}">${T("cancel")}</button>` : ""}
      ${s.note ? `<span class="e-note energies-proposal-note">${esc(s.note)}</span>` : ""}</div>`).join("");
    return `<div class="e-sub">${T("propose_any_time", { partner: esc(p.partner) })}</div>${rows}`;
  }

  // the log's turn headers and events get their own look (the prefixes in the app's language)
  function logClass(l) {
    if (l.startsWith("—")) return "e-logturn";
    return UI.event_prefix && l.startsWith(UI.event_prefix) ? "e-logevent" : "";
  }

  function tabBody(v) {
    if (!v.human) {
      if (v.over) return "";
      return `<p class="e-note">${T("waiting_for_bots")}</p>${tab === "trade" ? interjectBox(v) + proposalBox(v) : ""}`;
    }
    if (v.decision) return `<p class="e-note">${T("decide_first")}</p>`;
    if (tab === "build") {
      return `${v.build_note ? `<p class="e-why">${esc(v.build_note)}</p>` : ""}<table class="e-build">${(v.build || []).map((r) => `<tr class="${r.why ? "e-no" : "e-yes"}">
        <th>${esc(r.title)} <small>${esc(r.price)}</small></th>
        <td>${r.why ? `<span class="e-why">${esc(r.why)}</span>` : esc(r.text)}</td></tr>`).join("")}</table>`;
    }
    if (tab === "trade") {
      const rows = (v.supply || []).map((r) => `<div class="e-trade-row"><b>${esc(r.rate)}</b>
        <span class="e-give">${T("give_n", { n: r.rate.split(":")[0], kind: esc(r.give_name || r.give) })} <small>${T("you_have", { have: r.have })}</small>, ${T("get_one")}</span>
        ${r.options ? r.options.map((o) => act(o)).join("") : `<span class="e-why">${esc(r.why)}</span>`}</div>`).join("");
      const offers = v.offers || { options: [] };
      const offerHtml = offers.options.length
        ? pickerHtml(offers.options, "offer_trade", Tt("offer"))
        : `<div class="e-offer"><span class="e-why">${esc(offers.why || "")}</span></div>`;
      const answer = v.offer_answer ? `<div class="e-answer energies-offer-answer">${esc(v.offer_answer)}</div>` : "";
      const ask = v.ask ? `<div class="e-list energies-ask">${act(v.ask)}</div>` : "";
      return `<div class="e-sub">${T("with_supply")}</div>${rows}<div class="e-sub">${T("offer_one_for_one")}</div>${offerHtml}${answer}${ask}${interjectBox(v)}${proposalBox(v)}`;
    }
    if (tab === "energy") return `<div class="e-list">${(v.energy || []).map((o) => act(o)).join("")}</div>`;
    if (tab === "cards") return `<div class="e-list">${(v.cards || []).map((o) => act(o)).join("")}</div>`;
    return "";
  }

  function otherTab(v) {
    if (tab === "log") {
      return `<div class="e-log energies-log">${v.log.map((l) => `<div class="${logClass(l)}">${esc(l)}</div>`).join("")}</div>`;
    }
    if (tab === "charts") {
      const c = model.get("chart"), r = model.get("risk");
      return `<div class="e-charts">${c ? `<img class="energies-chart" alt="${T("footprint_chart")}" src="${c}">` : `<p class='e-note'>${T("drawing_charts")}</p>`}
        ${r ? `<img class="energies-risk" alt="${T("risk_meter")}" src="${r}">` : ""}</div>`;
    }
    if (tab === "file") {
      return `<div class="e-file"><div>${T("files_stay", { folder: `<code>${esc(v.file.folder)}</code>` })}${v.file.autosave
          ? " " + T("saved_every_move", { file: `<b>${esc(v.file.autosave)}</b>` }) : ""}</div>
        <input class="e-filename" type="text" placeholder="${esc(v.file.autosave || v.file.default)}" aria-label="${T("file_name")}">
        <button class="e-btn energies-save" data-control="save">${T("save")}</button>
        <button class="e-btn energies-load" data-control="load">${T("load")}</button>
        <label class="e-upload">${T("upload")} <input type="file" accept=".json" data-control="upload"></label></div>
        ${fileNote(v)}`;
    }
    return null;
  }

  // what became of the last save (or the autosave), where the student who saves looks
  function fileNote(v) {
    const f = v.file;
    if (!f.note) return "";
    return `<div class="e-filenote energies-filenote e-${esc(f.kind)}">${f.kind === "error" ? "⚠ " : ""}${esc(f.note)}</div>`;
  }

  // hot-seat: the hand stays hidden until the player named takes the screen
  function passScreen(v) {
    const p = v.pass_to;
    return `<div class="e-pass energies-pass" style="border-color:${p.color}">
      <div class="e-pass-title">${T("pass_laptop", { name: esc(p.name) })}</div>
      <p>${T("hand_hidden", { name: esc(p.name) })}</p>
      <button class="e-btn e-primary energies-reveal" data-control="reveal">${T("i_am", { name: esc(p.name) })}</button></div>`;
  }

  function drawSide() {
    const v = shown;
    if (!v || !v.pieces) return;
    if (v.ui) UI = { ...UI, ...v.ui };
    acts = [];
    const status = v.status || { text: "", kind: "info" };
    const scores = `<table class="e-scores energies-scores"><tr><th>${T("col_seat")}</th><th>${T("col_vp")}</th><th>${T("col_lf")}</th><th title="${T("col_plants_title")}">${T("col_plants")}</th><th>${T("col_cards")}</th><th>${T("col_energy")}</th><th>${T("col_dev")}</th></tr>
      ${v.scores.map((s) => `<tr data-seat="${s.seat}" class="${s.deciding ? "e-deciding" : ""}"><td><span class="e-swatch" style="background:${s.color}"></span><b>${esc(s.name)}</b>${s.active ? " ▶" : ""}
      <small>${s.who_color ? `<span class="e-persona" style="color:${esc(s.who_color)}">●</span> ` : ""}${esc(s.who)}</small></td><td class="vp"><b>${s.vp}</b></td><td class="lf">${s.lf}</td><td>${s.fossil} / ${s.renewable}</td><td>${s.cards}</td><td>${s.energy}</td><td>${s.dev}</td></tr>`).join("")}</table>
      <div class="e-gf energies-gf">${esc(v.gf)}</div>
      ${v.bag_line ? `<div class="e-bagline energies-bagline">${esc(v.bag_line)}</div>` : ""}`;
    const turn = (v.turn || []).map((o) => act(o, o.kind === "roll_dice" ? "e-primary" : "e-end")).join("");
    const c = v.controls;
    const botRow = `<button class="e-btn e-bots energies-bots" data-control="bots" ${c.bots ? "" : "disabled"}>${T("bots")}</button>
      <button class="e-btn energies-step" data-control="step" ${c.step ? "" : "disabled"}>${T("step")}</button>
      <button class="e-btn energies-undo" data-control="undo" ${c.undo ? "" : "disabled"}>${T("undo")}</button>`;
    const decision = v.decision ? `<div class="e-decision energies-decision"><div class="e-decision-title">${esc(v.decision.title)}</div>
      ${v.decision.picker ? pickerHtml(v.decision.picker, v.decision.picker[0].kind, Tt("propose")) : ""}
      <div class="e-list">${v.decision.options.map((o) => act(o, "e-warn")).join("")}</div>
      ${v.decision.options.length > 6 ? `<div class="e-note e-more">${T(Object.keys(v.spots || {}).some((k) => v.spots[k].legal) ? "choices_or_board" : "choices", { n: v.decision.options.length })}</div>` : ""}
      ${v.decision.picker && v.proposals ? askToggle(v.proposals) : ""}</div>` : "";
    const strip = v.strip && (v.strip.lines.length || v.strip.hand_change) ? `<div class="e-strip energies-strip"><div class="e-strip-title"><b>${T("what_happened")}</b>${v.strip.more ? ` <small>${esc(v.strip.more_text || "")}</small>` : ""}</div>
      ${v.strip.lines.map((l) => `<div class="${logClass(l)}">${esc(l)}</div>`).join("")}
      ${v.strip.hand_change ? `<div class="e-handchange">${esc(v.strip.hand_change)}</div>` : ""}</div>` : "";
    const h = v.hand;
    const hand = !h ? "" : `<div class="e-hand energies-hand" data-seat="${h.seat}"><b>${esc(h.title)}:</b>
      ${h.cards.map(([k, n, label]) => `<span class="e-card e-card-${k}">${esc(label ?? k)} <b>${n}</b></span>`).join("")}
      <span class="e-card e-card-energy">${T("energy")} <b>${h.energy}</b>/${h.cap}</span>
      ${h.dev ? `<span class="e-dev">${T("dev", { dev: esc(h.dev) })}</span>` : ""}${h.warehouse ? " · " + T("warehouse") : ""}
      ${h.warn ? `<span class="e-why">${esc(h.warn)}</span>` : ""}</div>`;
    let body;
    if (v.pass_to && !["log", "charts", "file"].includes(tab)) { // nothing private there
      body = passScreen(v);
    } else if (v.over && !["log", "charts", "file"].includes(tab)) {
      const o = v.over_panel;
      const chart = model.get("chart");
      const save = `<div class="e-file energies-oversave"><button class="e-btn e-primary energies-save" data-control="save">${T("save_this_game")}</button>
        <input class="e-filename" type="text" placeholder="${esc(v.file.autosave || v.file.default)}" aria-label="${T("file_name")}"></div>${fileNote(v)}`;
      body = `<div class="e-over energies-gameover"><div class="e-outcome">${esc(o.outcome)}</div>${save}
        <div class="e-sub">${T("who_polluted")}</div>
        <table class="e-burden energies-burden">${o.burden.map((r) => `<tr><td><span class="e-swatch" style="background:${r.color}"></span>${esc(r.name)}</td>
          <td>${T("polluted")} <span class="e-bar" style="width:${r.caused}px;background:#6B4226"></span> ${r.caused}%</td>
          <td>${T("paid")} <span class="e-bar" style="width:${r.paid}px;background:#B00020"></span> ${r.paid}%</td></tr>`).join("")}</table>
        ${chart ? `<img class="energies-chart" alt="${T("footprint_chart")}" src="${chart}">` : ""}</div>`;
    } else {
      body = otherTab(v) ?? tabBody(v);
    }
    const tabs = `<div class="e-tabs" role="tablist">${TABS.map((k) => `<button class="e-tab ${k === tab ? "e-on" : ""}" data-tab="${k}">${T("tab_" + k)}</button>`).join("")}</div>`;
    const kept = keepInputs();
    side.innerHTML = `
      <div class="energies-prompt" style="border-left-color:${v.color}">${esc(v.prompt)}</div>
      <div class="e-turnline">${esc(v.turn_line)}</div>
      <div class="energies-status e-${status.kind}">${status.kind === "error" ? "⚠ " : ""}${esc(status.text)}</div>
      ${v.progress ? `<div class="e-progress energies-progress">${esc(v.progress)}</div>` : ""}
      ${decision}
      <div class="e-row">${turn}${botRow}</div>
      ${v.over || tab === "charts" ? "" : strip + hand /* the charts get the room while they are open */}
      ${tabs}<div class="e-panel">${body}</div>
      ${scores}`;
    restoreInputs(kept);
    root.setAttribute("data-rev", v.rev); // each redraw from Python
    root.setAttribute("data-decision", v.decision_no); // changes with the game only
    showBusy();
    for (const box of side.querySelectorAll(".e-log, .e-strip")) box.scrollTop = box.scrollHeight;
    wirePickers(v);
  }

  // one card for one: pickers for the partner (when there is a choice), the card given and the
  // card asked; the button applies the matching option (an offer, or a proposal, rule 12.1)
  // A redraw from Python (a bot's move, a chart, a save) must not wipe what the user is typing
  // or choosing: the file name and the offer pickers keep their value, focus and caret.
  function inputKey(el) {
    if (el.dataset.ipick) return `interject:${el.closest(".energies-interject").dataset.seat}:${el.dataset.ipick}`;
    const picker = el.closest("[data-picker]");
    return picker ? `${picker.dataset.picker}:${el.dataset.pick}` : el.className;
  }

  function keepInputs() {
    const focused = side.getRootNode().activeElement;
    return [...side.querySelectorAll('input[type="text"], select[data-pick], select[data-ipick]')].map((el) => ({
      key: inputKey(el), value: el.value, focus: el === focused,
      start: el.selectionStart ?? null, end: el.selectionEnd ?? null,
    }));
  }

  function restoreInputs(kept) {
    const fresh = new Map([...side.querySelectorAll('input[type="text"], select[data-pick], select[data-ipick]')]
      .map((el) => [inputKey(el), el]));
    for (const k of kept) {
      const el = fresh.get(k.key);
      if (!el) continue;
      if (el.tagName === "SELECT" && ![...el.options].some((o) => o.value === k.value)) continue;
      el.value = k.value;
      if (k.focus) {
        el.focus();
        if (k.start !== null && el.setSelectionRange) el.setSelectionRange(k.start, k.end);
      }
    }
  }

  function pickerHtml(options, kind, label) {
    const uniq = (k) => [...new Set(options.map((o) => o[k]))];
    const sel = (k, text) => `<label>${text} <select data-pick="${k}">${uniq(k).map((x) => `<option>${esc(x)}</option>`).join("")}</select></label>`;
    const partner = uniq("partner").length > 1 ? sel("partner", T("to")) : T("to_partner", { partner: `<b>${esc(options[0].partner)}</b>` });
    return `<div class="e-offer" data-picker="${kind}">${partner} ${sel("give", T("give"))} ${sel("get", T("for"))}
      <button class="e-btn energies-action-${kind}" data-action="${kind}" data-pick-go>${esc(label)}</button>
      <span class="e-why e-offer-why"></span></div>`;
  }

  function wirePickers(v) {
    for (const box of side.querySelectorAll("[data-picker]")) {
      const kind = box.dataset.picker;
      const options = kind === "offer_trade" ? v.offers.options : v.decision.picker;
      const go = box.querySelector("[data-pick-go]");
      const pick = () => {
        const want = {};
        box.querySelectorAll("select[data-pick]").forEach((s) => (want[s.dataset.pick] = s.value));
        const o = options.find((x) => (!want.partner || x.partner === want.partner)
                                       && x.give === want.give && x.get === want.get);
        const why = box.querySelector(".e-offer-why");
        if (o) {
          go.disabled = false;
          go.dataset.act = acts.push(o.a) - 1;
          go.title = o.label;
          why.textContent = "";
        } else {
          go.disabled = true;
          delete go.dataset.act;
          why.textContent = Tt("not_possible_pick");
        }
      };
      box.querySelectorAll("select[data-pick]").forEach((s) => s.addEventListener("change", pick));
      pick();
    }
  }

  // -- clicks -------------------------------------------------------------------------------------
  const busyText = (waiting) => "⏳ " + Tt("working") + (waiting > 1 ? " " + Tt("clicks_waiting", { n: waiting }) : "");

  // The page's own state, for people and tests: data-sent / data-answered count the clicks,
  // data-busy is how many are not answered yet; the note is drawn over the status line, never
  // in the flow (a note that pushed the controls down would put the second click of a double
  // click on another button).
  function showBusy() {
    const waiting = sent - answered;
    root.classList.toggle("e-waiting", waiting > 0);
    root.setAttribute("data-sent", sent);
    root.setAttribute("data-answered", answered);
    root.setAttribute("data-busy", waiting);
    const status = side.querySelector(".energies-status");
    if (!status) return;
    let note = status.querySelector(".energies-busy");
    if (waiting > 0) {
      if (!note) {
        note = document.createElement("span");
        note.className = "e-busy energies-busy";
        status.appendChild(note);
      }
      note.textContent = busyText(waiting);
    } else if (note) note.remove();
  }

  function send(msg) {
    sent += 1;
    model.send({ ...msg, click: `${pageId}:${sent}` });
    showBusy();
  }

  function onAnswered() {
    const [page, number] = String(model.get("answered") || "").split(":");
    if (page !== pageId) return; // another view of the same app (a second tab or output)
    answered = Math.min(sent, Math.max(answered, Number(number) || 0));
    if (!pending) showBusy(); // else the redraw that waits for the release shows it
  }

  // the decision a click is made on: the drawing's when the button went down, or for the
  // second click of a double click (event.detail 2, 3, …) the one its first click acted on
  function decisionOf(event) {
    if (!(event && event.detail > 1 && runDecision !== null)) {
      runDecision = pressDecision ?? shown.decision_no;
    }
    return runDecision;
  }

  function sendAction(a, event) {
    chooser.hidden = true;
    send({ type: "act", action: a, decision_no: decisionOf(event) });
  }

  function openChooser(key, spot, event) {
    const e = spots.get(key);
    const box = root.querySelector(".e-boardcol").getBoundingClientRect();
    const start = acts.length;
    chooser.innerHTML = `<div class="e-chooser-title">${T("choose_at", { name: esc(e.getAttribute("data-name")) })}</div>` +
      spot.options.map((o, i) => {
        acts.push(o.a);
        return `<button class="e-btn energies-action-${o.kind}" data-action="${o.kind}" data-act="${start + i}" title="${esc(o.label)}">${esc(o.short || o.label)}${o.price ? ` <small>${esc(o.price)}</small>` : ""}</button>`;
      }).join("") + `<button class="e-btn e-cancel" data-control="cancel">${T("cancel")}</button>`;
    chooser.hidden = false;
    const x = Math.min(Math.max(0, event.clientX - box.left - 20), box.width - chooser.offsetWidth - 4);
    const y = Math.min(Math.max(0, event.clientY - box.top + 14), box.height - chooser.offsetHeight - 4);
    chooser.style.left = x + "px";
    chooser.style.top = y + "px";
  }

  function onClick(event) {
    // a new run of clicks: a double click whose first click did nothing is one click
    if (!(event.detail > 1)) runDecision = null;
    const target = event.target;
    const tabBtn = target.closest("[data-tab]");
    if (tabBtn) {
      const was = tab;
      tab = tabBtn.dataset.tab;
      drawSide();
      if ((tab === "charts") !== (was === "charts")) send({ type: "charts", open: tab === "charts" });
      return;
    }
    const option = target.closest("button[data-option]");
    if (option) {
      send({ type: "option", name: option.dataset.option, value: option.dataset.value === "true" });
      return;
    }
    const control = target.closest("[data-control]");
    if (control && !control.disabled) {
      const what = control.dataset.control;
      if (what === "cancel") { chooser.hidden = true; return; }
      if (what === "upload") return;
      if (what === "save" || what === "load") {
        // an empty name: Python's answer in the status line ("type a file name first"), not
        // a note under the board, far from the button
        send({ type: what, name: side.querySelector(".e-filename").value.trim() });
        return;
      }
      send({ type: what, decision_no: decisionOf(event) }); // bots, step, undo
      return;
    }
    const propose = target.closest("button[data-propose]");
    if (propose) {
      const row = propose.closest(".energies-interject");
      const pick = (k) => row.querySelector(`select[data-ipick="${k}"]`).value;
      send({ type: "propose", seat: Number(propose.dataset.propose), give: pick("give"), get: pick("get") });
      return;
    }
    const withdraw = target.closest("button[data-propose-cancel]");
    if (withdraw) {
      send({ type: "propose", seat: Number(withdraw.dataset.proposeCancel), cancel: true });
      return;
    }
    const button = target.closest("[data-act]");
    if (button && !button.disabled) {
      sendAction(acts[Number(button.dataset.act)], event);
      return;
    }
    const spotEl = target.closest("[data-spot]");
    if (spotEl) clickSpot(spotEl, event);
  }

  function clickSpot(spotEl, event) {
    const key = spotEl.dataset.spot;
    const spot = (shown.spots || {})[key];
    if (!spot || !spot.legal) {
      chooser.hidden = true;
      tip.textContent = spotText(spotEl.getAttribute("data-name"), spot);
      tip.classList.add("e-flash");
      setTimeout(() => tip.classList.remove("e-flash"), 600);
      return;
    }
    if (spot.options.length === 1) sendAction(spot.options[0].a, event);
    else openChooser(key, spot, event);
  }

  function onKey(event) {
    if (event.key === "Escape" && !chooser.hidden) { chooser.hidden = true; return; }
    if (event.key !== "Enter" && event.key !== " ") return;
    const spotEl = event.target.closest && event.target.closest("[data-spot]");
    if (!spotEl || !board.contains(spotEl)) return;
    event.preventDefault(); // Space would scroll the page
    const r = spotEl.getBoundingClientRect();
    clickSpot(spotEl, { clientX: r.x + r.width / 2, clientY: r.y + r.height / 2 });
    if (!chooser.hidden) chooser.querySelector("button").focus();
  }

  let hovered = null; // the spot under the mouse: its sentence is redrawn with the page
  const hint = () => Tt("hint");
  function showTip() {
    let text = hint();
    if (hovered && hovered.isConnected) {
      const spot = (shown.spots || {})[hovered.dataset.spot];
      text = spotText(hovered.getAttribute("data-name"), spot);
    }
    if (text !== lastTip) tip.textContent = lastTip = text;
  }

  function onHover(event) {
    hovered = event.target.closest("[data-spot]");
    showTip();
  }

  function onChange(event) {
    const input = event.target;
    if (input.matches('input[type="checkbox"][data-option]')) { // checked: "don't ask me"
      send({ type: "option", name: input.dataset.option, value: !input.checked });
      return;
    }
    if (!input.matches('input[type="file"]') || !input.files.length) return;
    const file = input.files[0];
    file.text().then((text) => send({ type: "upload", name: file.name, text }));
    input.value = "";
  }

  root.addEventListener("click", onClick);
  root.addEventListener("pointerdown", () => {
    presses += 1;
    pressed = true;
    pressDecision = shown ? shown.decision_no : null;
  });
  // draw what waited once the click of this release has been handled (the browser sends the
  // click in the same task as the pointerup, so a zero timeout runs after it), or at once
  // when no click follows (the pointer released off the button). On a busy page the next
  // press (the second click of a double click) can come before that timeout: then the
  // timeout ends nothing, and the next release draws.
  const releaseSoon = () => {
    if (!pressed) return;
    const press = presses;
    setTimeout(() => { if (press === presses) release(); }, 0);
  };
  window.addEventListener("pointerup", releaseSoon);
  window.addEventListener("pointercancel", releaseSoon);
  window.addEventListener("blur", releaseSoon);
  board.addEventListener("mouseover", onHover);
  board.addEventListener("focusin", onHover); // Tab to a spot: the line under the board says what Enter does
  root.addEventListener("keydown", onKey);
  board.addEventListener("mouseleave", () => { hovered = null; showTip(); });
  root.addEventListener("change", onChange);

  // data-held: a redraw from Python waits for the mouse button to be released
  const hold = (what) => { pending = what; root.setAttribute("data-held", "true"); };
  const redraw = () => {
    if (pressed) { hold("all"); return; }
    chooser.hidden = true;
    shown = model.get("view");
    if (shown && shown.pieces) drawPieces(shown);
    drawSide();
    showTip(); // never a stale sentence: the hovered spot's, as it is now
  };
  const redrawSide = () => {
    if (pressed) { hold(pending || "side"); return; }
    drawSide();
  };
  function release() {
    pressed = false;
    pressDecision = null;
    const what = pending;
    pending = null;
    root.removeAttribute("data-held");
    if (what === "all") redraw();
    else if (what === "side") drawSide();
  }
  const restart = () => {
    pressed = false;
    pending = null;
    pressDecision = null;
    root.removeAttribute("data-held");
    drawStatic();
    redraw();
  };
  model.on("change:geometry", restart);
  model.on("change:view", redraw);
  model.on("change:chart", redrawSide);
  model.on("change:risk", redrawSide);
  model.on("change:answered", onAnswered);
  restart();
  return () => {
    model.off("change:geometry", restart);
    model.off("change:view", redraw);
    model.off("change:chart", redrawSide);
    model.off("change:risk", redrawSide);
    model.off("change:answered", onAnswered);
    window.removeEventListener("pointerup", releaseSoon);
    window.removeEventListener("pointercancel", releaseSoon);
    window.removeEventListener("blur", releaseSoon);
  };
}

export default { render };
