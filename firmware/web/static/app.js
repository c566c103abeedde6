// The table's web view: shared helpers (no library, nothing fetched from outside).
"use strict";

const SUITS = { m: "万", p: "筒", s: "条" };
const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = ["", "东", "南", "西", "北", "白", "发", "中"];
const FLOWERS = ["", "春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];

function tileName(code) {
  if (!code) return "?";
  const n = Number(code[0]), kind = code[1];
  if (SUITS[kind]) return NUMERALS[n] + SUITS[kind];
  if (kind === "z") return HONOURS[n] || code;
  if (kind === "f") return FLOWERS[n] || code;
  return code;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function tileSpan(code) { return h("span", { class: "tile", title: code }, tileName(code)); }
function signed(n) { return (n > 0 ? "+" : "") + n; }
function scoreCell(n) { return h("td", { class: "num " + (n > 0 ? "pos" : n < 0 ? "neg" : "") }, n == null ? "—" : signed(n)); }   // none yet: a dash
function when(t) { return t ? new Date(t * 1000).toLocaleString("zh-CN", { hour12: false }) : "—"; }
function duration(s) {
  s = Math.round(s || 0);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  return `${hh}:${String(mm).padStart(2, "0")}:${String(ss).padStart(2, "0")}`;
}
function seatName(seat) { return seat === null || seat === undefined ? "—" : "座位" + seat; }

async function api(path, options = {}) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

function param(name) { return new URLSearchParams(location.search).get(name); }

document.addEventListener("DOMContentLoaded", () => {
  for (const a of document.querySelectorAll("header nav a")) if (a.dataset.page === document.body.dataset.nav) a.classList.add("here");
});

// The live state over the WebSocket (JSON-RPC 2.0): subscribe, get the whole state, then only
// what changed.  A dropped or broken connection comes back and subscribes again (a full state).
class Live {
  constructor(objects, onState, onEvent) {
    this.objects = objects; this.onState = onState; this.onEvent = onEvent || (() => {});
    this.state = {}; this.nextId = 1; this.connect();
  }
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/websocket`);
    this.ws = ws;
    ws.onopen = () => {
      setLink(true);
      const objects = Object.fromEntries(this.objects.map((name) => [name, null]));
      ws.send(JSON.stringify({ jsonrpc: "2.0", method: "table.objects.subscribe", params: { objects }, id: this.nextId++ }));
    };
    ws.onmessage = (message) => {
      const data = JSON.parse(message.data);
      if (data.result && data.result.status) { this.state = data.result.status; this.onState(this.state); }
      else if (data.method === "notify_status_update") {
        for (const [name, changes] of Object.entries(data.params[0])) this.state[name] = { ...(this.state[name] || {}), ...changes };
        this.onState(this.state);
      } else if (data.method === "notify_table_event") this.onEvent(data.params[0]);
      else if (data.method === "notify_history_changed") this.onEvent({ event: "history_changed", ...data.params[0] });
    };
    ws.onclose = () => { setLink(false); setTimeout(() => this.connect(), 1000); };
  }
}

function setLink(up) {
  const badge = document.getElementById("link");
  if (!badge) return;
  badge.textContent = up ? "实时 live" : "重连中 reconnecting";
  badge.className = up ? "up" : "down";
}

// The Nextion screen: the page showing, its components in the layout's order (display_layout.py).
// With `onTouch` (the simulator's page) its buttons can be touched: onTouch(page, button).
const BUTTON_LABELS = { b_menu: "菜单", b_ack: "确认", b_ok: "确定", b_back: "返回", b_prev: "◀", b_next: "▶", b_page: "翻页" };
function renderScreen(node, display, onTouch) {
  if (!display || !display.layout) return;
  const page = display.page || "main";
  const values = (display.pages || {})[page] || {};
  node.className = "screen " + page;
  node.replaceChildren(
    ...display.layout[page].map(([name, kind]) => {
      const attrs = { class: `c ${name} ${kind}`, style: `grid-area:${name}`, "data-component": name };
      if (kind !== "button") return h("div", attrs, values[name] ?? "");
      const label = BUTTON_LABELS[name] || (name.startsWith("b_opt") ? "更改" : name);
      if (!onTouch) return h("div", attrs, label);
      return h("button", { ...attrs, type: "button", onclick: () => onTouch(page, name) }, label);
    }),
    h("div", { class: "pagename" }, page));
}

function renderSeatDisplays(node, seats, label) {
  node.replaceChildren(...seats.map((lines, seat) => h("div", { class: "seatbox", "data-seat": seat },
    h("div", { class: "who" }, `${label || "座位"} ${seat}`),
    h("div", {}, lines[0] || "\u00a0"),
    lines[1] === null ? h("div", { class: "private" }, "（私密 private）") : h("div", {}, lines[1] || "\u00a0"))));
}

function renderFaults(node, faults) {
  if (!faults || !faults.latched || !faults.latched.length) { node.replaceChildren(h("p", { class: "muted" }, "无故障 no fault latched")); return; }
  node.replaceChildren(...faults.latched.map((f) => h("div", { class: "fault", "data-code": f.code },
    h("b", {}, `${f.code} ${f.name_zh}`), " — ", f.todo_zh,
    h("div", { class: "muted" }, `${f.name_en}: ${f.message} · ${f.source} · ${when(f.since)}`))));
}

function eventLine(e) {
  const bits = [`#${e.hand}`, e.event];
  if (e.event === "take") bits.push(`${e.reason} ring ${e.ring} · live ${e.live}`);
  else if (e.event === "put_back") bits.push(`放回 ring ${e.ring} · live ${e.live}`);
  else if (e.event === "indicator") bits.push(`${e.name} ${e.tile ? e.tile.map(tileName).join(" ") : "(私密)"}`);
  else if (e.event === "win") bits.push(`${seatName(e.seat)} ${(e.items || []).map((i) => i.name).join(" ")}`);
  else if (e.event === "false_win") bits.push(`${seatName(e.seat)} 诈胡 ${e.withheld ? "(理由局后公布 said at the hand's end)" : (e.failures || []).join("; ")}`);
  else if (e.event === "hand_end") bits.push(`${e.result} ${e.payments.map(signed).join(" ")}`,
    ...(e.false_wins || []).map((f) => `· ${seatName(f.seat)} 诈胡: ${f.failures.join("; ")}`));
  else if (e.event === "fault") bits.push(`${e.code} ${e.message}`);
  else if (e.event === "ready") bits.push(seatName(e.seat) + " 听");
  return bits.join(" ");
}
