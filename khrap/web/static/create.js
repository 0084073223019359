// The create page: a built-in or a house rule (checked by the server in upload mode, mistakes shown
// beside the text), players, stacks, base stake, bots; then every seat's invite link.
import { LANG, copyText, el, inviteLine, langSwitch, loadWords, myTables, plural, rememberHost, rememberTable, setLang, t } from "./common.js";

const data = await loadWords();
const $ = (id) => document.getElementById(id);
document.title = t("create_title");
$("top").append(el("h1", {}, t("create_title")), langSwitch());

const form = $("form");
let checkedRange = null; // [min, max] players of the checked house rule
let checkedTitle = null; // the checked house rule's title, in the page's language

function field(label, input) {
  return el("label", { class: "field" }, el("span", {}, label), input);
}

const variant = el("select", { id: "variant", name: "variant" },
  data.variants.map((v) => el("option", { value: v.name }, `${v.title[document.documentElement.lang] || v.title.en} (${v.name})`)),
  el("option", { value: "" }, t("house_rule")));
const house = el("textarea", { id: "house", rows: 12, spellcheck: "false", placeholder: "extends: khrap\nbase_stake: 2" });
const file = el("input", { type: "file", id: "file", accept: ".yaml,.yml,text/yaml,text/plain" });
const mistakes = el("ul", { id: "mistakes", class: "mistakes" });
const checkButton = el("button", { type: "button", id: "check" }, t("check"));
const players = el("input", { type: "number", id: "players", min: 1, max: 16, value: 4 });
const stacks = el("input", { type: "number", id: "stacks", min: 1, max: 1000000, value: 100 });
const stake = el("input", { type: "number", id: "stake", min: 1, max: 1000000, value: 1 });
const deals = el("input", { type: "number", id: "deals", min: 1, max: 500, value: 10 });
const clock = el("input", { type: "number", id: "clock", min: 0, max: 3600, value: 0, title: t("clock_help") });
const seatsBox = el("div", { id: "seats", class: "seats-setup" });
const houseBox = el("div", { id: "housebox", class: "house", hidden: true },
  el("div", { class: "house-text" }, field(t("house_text"), house), file, checkButton),
  el("div", { class: "house-mistakes" }, el("h3", {}, t("mistakes")), mistakes));

form.append(
  field(t("variant"), variant), houseBox,
  el("div", { class: "row" }, field(t("players"), players), field(t("stacks"), stacks),
     field(t("base_stake"), stake), field(t("deals"), deals), field(t("clock"), clock)),
  el("h3", {}, t("seats")), seatsBox,
  el("button", { type: "submit", id: "create", class: "primary" }, t("create")));

function range() {
  if (!variant.value) return checkedRange || [1, 16];
  return data.variants.find((v) => v.name === variant.value).players;
}

function drawSeats() {
  const [low, high] = range();
  players.min = low; players.max = high;
  let n = Math.min(Math.max(parseInt(players.value, 10) || low, low), high);
  const old = Array.from(seatsBox.querySelectorAll("select")).map((s) => s.value);
  seatsBox.replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    const choice = el("select", { "data-seat": seat, id: `seat-${seat}` },
      el("option", { value: "" }, t("person")),
      data.bots.map((kind) => el("option", { value: kind }, t("bot_kind", { kind: t(`bot_${kind}`) }))));
    choice.value = old[seat] ?? (seat === 0 ? "" : "normal");
    seatsBox.append(field(t("seat_n", { seat }), choice));
  }
}

// The house box is shown exactly when "a house rule" is chosen, and whatever is typed, pasted or
// uploaded into it chooses it: the table made is the one whose file the page shows.
function chooseHouse() {
  if (variant.value !== "") { variant.value = ""; houseBox.hidden = false; drawSeats(); }
}

