// The table page: one WebSocket, the view the server made for this seat, and only legal actions as
// buttons.  The token is in the link's #fragment, so it never reaches a server log or a Referer.
import { card, cardLabel, copyText, el, hasIcon, hostTokens, icon, inviteLine, LANG, langSwitch, loadWords, myTables, number, ownWords, plural, rememberHost, rememberTable, suitLabel, suited, t } from "./common.js";
import { checkDeals } from "./fair.js";

await loadWords();
const token = location.hash.slice(1);
const root = document.getElementById("table");
const top = document.getElementById("top");
let socket = null;
let view = null;
let fullAsked = false; // an update was missed and the whole view asked for
let refusal = null;
let sentAt = null; // the number of the view the page's last message answered (a refusal of it is shown under that view only)
let selected = new Set(); // cards chosen for an exchange
let retry = 500;
const checked = {}; // deal -> whether its deck is the seed's
const onTable = new Set(); // the cards of the trick already drawn (a new one is animated)
let drawn = false; // the page has drawn a view: the cards on the table when it opened were played before, not now
let showPrevious = false; // the previous trick unfolded
let hostAsked = false; // this page has shown the table's host token (kept by the browser that created it)
let hostOpen = false; // the host's controls unfolded (kept across redraws)
let leaving = false; // "Leave the table" pressed once: the second press confirms
let handing = null; // the host pressed "Give to a bot" or "New link": { seat, to } until he confirms or keeps the seat
let logOpen = true; // "What happened" unfolded (kept across redraws: a reader who folds it keeps it folded)
let fresh = true; // a new connection: its first view is looked at for what the seat did while the page was away
let missed = null; // that, in a line, until this player acts

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    hostAsked = false; // a new connection shows the host token again (the server knows connections, not browsers)
    chat = []; // the server says the talk again (if there is any)
    fresh = true;
    fullAsked = false;
    // the name this browser keeps, if it keeps one: a device that has none (her laptop) does not blank the seat's
    const name = localStorage.getItem("khrap-name");
    socket.send(JSON.stringify({ type: "hello", token, lang: LANG, ...(name ? { name } : {}), deltas: true }));
    status(t("connected"), "ok");
  });
  socket.addEventListener("message", (ev) => {
    let message = JSON.parse(ev.data);
    if (message.type === "delta") { // what changed since the update this page holds; one missed: ask for the whole view
      if (view && message.n <= view.n) return; // (one that arrives late, after a newer view)
      if (!view || message.base !== view.n) {
        if (!fullAsked) { fullAsked = true; send({ type: "full" }); }
        return;
      }
      message = patch(view, message.d);
    } else if (message.type === "state") {
      fullAsked = false; // the whole view (asked for, or the first)
    }
    if (message.type === "state") {
      view = message;
      ownWords(view.table.own);  // (the variant's terms: frap's «приз фрапующего», where the page says «храпящего»)
      refusal = null;
      if (fresh) { fresh = false; missed = missedSince(); }
      remember();
      claimHost();
      keepAgainHost();
      draw();
      drawChat();
    } else if (message.type === "chat") {
      heard(message.entries, message.full);
      if (view) { draw(); drawChat(); }
    } else if (message.type === "refused" && message.code?.startsWith("chat_")) { // said in the chat box
      const note = document.getElementById("chat-note");
      if (note) { note.textContent = t(message.code); note.hidden = false; setTimeout(() => { note.hidden = true; }, 5000); }
    } else if (message.type === "refused") { // a code the page has words for, else the server's words in its language
      // A refusal that comes after a newer view answers a state that is gone (a second tap on "Next deal"
      // that the first one started): the page shows the new state, not a sentence about the old one.
      if (view && sentAt !== view.n) return;
      refusal = message.code && t(message.code) !== message.code ? t(message.code) : message.said || message.reason;
      draw();
    } else if (message.type === "error") {
      refusal = message.code === "revoked" ? t(`revoked_${message.why}`, { seat: message.seat }) : message.reason;
      if (message.code === "revoked") { // this link plays its seat no more: the page says so, plainly, and only that
        view = null;
        document.getElementById("chat").hidden = true;
        rememberTable({ link: location.pathname + location.hash, state: "revoked", seen: Date.now() });
      }
      retry = null;
      draw();
    }
  });
  socket.addEventListener("close", () => {
    if (retry === null) { status("", "off"); return; } // the link plays no more: the page says why, nothing reconnects
    status(t("reconnecting"), "bad");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

// The view a patch makes of the one held (khrap/web/delta.py says the parts): new objects where it
// changed, the held view's own parts where it did not.
function patch(old, d) {
  const out = { ...old, ...(d.s || {}) };
  for (const [key, part] of Object.entries(d.p || {})) out[key] = patch(old[key], part);
  for (const [key, items] of Object.entries(d.a || {})) out[key] = old[key].concat(items);
  for (const key of d.x || []) delete out[key];
  return out;
}

function status(text, kind) {
  const node = document.getElementById("status");
  if (node) { node.textContent = text; node.className = `status ${kind}`; node.hidden = !text; }
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    sentAt = view ? view.n : null;
    socket.send(JSON.stringify(message));
  }
}

function act(text) {
  selected = new Set();
  drawFrom = "top";  // (a draw from the bottom is chosen for one exchange)
  missed = null;
  send({ type: "act", action: text, step: view.table.step });
}

// A seat as the players know it: the name its player gave, else its number; "(you)" on one's own.  A person's
// seat handed to a bot for good (the host's "give to a bot", or he left) is the bot's now: it says so, and whose
// seat it was (it kept his name, as if he still played it).
function seatName(seat) {
  const s = view.table.seats[seat];
  if (s && !s.human && s.why && s.name) return t("bot_seat", { name: cutName(s.name) });
  if (s && !s.human && !s.name) return t("bot_n", { seat }); // a bot from the start: "Bot 3 wins", not "Seat 3 wins"
  return playerName(seat);
}

// The seat's player as he named himself, else the seat's number: "Anna left the table" (not her seat's bot).
function playerName(seat) {
  const whole = view.table.seats[seat]?.name, name = whole && cutName(whole);
  if (name) return seat === view.me ? t("you_name", { name }) : name;
  return seat === view.me ? t("you_seat", { seat }) : t("seat_n", { seat });
}

// A seat in a narrow column (the settlement's on a phone): the first letters of its player's name (the page shows
// no seat numbers beside the names), else a bot's short name or the seat's; a mark for the viewer's own.
// A name's letters as a reader counts them: a letter with its accents, an emoji with its skin tone, is one.
const letters = (text) => Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text), (g) => g.segment);

// A name as the page says it: at most SHOWN_NAME letters, a longer one cut between two letters (never inside one)
// and ended with "…"; the whole name is the title of the places that show a seat (wholeName).  A name is kept
// whole up to 64 characters (the server's MAX_NAME): 24 letters are what a phone's seat box and a log line hold.
const SHOWN_NAME = 24;
function cutName(name) {
  const all = letters(name);
  return all.length <= SHOWN_NAME ? name : `${all.slice(0, SHOWN_NAME - 1).join("").trimEnd()}\u2026`;
}

// The whole name of a seat whose name is shown cut (a tooltip), else null.
function wholeName(seat) {
  const name = view.table.seats[seat]?.name;
  return name && cutName(name) !== name ? name : null;
}

function shortName(seat) {
  const s = view.table.seats[seat], name = s?.name;
  const nameless = s && !s.human ? t("bot_short", { seat }) : t("seat_short", { seat });  // ("3" read as a figure)
  const short = name ? letters(name).slice(0, 3).join("") : nameless;
  return seat === view.me ? `${short}★` : short;
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
  if (a.word === "trump" && a.suit) return t("name_trump", { suit: suitLabel(a.suit) });  // (its typed suit, not its words)
  return callLabel(a.word, a.position, a.take_turned);
}

