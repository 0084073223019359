// The table page: one WebSocket, the view the server made for this seat, and only legal actions as
// buttons.  The token is in the link's #fragment, so it never reaches a server log or a Referer.
import { card, el, LANG, langSwitch, loadWords, suitLabel, t } from "./common.js";
import { checkDeals } from "./fair.js";

await loadWords();
const token = location.hash.slice(1);
const root = document.getElementById("table");
const top = document.getElementById("top");
let socket = null;
let view = null;
let refusal = null;
let selected = new Set(); // cards chosen for an exchange
let retry = 500;
const checked = {}; // deal -> whether its deck is the seed's

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    socket.send(JSON.stringify({ type: "hello", token, lang: LANG }));
    status(t("connected"), "ok");
  });
  socket.addEventListener("message", (ev) => {
    const message = JSON.parse(ev.data);
    if (message.type === "state") {
      view = message;
      refusal = null;
      draw();
    } else if (message.type === "refused") {
      refusal = message.reason;
      draw();
    } else if (message.type === "error") {
      refusal = message.reason;
      retry = null;
      draw();
    }
  });
  socket.addEventListener("close", () => {
    status(t("reconnecting"), "bad");
    if (retry !== null) { setTimeout(connect, retry); retry = Math.min(retry * 2, 8000); }
  });
}