variant.addEventListener("change", () => {
  houseBox.hidden = variant.value !== "";
  const v = data.variants.find((x) => x.name === variant.value);
  if (v) { players.value = Math.max(v.players[0], Math.min(4, v.players[1])); stake.value = v.base_stake; }
  drawSeats();
});
players.addEventListener("input", drawSeats);
house.addEventListener("input", chooseHouse);
file.addEventListener("change", async () => {
  if (!file.files[0]) return;
  chooseHouse();
  if (tooBig(file.files[0].size)) { house.value = ""; return; } // (not read: a file of megabytes froze the page)
  // Read strictly: File.text() put U+FFFD for every byte that is not UTF-8, so a file saved as Windows-1251 or
  // Latin-1 was "valid" with its names garbled ("Caf� rules"), where `khrap validate` says "not UTF-8 text".
  const bytes = new Uint8Array(await file.files[0].arrayBuffer());
  const line = notUtf8Line(bytes);
  if (line) { house.value = ""; showMistakes([{ message: t("house_not_utf8", { line }) }]); return; }
  house.value = new TextDecoder("utf-8").decode(bytes);
  await check();
});
checkButton.addEventListener("click", check);

function showMistakes(errors) {
  mistakes.replaceChildren(...errors.map((e) => el("li", { class: "mistake" },
    e.line ? el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); goTo(e.line, e.col); } },
                t("line_col", { line: e.line, col: e.col ?? 1 })) : null,
    " ", e.message)));
}

function goTo(line, col) {
  const lines = house.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += (col || 1) - 1;
  house.focus();
  house.setSelectionRange(at, at);
}

async function post(url, body) {
  const reply = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return reply.json();
}

// A house-rule file over the server's limit is measured here and refused in the page's words: the server's refusal
// said "a request is at most 272 KiB", in English on every page, of a file the player had never called a request.
function tooBig(bytes = new TextEncoder().encode(house.value).length) {
  if (!data.upload_bytes || bytes <= data.upload_bytes) return false;
  showMistakes([{ message: t("house_too_big", { size: Math.ceil(bytes / 1024), most: data.upload_bytes / 1024 }) }]);
  return true;
}

// The first line (from 1) holding bytes that are not UTF-8, or 0 when all are: lines are split at the newline
// byte, which is never inside a UTF-8 character.
function notUtf8Line(bytes) {
  const strict = new TextDecoder("utf-8", { fatal: true });
  for (let line = 1, start = 0, i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 10) continue;
    try { strict.decode(bytes.subarray(start, i)); } catch { return line; }
    line++; start = i + 1;
  }
  return 0;
}

async function check() {
  if (tooBig()) return false;
  const answer = await post("/api/validate", { text: house.value, lang: document.documentElement.lang });
  if (answer.ok) {
    chooseHouse();
    checkedRange = answer.players;
    checkedTitle = answer.title[document.documentElement.lang] || answer.title.en;
    stake.value = answer.base_stake;
    // chips each at least what the rules deal in (hrapoff.yaml: 3 base stakes of 100): the page's 100 made a table
    // refused at its making (it was made, then stuck at its first deal)
    if (answer.min_stack) stacks.value = Math.max(Number(stacks.value) || 0, answer.min_stack * answer.base_stake);
    mistakes.replaceChildren(el("li", { class: "ok" }, t("house_ok", { title: answer.title[document.documentElement.lang] || answer.title.en })));
    drawSeats();
  } else showMistakes(answer.errors);
  return answer.ok;
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const bots = {};
  seatsBox.querySelectorAll("select").forEach((s) => { if (s.value) bots[s.dataset.seat] = s.value; });
  const body = { players: +players.value, stacks: +stacks.value, base_stake: +stake.value, deals: +deals.value, clock: +clock.value || 0, bots, lang: document.documentElement.lang };
  if (variant.value) body.variant = variant.value;
  else body.text = house.value; // the server refuses an empty file with a reason, never plays a built-in instead
  if (!variant.value && tooBig()) return;
  if (!variant.value && !checkedTitle) await check(); // (its title, for the invites)
  const answer = await post("/api/tables", body);
  if (!answer.ok) { houseBox.hidden = variant.value !== ""; showMistakes(answer.errors); if (variant.value) alertBox(answer.errors); return; }
  showLinks(answer);
});