// A call by name with what it carries (a hand position, the turned card): a button's label and a log line's.
function callLabel(word, position, takeTurned) {
  let label = callName(word);
  if (position) label += ` ${position}`;
  if (takeTurned) label = t("with_turned", { call: label });
  return label;
}

function drawTop() {
  const tb = view.table;
  top.replaceChildren(
    el("h1", { title: tb.title }, tb.title),  // (a phone cuts a long one short)
    el("span", { class: "fingerprint", id: "fingerprint", title: t("fingerprint_help") }, t("fingerprint"), " ", el("code", {}, tb.fingerprint)),
    el("a", { href: `/sheet/${tb.id}?lang=${LANG}`, target: "_blank", id: "rules-link", class: "rules",
              onclick: (ev) => { if (view) { ev.preventDefault(); openSheet(); } } }, t("rule_sheet")),  // (a revoked page: a tab)
    langSwitch(), signalSwitch(),
    el("span", { id: "status", class: "status ok", title: t("connected") }, t("connected")));
}

// The rule sheet over the table, in a frame, with "Back to the table" above it: opened in a tab of its own (the
// link's target) it had no way back on a phone, and leaving the page for it would leave the seat to its bot.
// The table underneath stays connected and drawn: the back button says when it is this player's turn.
let sheetBox = null;
function openSheet() {
  if (!sheetBox) {
    sheetBox = el("div", { class: "sheet-view", id: "sheet-view", role: "dialog", "aria-label": t("rule_sheet") },
      el("div", { class: "sheet-bar" },
        el("button", { type: "button", id: "sheet-back", onclick: closeSheet }),
        el("a", { id: "sheet-tab", target: "_blank" }, t("sheet_new_tab"))),
      // (a sheet not made before takes a second or more: the frame stood white and empty meanwhile, as if broken)
      el("p", { id: "sheet-loading", class: "muted loading" }, t("sheet_loading")),
      el("iframe", { id: "sheet-frame", title: t("rule_sheet"),
                     onload: () => { sheetBox.querySelector("#sheet-loading").hidden = true; } }));
    document.body.append(sheetBox);
  }
  const href = `/sheet/${view.table.id}?lang=${LANG}`;
  const frame = sheetBox.querySelector("iframe");
  if (frame.getAttribute("src") !== href) { sheetBox.querySelector("#sheet-loading").hidden = false; frame.setAttribute("src", href); }
  sheetBox.querySelector("#sheet-tab").setAttribute("href", href);
  sheetBox.hidden = false;
  document.body.classList.add("sheet-open");
  sheetBack();
  sheetBox.querySelector("#sheet-back").focus();
}

function closeSheet() {
  if (!sheetBox) return;
  sheetBox.hidden = true;
  document.body.classList.remove("sheet-open");
}

function sheetBack() {
  const back = sheetBox && !sheetBox.hidden ? sheetBox.querySelector("#sheet-back") : null;
  const turn = view.table.in_deal && myTurn();  // (between deals "Next deal" is for the table's page to say)
  if (back) back.textContent = `\u2190 ${t("back_to_table")}${turn ? ` \u00b7 ${t("title_turn")}` : ""}`;
  if (back) back.classList.toggle("turn", turn);
}
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeSheet(); });

function seatBox(seat) {
  const o = view.obs, tb = view.table, s = tb.seats[seat];
  const tags = [];
  if (seat === o.dealer) tags.push(t("dealer"));
  if (!s.human && s.why === "left") tags.push(t("left_tag"));
  if (!s.human) tags.push(t("bot_kind", { kind: t(`bot_${s.bot}`) }));
  else if (s.takeover) tags.push(t("taken_over"));
  else if (!s.present && !tb.finished) tags.push(t("away"));  // (an evening over: nobody is waited for)
  if (o.statuses[seat] && o.statuses[seat] !== "undecided") tags.push(t(`status_${o.statuses[seat]}`));
  const turn = tb.in_deal && o.to_act === seat;
  return el("div", { class: `seat${turn ? " turn" : ""}${seat === view.me ? " me" : ""}`, id: `seat-${seat}`, "data-seat": seat },
    el("div", { class: "seat-name", title: wholeName(seat) }, seatName(seat)),
    el("div", { class: "seat-stack", "data-chips": o.stacks[seat] }, t("chips", { chips: number(o.stacks[seat]) }),
       // (the stake kept in one piece: «(в ставке: / 8)» broke in a phone's seat box)
       o.locked[seat] ? [" ", el("span", { class: "staked" }, `(${t("locked", { chips: o.locked[seat] })})`)] : ""),
    el("div", { class: "seat-call" }, o.calls[seat] ? callName(o.calls[seat]) : "\u00a0"),
    el("div", { class: "seat-cards" }, t("cards_tricks", { cards: plural("n_cards", o.hand_sizes[seat]), tricks: plural("n_tricks", o.tricks[seat]) })),
    el("div", { class: "seat-tags" }, tags.join(" · ")),
    bubbles[seat] && bubbles[seat].until > Date.now() ? el("div", { class: "bubble", "data-n": bubbles[seat].n }, chatBody(bubbles[seat], 60)) : null);
}

// ------------------------------------------------------------ chat and quick reactions
// Every entry is shown as a text node (el() never parses HTML): markup stays markup-looking text and a URL is
// not a link.  Reactions are sent as ids and said in the reader's language: a picture (an inline SVG, common.js's
// icon: no emoji font needed) or the phrase.
const REACTS = ["thumbs_up", "laugh", "wow", "grimace", "party", "well_played", "good_luck", "thinking", "oops", "thanks"];
const bubbles = {}; // seat -> its latest entry, shown by its seat for a few seconds
let chat = []; // the table talk: the last entries, oldest first (the server keeps 30)

function chatBody(entry, cut = 0) {
  if (entry.react && hasIcon(entry.react)) return icon(entry.react, t(`react_${entry.react}`));
  const text = entry.react ? t(`react_${entry.react}`) : entry.text;
  return cut && text.length > cut ? `${text.slice(0, cut)}…` : text;
}

// Entries from the server: the whole talk on connecting (``full``: no bubbles for what was said before), then
// each new one alone.
function heard(entries, full) {
  const last = chat.length ? chat.at(-1).n : 0;
  const fresh = full ? [] : entries.filter((e) => e.n > last);
  chat = full ? entries : [...chat, ...fresh].slice(-30);
  for (const e of fresh) {
    bubbles[e.seat] = { ...e, until: Date.now() + 8000 };
    setTimeout(() => { if (view) draw(); }, 8100);
  }
}