function status(text, kind) {
  const node = document.getElementById("status");
  if (node) { node.textContent = text; node.className = `status ${kind}`; }
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(text) {
  selected = new Set();
  send({ type: "act", action: text });
}

function seatName(seat) {
  return seat === view.me ? t("you_seat", { seat }) : t("seat_n", { seat });
}

function callName(word) {
  if (view.table.calls[word]) return view.table.calls[word];
  const said = t(`word_${word}`);
  return said === `word_${word}` ? word : said;
}

// The variant's blind calls by name ("wrap", "blind frap"): what a seat keeps his cards face down for.
function blindNames() {
  return view.table.blind_calls.map(callName).join(", ");
}

function actionLabel(a) {
  if (a.word === "trump" && a.text.split(" ")[1]) return t("name_trump", { suit: suitLabel(a.text.split(" ")[1]) });
  let label = callName(a.word);
  if (a.position) label += ` ${a.position}`;
  if (a.take_turned) label = t("with_turned", { call: label });
  return label;
}

function drawTop() {
  const tb = view.table;
  top.replaceChildren(
    el("h1", {}, tb.title),
    el("span", { class: "fingerprint", id: "fingerprint", title: t("fingerprint_help") }, t("fingerprint"), " ", el("code", {}, tb.fingerprint)),
    el("a", { href: `/sheet/${tb.id}?lang=${LANG}`, target: "_blank", id: "rules-link", class: "rules" }, t("rule_sheet")),
    langSwitch(),
    el("span", { id: "status", class: "status ok" }, t("connected")));
}

function seatBox(seat) {
  const o = view.obs, tb = view.table, s = tb.seats[seat];
  const tags = [];
  if (seat === o.dealer) tags.push(t("dealer"));
  if (!s.human) tags.push(t("bot_kind", { kind: t(`bot_${s.bot}`) }));
  else if (s.takeover) tags.push(t("taken_over"));
  else if (!s.present) tags.push(t("away"));
  if (o.statuses[seat] && o.statuses[seat] !== "undecided") tags.push(t(`status_${o.statuses[seat]}`));
  const turn = tb.in_deal && o.to_act === seat;
  return el("div", { class: `seat${turn ? " turn" : ""}${seat === view.me ? " me" : ""}`, id: `seat-${seat}`, "data-seat": seat },
    el("div", { class: "seat-name" }, seatName(seat)),
    el("div", { class: "seat-stack", "data-chips": o.stacks[seat] }, t("chips", { chips: o.stacks[seat] }),
       o.locked[seat] ? ` (${t("locked", { chips: o.locked[seat] })})` : ""),
    el("div", { class: "seat-call" }, o.calls[seat] ? callName(o.calls[seat]) : "\u00a0"),
    el("div", { class: "seat-cards" }, t("cards_tricks", { cards: o.hand_sizes[seat], tricks: o.tricks[seat] })),
    el("div", { class: "seat-tags" }, tags.join(" · ")));
}

function drawCenter() {
  const o = view.obs;
  return el("div", { class: "center" },
    el("div", { class: "info" },
      el("span", { id: "pot", "data-chips": o.pot }, t("pot", { chips: o.pot })), " · ",
      el("span", { id: "trump" }, t("trump", { suit: o.trump ? suitLabel(o.trump) : "—" })), " · ",
      el("span", {}, t("stock", { cards: o.stock_count })),
      o.turned.length ? [" · ", t("turned"), " ", o.turned.map((c) => card(c))] : null,
      o.shown.length ? [" · ", t("shown"), " ", o.shown.map((c) => card(c))] : null),
    el("div", { class: "trick", id: "trick" },
      o.trick.length ? o.trick.map(([seat, c, joker]) => el("span", { class: "played" }, el("small", {}, t("seat_short", { seat })), card(c, { extra: joker ? "joker" : "" })))
                     : el("span", { class: "muted" }, view.table.in_deal ? t("no_trick") : "")));
}

function drawHand() {
  const o = view.obs;
  if (view.me === null) return el("p", { class: "muted" }, t("spectating"));
  const legal = view.legal;
  const byCard = {};
  for (const a of legal) if ((a.word === "play" || a.word === "discard") && a.cards.length === 1) (byCard[a.cards[0]] ||= []).push(a);
  const exchanges = legal.filter((a) => a.word === "exchange");
  const exchangeable = new Set(exchanges.flatMap((a) => a.cards));
  const hand = o.hand || [];
  const cards = hand.map((c) => {
    if (byCard[c]) {
      const options = byCard[c];
      if (options.length === 1) return card(c, { onclick: () => act(options[0].text), extra: "legal" });
      return el("span", { class: "choice" }, card(c, { extra: "legal" }),
        options.map((a) => el("button", { class: "small", onclick: () => act(a.text) }, a.joker ? t("as_joker") : t("as_card"))));
    }
    if (exchanges.length && exchangeable.has(c)) {
      return card(c, { onclick: () => { selected.has(c) ? selected.delete(c) : selected.add(c); draw(); },
                       extra: selected.has(c) ? "legal selected" : "legal" });
    }
    return card(c);
  });
  const parts = [el("div", { class: "hand", id: "hand" }, hand.length ? cards : el("span", { class: "muted" }, o.hand === null ? t("not_looked", { calls: blindNames() }) : t("no_cards")))];
  if (exchanges.length) {
    const chosen = Array.from(selected).sort().join(" ");
    const match = exchanges.find((a) => a.cards.slice().sort().join(" ") === chosen);
    parts.push(el("div", { class: "actions" },
      el("button", { id: "exchange", class: "primary", disabled: !match, onclick: () => act(match.text) },
         selected.size ? t("exchange_n", { count: selected.size }) : t("keep_hand")),
      el("span", { class: "muted" }, t("exchange_help"))));
  }
  return parts;
}

function drawActions() {
  const others = view.legal.filter((a) => !["play", "discard", "exchange"].includes(a.word) || (a.word !== "exchange" && a.cards.length !== 1));
  if (!view.table.in_deal) return null;
  const turn = view.obs.to_act;
  const head = view.me !== null && turn === view.me ? t("your_turn") : t("waiting_for", { seat: seatName(turn) });
  const looking = others.some((a) => a.word === "look");
  return el("div", { class: "actions", id: "actions" }, el("b", {}, head), " ",
    others.map((a) => el("button", { class: "action", "data-action": a.text, onclick: () => act(a.text) }, actionLabel(a))),
    looking ? el("p", { class: "muted", id: "look-note" }, t("look_gives_up", { calls: blindNames() })) : null);
}

function ledgerRows(settled) {
  const items = settled.ledger ? settled.ledger.items : [];
  return items.filter((i) => i.kind !== "left" || i.chips).map((i) => {
    const who = i.seat === null ? t("the_pot") : seatName(i.seat);
    const sign = i.kind === "penalty" ? "−" : i.kind === "left" ? "" : "+";
    return el("tr", {}, el("td", {}, who), el("td", { class: "num" }, `${sign}${i.chips}`), el("td", {}, t(`ledger_${i.kind}`, i)));
  });
}

function drawSettlement() {
  const s = view.settled;
  if (!s || view.table.in_deal) return null;
  const before = view.table.deal_stacks;
  const net = s.stacks.map((x, i) => x - before[i]);
  return el("section", { class: "settlement", id: "settlement" },
    el("h2", {}, t("settlement", { deal: view.table.deal })),
    el("table", { class: "ledger" }, el("tbody", {}, ledgerRows(s))),
    el("p", { class: "nets" }, net.map((n, i) => el("span", { class: "net" }, `${seatName(i)}: ${n > 0 ? "+" : ""}${n} → ${s.stacks[i]}`))));
}

function drawNext() {
  const tb = view.table;
  if (tb.in_deal) return null;
  if (tb.finished) {
    return el("div", { class: "actions" }, el("b", {}, t("session_over")), " ",
      el("a", { href: `/record/${token}`, id: "download", download: "" }, t("download_record")));
  }
  if (view.me === null) return el("p", { class: "muted" }, t("waiting_next"));
  const ready = tb.seats[view.me].ready;
  return el("div", { class: "actions" },
    el("button", { id: "next", class: "primary", disabled: ready, onclick: () => send({ type: "next" }) },
       tb.deal ? t("next_deal") : t("start")),
    ready ? el("span", { class: "muted" }, t("waiting_others")) : null);
}

function drawFair() {
  const tb = view.table;
  const results = checkDeals(tb.canonical, view.fair, view.dealt);
  Object.assign(checked, results);
  const rows = view.fair.slice(-3).map((f) => el("li", { "data-deal": f.deal },
    t("deal_n", { deal: f.deal }), ": ", t("commitment"), " ", el("code", { class: "commitment" }, f.commitment.slice(0, 16) + "…"),
    f.seed ? [" ", t("seed"), " ", el("code", { class: "seed" }, f.seed.slice(0, 16) + "…"), " ",
              checked[f.deal] === undefined ? "" : el("b", { class: checked[f.deal] ? "ok verified" : "bad" },
                checked[f.deal] ? t("deck_verified") : t("deck_wrong"))]
           : [" ", el("span", { class: "muted" }, t("seed_hidden"))]));
  return el("details", { class: "fair", id: "fair" }, el("summary", {}, t("fair_title")),
    el("p", { class: "muted" }, t("fair_help")), el("ul", {}, rows));
}

function drawLog() {
  return el("details", { class: "log", id: "log", open: true }, el("summary", {}, t("log")),
    el("ol", {}, view.log.slice(-60).map((line) => el("li", {}, line))));
}

function draw() {
  if (!view) {
    if (refusal) root.replaceChildren(el("p", { class: "refused", id: "refusal" }, refusal));
    return;
  }
  drawTop();
  const tb = view.table;
  document.body.dataset.step = tb.step;
  document.body.dataset.toAct = tb.in_deal ? String(view.obs.to_act) : "";
  const banner = [];
  tb.seats.forEach((s, i) => { if (s.takeover) banner.push(t("takeover_banner", { seat: seatName(i) })); });
  root.replaceChildren(...[
    banner.length ? el("p", { class: "banner", id: "takeover" }, banner.join(" ")) : null,
    el("p", { class: "muted" }, t("deal_of", { deal: tb.deal, deals: tb.deals }), " · ", t("takeover_rule", { seconds: Math.round(view.takeover_seconds) })),
    el("div", { class: "seats" }, tb.seats.map((_, i) => seatBox(i))),
    drawCenter(), drawHand(), drawActions(),
    refusal ? el("p", { class: "refused", id: "refusal" }, refusal) : null,
    drawSettlement(), drawNext(), drawFair(), drawLog()].flat().filter(Boolean));
}

if (!token) root.replaceChildren(el("p", { class: "refused" }, t("no_token")));
else connect();
