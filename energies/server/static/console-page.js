// The console web page: the teacher's key (from #key=... or typed), the console's websocket,
// and the downloads (fetched with the key, saved by the browser). console.js draws.

import consoleView from "./console.js";
import { SocketModel, connect } from "./transport.js";

const $ = (selector) => document.querySelector(selector);
// the console's words, in the page's language (energies/server/pages.py)
const WORDS = JSON.parse(document.getElementById("energies-words")?.textContent || "{}");
const W = (key, vars = {}) => String(WORDS[key] ?? key).replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
const LANG = document.documentElement.lang || "en";
const STORE = "energies-teacher-key";
const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("key");
if (fromHash) {
  window.sessionStorage.setItem(STORE, fromHash);
  history.replaceState(null, "", window.location.pathname); // the key leaves the address bar
}
let key = window.sessionStorage.getItem(STORE) || "";
let drawn = false;
let link = null;
const banner = $("[data-banner]");

function show(text, kind = "info") {
  banner.hidden = !text;
  banner.textContent = text;
  banner.className = `c-banner c-${kind}`;
}

async function download(what) {
  model.set("status", W("preparing", { what }));
  try {
    const answer = await fetch(`console/${what}`, { headers: { Authorization: `Bearer ${key}` } });
    if (!answer.ok) throw new Error(W("answered", { status: answer.status }));
    const blob = await answer.blob();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = (answer.headers.get("content-disposition") || "").split('filename="')[1]?.replace('"', "") || what;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10000);
    model.set("status", W("downloaded", { file: a.download }));
  } catch (error) {
    model.set("status", W("download_failed", { problem: error.message }));
  }
}

const model = new SocketModel((content) => {
  if (content.type === "download") download(content.what);
  else link.send(content);
});
model.set("downloads", true);
model.set("words", WORDS);

function open() {
  $("[data-key-form]").hidden = true;
  link = connect(`ws/console?lang=${encodeURIComponent(LANG)}`, {
    onOpen: () => link.send({ type: "hello", key }),
    onState: (state, reason) => show(state === "closed" ? (reason || W("reconnecting")) : "", "error"),
    onMessage: (message) => {
      if (message.type === "set") {
        model.apply(message.changes);
        if (!drawn) { consoleView.render({ model, el: $("[data-console]") }); drawn = true; }
      } else if (message.type === "ack") {
        if (message.of === "hello" && !message.ok) {
          window.sessionStorage.removeItem(STORE);
          link.stop();
          $("[data-key-form]").hidden = false;
          $("[data-error]").textContent = message.reason;
        } else if (message.of !== "hello") {
          model.set("status", message.ok ? W("done") : message.reason);
        }
      } else if (message.type === "error") {
        model.set("status", message.reason);
      }
    },
  });
}

$("[data-key-form]").addEventListener("submit", (event) => {
  event.preventDefault();
  key = $("[data-key]").value.trim();
  window.sessionStorage.setItem(STORE, key);
  open();
});

if (key) open();
else $("[data-key-form]").hidden = false;