let chatInput = null; // made once: a redraw never loses what is being typed
function drawChat() {
  const box = document.getElementById("chat");
  // (a spectator reads only: "Table talk" over nothing stood at the foot of his page until somebody spoke)
  box.hidden = view.me === null && !chat.length;
  if (!chatInput) {
    chatInput = el("input", { id: "chat-text", maxlength: 200, autocomplete: "off", enterkeyhint: "send" });
    const form = el("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => {
      ev.preventDefault();
      if (chatInput.value.trim()) send({ type: "chat", text: chatInput.value });
      chatInput.value = "";
    } }, chatInput, el("button", { type: "submit", id: "chat-send" }, t("chat_send")));
    box.replaceChildren(el("h2", {}, t("chat_title")),
      el("div", { class: "reactions", id: "reactions" }, REACTS.map((id) => el("button", {
        type: "button", class: "small react", "data-react": id, title: t(`react_${id}`),
        onclick: () => send({ type: "react", id }) }, hasIcon(id) ? icon(id, t(`react_${id}`)) : t(`react_${id}`)))),
      form, el("p", { id: "chat-note", class: "refused", hidden: true }), el("ol", { id: "chat-list", class: "chat-list" }));
  }
  const reader = view.me === null;
  box.querySelector("#reactions").hidden = reader;
  box.querySelector("#chat-form").hidden = reader;
  chatInput.placeholder = t("chat_placeholder");
  box.querySelector("#chat-list").replaceChildren(...chat.map((e) => el("li", { "data-n": e.n, class: e.react ? "react" : "" },
    el("b", {}, playerName(e.seat)), " ", chatBody(e))));  // who said it (a bot never speaks: not "Bot (Anna's seat)")
}

// Before the first deal the felt says what begins the evening, and to a player who has pressed "Start the game"
// whom it waits for (it showed an empty deal, "Pot 0 · Trump — · Stock 0").  (Only the seats that pressed hear of
// another's pressing: the others are told how it begins.)
function drawLobby() {
  const tb = view.table, ready = view.me !== null && tb.seats[view.me].ready;
  const holding = tb.seats.filter((st) => st.human && !st.ready && !st.takeover).map((st) => seatName(st.seat));
  const said = ready && holding.length ? t("waiting_ready", { seats: holding.join(", "), button: t("start") })
                                       : t("lobby", { button: t("start") });  // (the evening's deals: the line above)
  return el("div", { class: "center" }, el("p", { class: "news", id: "lobby" }, said.charAt(0).toUpperCase() + said.slice(1)));
}

function drawCenter() {
  const o = view.obs;
  if (!view.table.deal && !view.table.finished) return drawLobby();
  return el("div", { class: "center" },
    el("div", { class: "info" },
      el("span", { id: "pot", class: "fact", "data-chips": o.pot }, t("pot", { chips: o.pot })), " · ",
      el("span", { id: "trump", class: "fact" }, t("trump", { suit: o.trump ? suitLabel(o.trump) : "—" })), " · ",
      el("span", { id: "stock", class: "fact" }, t("stock", { cards: o.stock_count })),
      o.turned.length ? [" · ", t("turned"), " ", o.turned.map((c) => card(c))] : null,
      o.shown.length ? [" · ", t("shown"), " ", o.shown.map((c) => card(c))] : null),
    drawTrick(), drawPrevious());
}

// A trick's cards as played, each under its seat; a card not on the page before slides in.
function trickCards(cards, number) {
  return cards.map(([seat, c, joker]) => {
    const key = `${view.table.deal}:${number}:${seat}:${c}`;
    const fresh = drawn && !onTable.has(key); // (a reloaded page slid the whole trick in again)
    onTable.add(key);
    return el("span", { class: `played${fresh ? " fresh" : ""}`, "data-seat": seat },
      el("small", {}, seatName(seat)), card(c, { extra: joker ? "joker" : "" }));
  });
}

// The trick being played; between tricks, the last one stays on the table with who took it, until
// the next card is led.
function drawTrick() {
  const o = view.obs, last = view.tricks.at(-1);
  if (o.trick.length) return el("div", { class: "trick", id: "trick" }, trickCards(o.trick, view.trick_number));
  if (last) {
    return el("div", { class: "trick closed", id: "trick", "data-winner": last.winner }, trickCards(last.cards, last.number),
      el("b", { class: "winner", id: "trick-winner" }, t("took_trick", { seat: seatName(last.winner) })));
  }
  return el("div", { class: "trick", id: "trick" }, view.table.in_deal ? news() : dealEnd());
}

// A deal that ended with no trick played (a lone declarer credited every trick, an instant win): the felt says why,
// from the typed events (it stood green and empty over the settlement, on a phone the whole first screen).
const NO_TRICK_ENDS = new Set(["credited", "instant_win", "took_pot"]);
function dealEnd() {
  const start = view.events.findLastIndex((e) => e.kind === "dealt");
  const told = start < 0 ? [] : view.events.slice(start).filter((e) => NO_TRICK_ENDS.has(e.kind));
  return told.length ? el("div", { class: "news", id: "news" }, told.map((e) => el("div", {}, eventLine(e, null)))) : "";
}

// Before the deal's first card, the felt tells how the hands came (a redeal, the deal, the trump turned) and the
// last thing that happened since, from the typed events: on a phone the log is far below, and a redeal changed
// every hand and every stack.  The trump told is the one that stands: after a round everybody passed, the card
// turned since, with why (the felt said the first card's suit while another one was trump).
const OPENING = new Set(["redealt", "dealt", "turned"]);
function news() {
  const events = view.events;
  let start = events.findLastIndex((e) => e.kind === "dealt");
  if (start > 0 && events[start - 1].kind === "redealt") start -= 1;
  if (start < 0) return el("span", { class: "muted" }, t("no_trick"));
  let end = start;
  while (end < events.length && OPENING.has(events[end].kind)) end += 1;
  const told = events.slice(start, end).filter((e) => e.kind !== "turned");
  const turned = events.findLastIndex((e, i) => i >= start && e.kind === "turned");
  if (turned >= end && events[turned - 1].kind === "all_passed") told.push(events[turned - 1]);
  if (turned >= 0) told.push(events[turned]);
  if (end < events.length && turned !== events.length - 1) told.push(events.at(-1));
  return el("div", { class: "news", id: "news" }, told.map((e) => el("div", {}, eventLine(e, null))).filter((d) => d.textContent));
}

// The trick before the one on the table, one tap away.
function drawPrevious() {
  const before = view.obs.trick.length ? view.tricks.at(-1) : view.tricks.at(-2);
  if (!before) return null;
  const button = el("button", { type: "button", class: "small", id: "previous", "aria-expanded": String(showPrevious),
                                onclick: () => { showPrevious = !showPrevious; draw(); } }, t("previous_trick"));
  return el("div", { class: "previous" }, button, showPrevious
    ? el("div", { class: "trick", id: "previous-trick", "data-winner": before.winner },
         before.cards.map(([seat, c, joker]) => el("span", { class: "played", "data-seat": seat }, el("small", {}, seatName(seat)),
                                                       card(c, { extra: joker ? "joker" : "" }))),
         el("span", {}, t("took_trick", { seat: seatName(before.winner) })))
    : null);
}

function drawHand() {
  const o = view.obs;
  if (view.me === null) return el("p", { class: "muted" }, t("spectating"));
  if (!view.table.deal) return null; // nothing dealt yet (the felt says what begins the evening)
  const legal = view.legal;
  const byCard = {};
  for (const a of legal) if ((a.word === "play" || a.word === "discard") && a.cards.length === 1) (byCard[a.cards[0]] ||= []).push(a);
  const exchanges = legal.filter((a) => a.word === "exchange");
  const exchangeable = new Set(exchanges.flatMap((a) => a.cards));
  const hand = o.hand || [];
  if (!view.table.in_deal && !hand.length) return null; // between deals: no "No cards" under the trick
  const playing = legal.some((a) => a.word === "play");
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
    return card(c, { extra: playing ? "unplayable" : "" });
  });
  const parts = [el("div", { class: "hand", id: "hand" }, hand.length ? cards : el("span", { class: "muted" }, o.hand === null ? t("not_looked", { calls: blindNames() }) : t("no_cards")))];
  if (exchanges.length) {
    const chosen = Array.from(selected).sort().join(" ");
    const match = exchanges.find((a) => a.cards.slice().sort().join(" ") === chosen);
    // How many cards may go (Snore's buying: two of five): said before a third is tapped, and why the button
    // is grey once it is (it went grey without a word).
    // A call may make the count exact (khrap-shoot's shooter throws three): "at most 3" and a grey "Keep my hand"
    // said he could keep his cards.  The counts are the legal exchanges' own.
    const most = Math.max(...exchanges.map((a) => a.cards.length));
    const least = Math.min(...exchanges.map((a) => a.cards.length));
    const over = selected.size > most;
    const help = over ? t("exchange_too_many", { count: most })
                      : least === most && least > 0 ? t("exchange_help_exactly", { count: most })
                      : most < exchangeable.size ? t("exchange_help_most", { count: most }) : t("exchange_help");
    parts.push(el("div", { class: "actions" },
      el("button", { id: "exchange", class: "primary", disabled: !match,
                     onclick: () => act(selected.size ? sourced(match) : match.text) },
         selected.size || least > 0 ? t("exchange_n", { count: selected.size || least }) : t("keep_hand")),
      drawChoice(exchanges),
      el("span", { class: over ? "todo" : "muted", id: "exchange-help" }, help)));
  }
  return parts;
}