function alertBox(errors) {
  $("links").replaceChildren(el("p", { class: "refused" }, errors.map((e) => e.message).join("; ")));
}

function copyButton(text) {
  return el("button", { type: "button", class: "copy", "data-copy": text, onclick: (ev) => copyText(text, ev.currentTarget) }, t("copy"));
}

// The rules' title as the page names them: the built-in's in the page's language, or the checked house rule's.
function rulesTitle() {
  const v = data.variants.find((x) => x.name === variant.value);
  return v ? v.title[document.documentElement.lang] || v.title.en : checkedTitle || t("house_rule");
}

function showLinks(answer) {
  form.hidden = true;
  // The host made the table in the language he asked the page for (/?lang=ru): his seat's page and his host page,
  // opened from here, speak it too (their links carry no language: the same links are the invites, and a friend's
  // browser chooses its own).  The host's seat came up in the browser's English.
  if (new URLSearchParams(location.search).get("lang")) setLang(LANG);
  const title = rulesTitle(), count = +deals.value;
  rememberHost(answer.table, new URL(answer.host).hash.slice(1));
  const links = [{ seat: null, link: answer.host, host: true }, { seat: null, link: answer.spectator },
                 ...answer.seats.filter((s) => s.human).reverse()];
  for (const s of links) { // the host keeps every link he made (his own seat's first on the list; his host page too)
    const url = new URL(s.link);
    rememberTable({ link: url.pathname + url.hash, title, seat: s.seat, table: answer.table, host: !!s.host,
                    state: "waiting", seen: Date.now() });
  }
  const rows = answer.seats.map((s) => el("li", { class: "invite" },
    el("b", {}, t("seat_n", { seat: s.seat })), " ",
    s.human ? [el("a", { href: s.link, class: "seat-link", "data-seat": s.seat, target: "_blank" }, t("open_seat")), " ",
               el("code", {}, s.link), copyButton(inviteLine(title, count, s.seat, s.link))]
            : t("bot_kind", { kind: t(`bot_${s.bot}`) })));
  $("links").replaceChildren(
    el("h2", {}, t("links_title")), el("p", { id: "invite-table" }, el("b", {}, t("invite_table", { title, deals: plural("n_deals", count) }))),
    el("p", {}, t("links_help")),
    el("p", { class: "fingerprint" }, t("fingerprint"), ": ", el("code", { id: "fingerprint" }, answer.fingerprint)),
    el("ul", { class: "invites" }, rows),
    el("p", {}, el("b", {}, t("spectators")), " ", el("a", { href: answer.spectator, id: "spectator-link", target: "_blank" }, t("watch")),
       " ", el("code", {}, answer.spectator), copyButton(inviteLine(title, count, null, answer.spectator))),
    el("p", {}, el("b", {}, t("host_link")), " ", el("a", { href: answer.host, id: "host-link", target: "_blank" }, t("open_host")),
       " ", el("span", { class: "muted" }, t("host_help"))));
}

// "My tables": what this browser created or opened, as it stood when last seen; links stay here only.
function drawMine() {
  const mine = myTables();
  if (!mine.length) return;
  $("mine").replaceChildren(el("h2", {}, t("my_tables")), el("ul", { class: "invites" }, mine.map((x) => el("li", { class: "mine" },
    el("a", { href: x.link, target: "_blank" }, x.title || "khrap"), " · ",
    x.host ? t("mine_host") : x.seat === null || x.seat === undefined ? t("watch") : x.name || t("seat_n", { seat: x.seat }), " · ", // his name there
    x.state === "revoked" ? t("state_revoked") : x.state === "finished" ? t("state_finished") : x.state === "playing" ? t("deal_of", { deal: x.deal, deals: x.deals }) : t("state_waiting")))));
}

drawSeats();
drawMine();