// Where the new cards come from, where the rules let a player choose (Student Snore: "the stock may be drawn from
// anywhere"): beside the actions the seat's view marks as naming where they draw from (``from``: an exchange, a call
// that draws as it is made, take five, merry, wrap).  The page offered it for the exchange alone, so those calls
// drew from the top.  (The top or the bottom: the terminal also takes "from N" typed.)
let drawFrom = "top";
function drawChoice(actions) {
  if (!actions.some((a) => a.from)) return null;
  const choice = el("select", { id: "draw-from", onchange: (ev) => { drawFrom = ev.target.value; } },
    ["top", "bottom"].map((where) => el("option", { value: where }, t(`draw_${where}`))));
  choice.value = drawFrom;
  return el("label", { class: "draw-from" }, t("draw_from"), " ", choice);
}

// An action's words with where it draws from, when the seat chose other than the top for an action that may say it.
function sourced(a) {
  return a.from && drawFrom !== "top" ? `${a.text} from ${drawFrom}` : a.text;
}

// What the seat to act is asked, in a line: the kind of decision from its legal actions; for a card
// to play, the duty the legal cards show (follow the led suit, else trump, else any card).
function whatToDo() {
  const words = new Set(view.legal.map((a) => a.word));
  if (words.has("play")) {
    const led = view.obs.trick.length ? view.obs.trick[0][1].slice(-1) : null;
    const legalSuits = new Set(view.legal.filter((a) => a.word === "play").map((a) => a.cards[0].slice(-1)));
    const handSuits = new Set((view.obs.hand || []).map((c) => c.slice(-1)));
    if (!led) return t("todo_lead");
    if (legalSuits.size === 1 && legalSuits.has(led) && handSuits.size > 1) return t("todo_follow", { suit: suitLabel(led) });
    if (!handSuits.has(led) && view.obs.trump && legalSuits.size === 1 && legalSuits.has(view.obs.trump)) {
      return t("todo_trump", { suit: suitLabel(led), trump: suitLabel(view.obs.trump) });
    }
    return t("todo_any");
  }
  if (words.has("exchange")) return t(view.legal.some((a) => a.word === "exchange" && !a.cards.length) ? "todo_exchange" : "todo_exchange_all");
  if (words.has("discard")) return t("todo_discard");
  if (words.has("trump")) return t("todo_name_trump");
  // A stage that offers the seats a call once the bidding is over (Snore's cut to a passer, khrap's take five): the
  // choices themselves, by the names of the decision's legal words ("make your call" read as the bidding again).
  if (view.obs.phase === "offers") return t("todo_offer", { choices: orList([...words].map(callName)) });
  return t("todo_call");
}

// "A, B or C" in the page's language.
function orList(items) {
  return items.length < 2 ? items.join("") : t("or_list", { items: items.slice(0, -1).join(", "), last: items.at(-1) });
}

// The turn clock: the seconds left to the seat to act, counted down on the page from the server's figure.
let clockEnds = null;
function clockBadge() {
  const left = view.clock?.left;
  if (left === null || left === undefined) { clockEnds = null; return null; }
  clockEnds = performance.now() + left * 1000;
  return el("span", { class: "clock", id: "clock" }, icon("clock", t("clock_left")), " ",
            el("span", { id: "clock-left" }, t("seconds", { seconds: Math.ceil(left) })));
}
setInterval(() => {
  const node = document.getElementById("clock-left");
  if (node && clockEnds !== null) node.textContent = t("seconds", { seconds: Math.max(0, Math.ceil((clockEnds - performance.now()) / 1000)) });
}, 1000);

// The clock ran out on this seat: what its bot played for it.
function clockNote() {
  const done = view.clock?.timed_out;
  if (!done) return null;
  const what = done.word === "play" || done.word === "discard" ? done.cards.map(cardLabel).join(" ") : callName(done.word);  // (typed)
  return el("p", { class: "banner", id: "clock-note" }, t("clock_ran_out", { action: what }));
}

// Whose turn it is and what he is asked, above the hand: read before the cards and the buttons under it (on a
// phone the exchange's line stood under the hand and its button, below the screen's edge).
function turnLine() {
  if (!view.table.in_deal) return null;
  const turn = view.obs.to_act, mine = view.me !== null && turn === view.me;
  return el("p", { class: "turn-line", id: "turn" }, el("b", {}, mine ? t("your_turn") : t("waiting_for", { seat: seatName(turn) })),
    " ", clockBadge(), " ", mine ? el("span", { class: "todo", id: "todo" }, suited(whatToDo())) : null);
}

// The calls and the other decisions that are not a card of the hand, as buttons under it.
function drawActions() {
  const others = view.legal.filter((a) => !["play", "discard", "exchange"].includes(a.word) || (a.word !== "exchange" && a.cards.length !== 1));
  if (!view.table.in_deal || !others.length) return null;
  const looking = others.some((a) => a.word === "look");
  return el("div", { class: "actions", id: "actions" },
    others.map((a) => el("button", { class: "action", "data-action": a.text, onclick: () => act(sourced(a)) }, suited(actionLabel(a)))),
    drawChoice(others),
    looking ? el("p", { class: "muted", id: "look-note" }, t("look_gives_up", { calls: blindNames() })) : null);
}

// One settlement row's words: what moved the chips, from the kernel's event (its reason and numbers).
function moveLabel(m) {
  if (m.kind === "ante") return m.reason === "round" ? t("row_round_ante", m) : m.reason === "last" ? t("row_last_ante") : t("row_ante");
  if (m.kind === "took_pot") return t("row_took_pot");
  if (m.kind === "house") return t("row_house", { percent: m.percent });
  if (m.reason === "share") return t("row_share", { tricks: plural("n_tricks", m.tricks), unit: m.unit });
  if (m.reason === "penalty") return t("row_penalty", { status: t(`status_${m.status}`), tricks: plural("n_tricks", m.tricks) });
  if (m.reason === "stake" || m.reason === "helper_stake") return t("row_stake");
  return t(`row_${m.reason}`);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

// Every chip the deal moved: a row per event, a column per seat and one for the pot; each column adds up
// to the change of that seat's chips (the pot's: to what it holds now).
function drawSettlement() {
  const s = view.settled;
  if (!s || view.table.in_deal) return null;
  const n = view.table.players, before = view.table.deal_stacks, moves = view.moves;
  const cell = (value, attrs = {}) => el("td", { class: "num", "data-chips": value, ...attrs }, value === null ? "" : signed(value));
  const rows = [el("tr", { class: "move carried" }, el("th", {}, t("row_carried")),
                   Array.from({ length: n }, () => el("td", {})), cell(moves.carried, { class: "num pot" }))];
  for (const m of moves.rows) {
    rows.push(el("tr", { class: "move" }, el("th", {}, moveLabel(m)),
      Array.from({ length: n }, (_, i) => m.seat === null || m.seat === i ? cell(m.chips, { "data-seat": i }) : el("td", {})),
      cell(m.pot, { class: "num pot" })));
  }
  const net = s.stacks.map((x, i) => x - before[i]);
  const ledger = el("table", { class: "ledger moves", id: "ledger" },
      el("thead", {}, el("tr", {}, el("th", {}), Array.from({ length: n }, (_, i) => el("th", { class: "num", title: seatName(i) },
                                  el("span", { class: "long" }, seatName(i)), el("span", { class: "short" }, shortName(i)))),
                                el("th", { class: "num pot-head" }, el("span", { class: "long" }, t("the_pot")), el("span", { class: "short" }, t("pot_short"))))),
      el("tbody", {}, rows),
      el("tfoot", {},
        el("tr", { class: "net" }, el("th", {}, t("row_net")), net.map((x, i) => cell(x, { "data-seat": i })), el("td", {})),
        el("tr", { class: "now" }, el("th", {}, t("row_now")),
           s.stacks.map((x, i) => el("td", { class: "num", "data-seat": i, "data-chips": x }, number(x))),
           el("td", { class: "num pot", "data-chips": s.pot }, String(s.pot)))));
  // (a phone sets a row's words across the table, its figures under them: style.css's grid of a column a seat)
  ledger.style.setProperty("--cols", n + 1);
  return el("section", { class: "settlement", id: "settlement" },
    el("h2", {}, t("settlement", { deal: view.table.deal })),
    el("p", { class: "muted" }, t("settlement_help")),
    el("div", { class: "scroll" }, ledger),
    potKept(s.pot));
}

// Chips the deal left in the pot, in words: carried to the next deal, or at the evening's end nobody's (the stacks
// add up to less than they started with). A pot of 1 shared by tricks gives nobody anything (a share is whole
// chips): no event, so no row of the ledger said why the chip stayed.
function potKept(chips) {
  if (!chips) return null;
  return el("p", { class: "muted", id: "pot-kept" },
            t(view.table.finished ? "pot_kept_end" : "pot_kept", { chips: plural("n_chips", chips) }));
}

// Between deals: what the deal came to and "Next deal" (or the evening's winner and "Play again") first, under
// the trick, then the settlement and the standings; the bar sticks at the top of the screen while they are read
// (in a box of its own with them: past the standings it scrolls away, the log and the chat below are not under it).
// It stood at the foot of the screen over them: in a whole-page picture of a phone it covered ledger rows (the
// foot of the first screen), and a reader never saw the page's end of the ledger without it in the way.
function between() {
  const next = [drawNext()].flat().filter(Boolean), rows = [drawSettlement(), drawStandings()].filter(Boolean);
  const bar = next.find((node) => node.id === "next-bar");
  if (!bar) return [...rows, ...next];
  return [el("div", { id: "between" }, bar, ...rows), ...next.filter((node) => node !== bar)];
}

function drawNext() {
  const tb = view.table;
  if (tb.in_deal) return null;
  if (tb.finished) { // who won and "Play again" kept at the top of the screen (between()); the record's link below
    return [el("div", { class: "actions sticky", id: "next-bar" }, resultLine(),
      view.again ? againLink()
                 : view.me !== null ? el("button", { id: "again", class: "primary", onclick: () => send({ type: "again" }) }, t("play_again")) : null),
      // (the bar says the evening is over, with its winner: "The session is over." under it said it twice)
      el("p", { id: "over" }, el("a", { href: `/record/${token}`, id: "download", download: "" }, t("download_record")))];
  }
  if (view.me === null || view.elsewhere) {  // (before the first deal the felt says what begins the evening)
    return tb.deal ? el("p", { class: "muted" }, t("waiting_next")) : null;
  }
  const ready = tb.seats[view.me].ready;
  const holding = tb.seats.filter((st) => st.human && !st.ready && !st.takeover).map((st) => seatName(st.seat));
  // kept at the top of the screen while the settlement and the standings are read below it (a phone: between()),
  // with what the deal came to for this reader
  return el("div", { class: "actions sticky", id: "next-bar" }, resultLine(),
    el("button", { id: "next", class: "primary", disabled: ready, onclick: () => { missed = null; send({ type: "next" }); } },
       tb.deal ? t("next_deal") : t("start")),
    ready && holding.length ? el("span", { class: "muted", id: "holding" },  // the button by the name it has on their screens
      t("waiting_ready", { seats: holding.join(", "), button: tb.deal ? t("next_deal") : t("start") })) : null);
}

// The way to the table "Play again" made: a seat's page to its seat there, a spectator's to watch it, the host's
// own page (no seat) to the new table's host page; the host's seat page claims the new host link there itself
// (``keepAgainHost``). Who did not press it reads who did, by the name the table shows ("Anna started...").
function againLink() {
  const to = view.me === null && view.again_host ? view.again_host.token : view.again;
  const by = view.again_by, name = typeof by === "number" && by !== view.me ? view.table.seats[by]?.name : "";
  return el("a", { href: `/play#${to}`, id: "again-link", class: "button primary",
                   onclick: (ev) => { ev.preventDefault(); location.hash = to; location.reload(); } },
            name ? t("go_again_by", { name }) : t("go_again"));
}

// The host of a finished table hosts its "play again" too: this browser keeps the new table's host link (sent to
// the host's pages only), as it keeps the link of a table it created; its pages of the new table claim it.
function keepAgainHost() {
  const next = view.again_host;
  if (!next || typeof next.table !== "string" || typeof next.token !== "string" || hostTokens()[next.table] === next.token) return;
  rememberHost(next.table, next.token);
  rememberTable({ link: `${location.pathname}#${next.token}`, title: view.table.title, seat: null, table: next.table,
                  host: true, state: "waiting", seen: Date.now() });
}

// "My tables": this browser keeps each table it opened, with its link and how it stood when last seen.
function remember() {
  const tb = view.table;
  const state = tb.finished ? "finished" : tb.deal ? "playing" : "waiting";
  rememberTable({ link: location.pathname + location.hash, title: tb.title, seat: view.me, deal: tb.deal,
                  name: view.me === null ? "" : tb.seats[view.me].name || "", table: tb.id,
                  host: hostTokens()[tb.id] === token, deals: tb.deals, state, seen: Date.now() });
}

// A name for this player's seat, kept in this browser and said to every table it opens.
function nameBox() {
  if (view.me === null || view.elsewhere) return null;
  const input = el("input", { id: "name", maxlength: 64, value: view.table.seats[view.me].name || "",
                              placeholder: t("seat_n", { seat: view.me }), autocomplete: "nickname" });
  const save = () => {
    localStorage.setItem("khrap-name", input.value.trim());
    send({ type: "name", name: input.value.trim() });
  };
  input.addEventListener("change", save);
  return el("label", { class: "name-box" }, t("your_name"), " ", input);
}

// The evening's end in a sentence: who won, with how many chips (the standings' head, and the line above the hand).
function winnerSentence() {
  const last = view.table.standings.at(-1), best = Math.max(...last);
  const winners = last.map((_, i) => i).filter((i) => last[i] === best);
  return winners.length === 1 ? t("winner", { seat: seatName(winners[0]), chips: plural("n_chips", best) })
                              : t("winners", { seats: winners.map(seatName).join(", "), chips: plural("n_chips", best) });
}

// What the deal just played came to, in the bar at the foot of the screen (the settlement says it far below, out
// of sight on a phone): the reader's own change of chips, and at the evening's end who won.
function resultLine() {
  const tb = view.table;
  if (tb.in_deal || !view.settled || !tb.deal || !tb.standings.length) return null;
  if (tb.finished) return el("p", { class: "result-line", id: "result" }, winnerSentence());
  if (view.me === null) return null;
  const now = view.settled.stacks[view.me], change = now - tb.deal_stacks[view.me];
  // no change is said in words: "у вас 0" read as "you have 0" (chips)
  return el("p", { class: "result-line", id: "result" }, change
    ? t("deal_result", { deal: tb.deal, change: signed(change), chips: plural("n_chips", now) })
    : t("deal_result_even", { deal: tb.deal, chips: plural("n_chips", now) }));
}

// The evening so far: each seat's chips after every deal, against the chips it started with.
function drawStandings() {
  const tb = view.table, rows = tb.standings;
  if (!rows.length || tb.in_deal) return null;
  const last = rows.at(-1);
  const order = last.map((_, i) => i).sort((a, b) => last[b] - last[a] || a - b);
  const winners = order.filter((i) => last[i] === last[order[0]]);
  const head = tb.finished ? el("h2", { id: "winner" }, winnerSentence())
                           : el("h2", {}, t("standings", { deal: rows.length, deals: tb.deals }));
  return el("section", { class: "settlement standings", id: "standings" }, head,
    el("div", { class: "scroll" }, el("table", { class: "ledger" },
      el("thead", {}, el("tr", {}, el("th", {}), el("th", { class: "num" }, t("start_chips")),
        // a phone heads a deal's column by its number ("Deal 3" took two columns' room: four deals scrolled, the one
        // under the change's column showing a cut figure, "2" of 20, as if it were the deal's)
        rows.map((_, d) => el("th", { class: "num", title: t("deal_n", { deal: d + 1 }) },
                              el("span", { class: "long" }, t("deal_n", { deal: d + 1 })), el("span", { class: "short" }, String(d + 1)))),
        el("th", { class: "num net" }, t("row_net")))),
      el("tbody", {}, order.map((i) => el("tr", { "data-seat": i, class: winners.includes(i) && tb.finished ? "won" : "" },
        el("th", { title: wholeName(i) }, seatName(i)), el("td", { class: "num" }, String(tb.stacks)),
        rows.map((r) => el("td", { class: "num", "data-chips": r[i] }, number(r[i]))),
        el("td", { class: "num net", "data-chips": last[i] - tb.stacks }, signed(last[i] - tb.stacks))))))),
    chart(rows, tb.stacks));
}

// A small chart of the stacks over the deals (an SVG line per seat; no inline style).
// Seats with the same stack after a deal (every seat at the start), or stacks a chip or two apart, are drawn at least
// a line's width apart, in the order of their stacks, then of their seats: one line over another hid it (a tie for
// the lead read as one seat's line).
const CHART_GAP = 3;
function chart(rows, start) {
  if (rows.length < 2) return null;
  const points = [start, ...rows.flat()], low = Math.min(...points), high = Math.max(...points), span = Math.max(1, high - low);
  const pad = 6 + (CHART_GAP * (rows[0].length - 1)) / 2; // (the widest tie kept inside the box)
  const W = 300, H = 90 + 2 * (pad - 6), x = (d) => 6 + (d * (W - 12)) / rows.length;
  const y = (v) => H - pad - ((v - low) * (H - 2 * pad)) / span;
  const ys = [rows[0].map(() => start), ...rows].map((stacks) => apart(stacks.map(y)));
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("class", "chart"); svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("chart"));
  rows[0].forEach((_, seat) => {
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("points", ys.map((at, d) => `${x(d)},${at[seat]}`).join(" "));
    line.setAttribute("class", `line s${seat % 6}`);
    svg.append(line);
  });
  return el("figure", { class: "chart-box" }, svg,
    el("figcaption", {}, rows[0].map((_, seat) => el("span", { class: `key s${seat % 6}` }, seatName(seat)))));
}

// The seats' heights on the chart at one deal, moved apart to CHART_GAP at least: runs of lines too close are
// set CHART_GAP apart, each run centred where its lines were (runs that then touch are joined, and centred again).
function apart(raw) {
  const order = raw.map((_, seat) => seat).sort((a, b) => raw[a] - raw[b] || a - b);
  const runs = [];
  for (const seat of order) {
    runs.push({ seats: [seat], top: raw[seat] });
    while (runs.length > 1) {
      const b = runs.at(-1), a = runs.at(-2);
      if (b.top >= a.top + a.seats.length * CHART_GAP) break;
      const seats = [...a.seats, ...b.seats];
      runs.splice(-2, 2, { seats, top: seats.reduce((sum, s, i) => sum + raw[s] - i * CHART_GAP, 0) / seats.length });
    }
  }
  const at = [];
  for (const run of runs) run.seats.forEach((seat, i) => { at[seat] = run.top + i * CHART_GAP; });
  return at;
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
    el("p", { class: "muted" }, t("fair_help")), el("ul", {}, rows),
    el("p", { class: "fingerprint", title: t("fingerprint_help") }, t("fingerprint"), " ", el("code", {}, tb.fingerprint)));  // (a phone's head has no room for it)
}

// A status as the page names it (declarer, helper, out), or the kernel's word for one it has no name for.
function statusName(status) {
  const said = t(`status_${status}`);
  return said === `status_${status}` ? status : said;
}

// Why chips moved, in a log line: a payment's reason and its numbers (the settlement rows' facts).
function paidWhy(e) {
  const values = { ...e, status: statusName(e.status), tricks: plural("n_tricks", e.tricks ?? 0) };
  const said = t(`why_${e.reason}`, values);
  return said === `why_${e.reason}` ? e.reason : said;
}

// Who made a seat's move in the log: the event says (``by``): a bot's play is the bot's, "Bot (Boris's seat)", while
// Boris is away or after he left; his own is his, "Boris", after he left too (the seat's name of the moment wrote
// the bot's plays as Boris's, and his as the bot's once he was gone).  Other events: the seat as it is now.
function actorName(e) {
  const s = view.table.seats[e.seat];
  if (e.by === "bot") return s?.name ? t("bot_seat", { name: s.name }) : t("bot_n", { seat: e.seat });
  if (e.by === "human") return playerName(e.seat);
  return seatName(e.seat);
}

// The log in the page's words: every narrated event, each seat by the name its player gave (seatName; a move by
// whoever made it, actorName), the variant's call names and cards as 10♥, counts in the language's grammar; the
// game log's sentence (which says "seat 2") only for a kind this page does not know yet.
function eventLine(e, fallback) {
  const seat = e.seat === null || e.seat === undefined ? "" : actorName(e);
  const cards = (list) => list.map(cardLabel).join(" ");
  const each = (pairs, what) => pairs.map(([s, n]) => t("log_seat_has", { seat: seatName(s), what: what(n) })).join(", ");
  switch (e.kind) {
    case "anted": return t(e.reason === "round" ? "log_round_ante" : e.reason === "last" ? "log_last_ante" : "log_ante", e);
    case "all_passed": return t("log_all_passed", e);
    case "redealt": return t("log_redealt", { seat });
    case "session_over":
      return e.reason === "ante" || e.reason === "stack" ? t(`log_session_over_${e.reason}`, { seat, chips: e.chips }) : t("log_session_over");
    case "overridden": return t("log_overridden", { seat, status: statusName(e.status) });
    case "forced": return t("log_forced", { seat });
    case "credited": return t("log_credited", { seat });
    case "settling": return t("log_settling", { pot: e.pot, tricks: each(e.tricks, (n) => plural("n_tricks", n)) });
    case "paid_out": return t("log_paid_out", { seat, chips: e.chips, why: paidWhy(e), pot: e.pot });
    case "paid_in": return t("log_paid_in", { seat, chips: e.chips, why: paidWhy(e), pot: e.pot });
    case "instant_win": return t("log_instant_win", { seat, win: view.table.wins?.[e.win] ?? e.win });
    case "took_pot": return t("log_took_pot", { seat, chips: e.chips });
    case "house_share": return t("log_house_share", { seat, chips: e.chips, percent: e.percent, taxed: e.taxed });
    case "settled": return t("log_settled", { stacks: each(e.stacks.map((n, i) => [i, n]), (n) => plural("n_chips", n)), pot: e.pot });
    case "dealt": return t("log_dealt", { seat: seatName(e.dealer), cards: plural("n_cards", e.size) });
    case "turned": return t("log_turned", { card: cardLabel(e.card), trump: suitLabel(e.trump) });
    case "called": // the call by name with what it carries, from the event's typed fields; where it drew from, the drew line says
      return t("log_called", { seat, call: callLabel(e.call, e.position, e.take_turned) });
    case "decided": // an answer to a rule's offer by name, from the event's typed fields, as a call's
      return t("log_called", { seat, call: [callLabel(e.answer, e.position, e.take_turned), ...(e.cards || []).map(cardLabel)].join(" ") });
    case "looked": return t("log_looked", { seat });
    case "played": return t(e.joker ? "log_played_joker" : "log_played", { seat, card: cardLabel(e.card) });
    case "took_trick": return t("log_took_trick", { seat, tricks: plural("n_tricks", e.count) });
    case "drew": { // (where from, when the rules let the seat choose and it chose other than the top)
      const what = { seat, cards: e.cards ? cards(e.cards) : plural("n_cards_taken", e.count), n: e.source };
      if (e.source === "bottom") return t("log_drew_bottom", what);
      if (typeof e.source === "number") return t("log_drew_at", what);
      return e.cards ? t("log_drew_cards", what) : t("log_drew", what);
    }
    case "exchanged": return e.cards ? (e.cards.length ? t("log_exchanged_cards", { seat, cards: cards(e.cards) }) : t("log_kept", { seat }))
                                     : e.count ? t("log_exchanged", { seat, cards: plural("n_cards_taken", e.count) }) : t("log_kept", { seat });
    case "discarded": return e.card ? t("log_discarded_card", { seat, card: cardLabel(e.card) }) : t("log_discarded", { seat });
    case "shown": return t("log_shown", { seat, cards: cards(e.cards) });
    case "swapped": return t("log_swapped", { seat, position: e.position, card: cardLabel(e.card) });
    case "took_turned": return t("log_took_turned", { seat, card: cardLabel(e.card) });
    case "named_trump": return t("log_named_trump", { seat, suit: suitLabel(e.suit) });
    default: return fallback;
  }
}

function drawLog() {
  if (!view.events.length) return null;  // (before the first deal: "What happened", open, over nothing)
  const lines = view.events.map((e, i) => eventLine(e, view.log[i]));
  return el("details", { class: "log", id: "log", open: logOpen, ontoggle: (ev) => { logOpen = ev.target.open; } },
    el("summary", {}, t("log")), el("ol", {}, lines.slice(-60).map((line) => el("li", {}, suited(line)))));
}

// The log's box scrolls: where its reader left it, else (at its end, or the first time) its newest line.
// A redraw makes a new box, whose scroll would start at the deal's first line, hiding what just happened.
function logScroll() {
  const box = document.querySelector("#log ol");
  const { scrollTop, scrollHeight, clientHeight } = box || { scrollTop: 0, scrollHeight: 0, clientHeight: 0 };
  const atEnd = scrollTop + clientHeight >= scrollHeight - 4;
  return () => {
    const now = document.querySelector("#log ol");
    if (now) now.scrollTop = atEnd ? now.scrollHeight : scrollTop;
  };
}

// Whether this seat is waited for: its decision in a deal, or its "next deal" between deals.
function myTurn() {
  if (!view || view.me === null) return false;
  const tb = view.table;
  if (tb.in_deal) return view.obs.to_act === view.me;
  return !tb.finished && !tb.seats[view.me].ready;
}

const ICON = (fill) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="1" width="12" height="14" rx="2" fill="#fff" stroke="#2f6b45" stroke-width="1.5"/><circle cx="8" cy="8" r="4" fill="${fill}"/></svg>`);
let signalled = null; // the step at which this seat's turn was last signalled

function signalTurn() {
  const mine = myTurn();
  document.title = (mine ? `● ${t("title_turn")} · ` : "") + (view.table.title || "khrap");
  let icon = document.querySelector("link[rel=icon]");
  if (!icon) { icon = el("link", { rel: "icon" }); document.head.append(icon); }
  icon.href = ICON(mine ? "#c0182b" : "#2f6b45");
  document.body.dataset.myTurn = mine ? "1" : "";
  if (!mine || signalled === view.table.step) return;
  signalled = view.table.step;
  if (localStorage.getItem("khrap-signal") !== "on") return;
  if (navigator.vibrate) navigator.vibrate(180);
  try {
    const audio = new AudioContext(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660; gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination); tone.start(); tone.stop(audio.currentTime + 0.15);
  } catch { /* no sound before the user has touched the page: the title and the icon still say it */ }
}

function signalSwitch() {
  const on = localStorage.getItem("khrap-signal") === "on";
  const said = on ? t("signal_on") : t("signal_off");  // "♪ sound off": a phone shows the note alone (its words in a label)
  return el("button", { type: "button", class: "lang", id: "signal", "aria-pressed": String(on), title: t("signal_help"),
                        "aria-label": said, onclick: () => { localStorage.setItem("khrap-signal", on ? "off" : "on"); draw(); } },
            said.startsWith("♪") ? ["♪", el("span", { class: "signal-words" }, said.slice(1))] : said);
}

// A host whose seat link plays no more (he left the table, or gave his own seat away) still hosts it: the way to
// the host's page, from this browser's keeping (the page said "To the start page" only, where "My tables" did
// not list the host's link either: his seats' controls were lost with his seat).
function hostWayBack() {
  const here = location.pathname + location.hash;
  const table = myTables().find((x) => x.link === here)?.table, mine = table && hostTokens()[table];
  if (!mine || mine === token) return null;
  return el("p", {}, el("a", { href: `/play#${mine}`, id: "host-page", onclick: (ev) => { ev.preventDefault(); location.hash = mine; location.reload(); } },
                        t("open_host")));
}

// The browser that created this table keeps its host token: its pages of the table get the host's controls.
function claimHost() {
  const mine = hostTokens()[view.table.id];
  if (!view.host && mine && !hostAsked) { hostAsked = true; send({ type: "host", token: mine }); }
}

// This seat is open on a newer connection (another device or tab): this page only watches until "Play here".
function elsewhere() {
  if (!view.elsewhere) return null;
  return el("p", { class: "banner", id: "elsewhere" }, t("elsewhere"), " ",
    el("button", { type: "button", id: "claim", class: "small", onclick: () => send({ type: "claim" }) }, t("play_here")));
}

// Leaving the table: two presses (the second confirms); the seat goes to its bot and this link stops playing it.
function leaveBox() {
  if (view.me === null || view.elsewhere || view.table.finished) return null;
  if (!leaving) return el("button", { type: "button", id: "leave", class: "small", onclick: () => { leaving = true; draw(); } }, t("leave"));
  return el("p", { class: "banner" }, t("leave_sure"), " ",
    el("button", { type: "button", id: "leave-confirm", class: "small", onclick: () => send({ type: "leave" }) }, t("leave_yes")), " ",
    el("button", { type: "button", class: "small", onclick: () => { leaving = false; draw(); } }, t("leave_no")));
}

// What a player's being away does (below the hand, by "Leave the table": the line over the seats is the deal's alone).
function awayRule() {
  if (view.me === null || view.table.finished) return null;  // (a spectator has no seat to be away from; nor has an evening over)
  return el("p", { class: "muted", id: "away-rule" }, t("takeover_rule", { seconds: Math.round(view.takeover_seconds) }));
}

// The host's controls: each seat's link, and handing a seat to a bot or to a new link (the old link stops).
function hostBox() {
  const h = view.host;
  if (!h || view.table.finished) return null; // an evening over has no seat to hand over
  const link = (tok) => `${location.origin}/play#${tok}`;
  const rows = view.table.seats.map((s, i) => {
    const tok = h.links[String(i)];
    return el("li", { "data-seat": i, class: "host-seat" }, el("b", { title: wholeName(i) }, seatName(i)), " ",
      tok ? [el("code", { class: "host-link" }, link(tok)), " ",
             el("button", { type: "button", class: "small copy", "data-copy": inviteLine(view.table.title, view.table.deals, i, link(tok)),
                            onclick: (ev) => copyText(inviteLine(view.table.title, view.table.deals, i, link(tok)), ev.currentTarget) }, t("copy")), " ",
             el("button", { type: "button", class: "small", "data-to-bot": i, onclick: () => { handing = { seat: i, to: "bot" }; draw(); } }, t("give_bot"))]
          : t("bot_kind", { kind: t(`bot_${s.bot}`) }), " ",
      el("button", { type: "button", class: "small", "data-new-link": i, onclick: () => { handing = { seat: i, to: "link" }; draw(); } }, t("new_link")),
      handing?.seat === i ? handingBox(i, handing.to, s.human) : null);
  });
  return el("details", { class: "hosting", id: "host", open: hostOpen, ontoggle: (ev) => { hostOpen = ev.target.open; } },
    el("summary", {}, t("host_title")),
    el("p", { class: "muted" }, t("host_seats_help")), el("ul", { class: "invites" }, rows));
}

// A seat handed over at once on the first tap took a friend's seat and stopped his link (one slip of the thumb
// on a phone's small buttons): as "Leave the table", the host says it twice.
function handingBox(seat, to, person) {
  const sure = to === "bot" ? t("host_sure_bot", { seat: seatName(seat) })
                            : person ? t("host_sure_link", { seat: seatName(seat) }) : t("host_sure_link_bot", { seat: seatName(seat) });
  return el("p", { class: "banner", id: "host-sure" }, sure, " ",
    el("button", { type: "button", id: "host-confirm", class: "small", onclick: () => { handing = null; send({ type: "seat", seat, to }); } },
       to === "bot" ? t("give_bot") : t("new_link")), " ",
    el("button", { type: "button", id: "host-keep", class: "small", onclick: () => { handing = null; draw(); } }, t("host_keep")));
}

function draw() {
  if (!view) {
    // (replaceChildren writes a null as the text "null": a revoked seat's page said it under its sentence)
    if (refusal) root.replaceChildren(...[el("p", { class: "refused", id: "refusal" }, refusal), hostWayBack(), el("p", {}, el("a", { href: "/" }, t("to_start")))].filter(Boolean));
    return;
  }
  drawTop();
  signalTurn();
  sheetBack();
  const tb = view.table;
  document.body.dataset.step = tb.step;
  document.body.dataset.toAct = tb.in_deal ? String(view.obs.to_act) : "";
  const banner = [];
  tb.seats.forEach((s, i) => { if (s.takeover) banner.push(t("takeover_banner", { seat: seatName(i) })); });
  tb.seats.forEach((s, i) => { if (s.why === "left" && !s.human) banner.push(t("left_banner", { seat: playerName(i) })); });
  const restoreLog = logScroll();
  root.replaceChildren(...[
    banner.length ? el("p", { class: "banner", id: "takeover" }, banner.join(" ")) : null,
    missed ? el("p", { class: "banner", id: "missed" }, suited(missed)) : null,  // (between deals too: the deals missed)
    el("p", { class: "muted deal-line", id: "deal-line" }, tb.deal ? t("deal_of", { deal: tb.deal, deals: tb.deals }) : t("deals_ahead", { deals: plural("n_deals", tb.deals) })),
    el("div", { class: "seats" }, tb.seats.map((_, i) => seatBox(i))),
    elsewhere(), clockNote(), drawCenter(), turnLine(), drawHand(), drawActions(),
    refusal ? el("p", { class: "refused", id: "refusal" }, refusal) : null,
    between(), nameBox(), hostBox(), leaveBox(), awayRule(), drawFair(), drawLog()].flat().filter(Boolean));
  restoreLog();
  drawn = true;
  keepClearOfBar();
  keepSeen();
}

// What this seat did while this page was not watching (its bot played it, or another device did), from the typed
// events: those of the seat since the last this browser saw of the deal (kept by table, in localStorage).
const DID = new Set(["called", "decided", "played", "exchanged", "discarded", "named_trump", "took_turned", "swapped"]);
function seenDeals() {
  try { const all = JSON.parse(localStorage.getItem("khrap-seen") || "{}"); return all && typeof all === "object" ? all : {}; }
  catch { return {}; }
}

// Back in a later deal (the phone slept over a settlement): the deals settled meanwhile and what they came to for
// this seat, then what was done at it in this deal (it said nothing: "Boris (you): Pass" in the log, a deal gone).
function missedSince() {
  const was = seenDeals()[view.table.id], tb = view.table;
  if (view.me === null || !was || !(was.deal <= tb.deal)) return null;
  const same = was.deal === tb.deal;
  const did = view.events.slice(same ? was.n : 0).filter((e) => e.seat === view.me && DID.has(e.kind))
    .map((e) => eventLine(e, null)).filter(Boolean);
  const settled = was.settled ?? Math.max(0, was.deal - 1); // deals settled when this browser last saw the table
  const played = tb.standings.length - settled;
  const told = [];
  if (played > 0) {
    const before = settled ? tb.standings[settled - 1][view.me] : tb.stacks;
    const change = signed(tb.standings.at(-1)[view.me] - before);
    told.push(played === 1 ? t("missed_deal", { deal: settled + 1, change })
                           : t("missed_deals", { first: settled + 1, last: tb.standings.length, change }));
  }
  return told.length || did.length ? t("missed", { what: [...told, ...did].join("; ") }) : null;
}

function keepSeen() {
  if (view.me === null || view.elsewhere) return;
  const all = seenDeals();
  delete all[view.table.id]; // (the newest last: the 30 newest kept)
  all[view.table.id] = { deal: view.table.deal, n: view.events.length, settled: view.table.standings.length };
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 30))) delete all[old];
  localStorage.setItem("khrap-seen", JSON.stringify(all));
}

// What the browser scrolls into view (a focused button, a found word, a row) stops below the sticky "Next deal"
// bar instead of under it: the page's scroll padding is the bar's height.
function keepClearOfBar() {
  const bar = document.querySelector("#next-bar.sticky");
  document.documentElement.style.scrollPaddingTop = bar ? `${bar.offsetHeight}px` : "";
}

if (!token) root.replaceChildren(el("p", { class: "refused" }, t("no_token")));
else connect();
