// What both pages share: the interface's words (from the server's gettext catalogs), cards, elements.

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
let WORDS = {};
let OWN = {}; // the page's words a table's variant says its own way (its terms:, substituted by the server): they win
let RANKS = {}; // each rank's CONTRACT letter as the language's rule sheet prints it (Russian В Д К Т; T: 10)
let SUIT_NAMES = {}; // each suit's name in the language (пики): a card's tooltip
let LANGS = ["en"]; // the page's languages, as the server lists them
export let LANG = "en";

export async function loadWords() {
  const stored = localStorage.getItem("khrap-lang");
  const asked = new URLSearchParams(location.search).get("lang");
  LANG = asked || stored || (navigator.language || "en").slice(0, 2);
  const reply = await fetch("/api/variants");
  const data = await reply.json();
  LANGS = Object.keys(data.ui);
  if (!data.ui[LANG]) LANG = "en";
  WORDS = data.ui[LANG];
  RANKS = (data.ranks && data.ranks[LANG]) || {};
  SUIT_NAMES = (data.suits && data.suits[LANG]) || {};
  document.documentElement.lang = LANG;
  return data;
}

export function setLang(lang) {
  localStorage.setItem("khrap-lang", lang);
}

// The words of the table's variant (the view's table.own: only those its terms change), or none.
export function ownWords(words) {
  OWN = words || {};
}

// t("seat_n", {seat: 2}): a word of the catalog (in the table's variant's own words) with its {placeholders} filled in
export function t(key, values = {}) {
  const text = OWN[key] ?? WORDS[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

// plural("n_tricks", 2): "2 tricks", in the language's grammar (the catalog's forms for 1, 2 and 5)
export function plural(key, n) {
  const forms = OWN[key] ?? WORDS[key];
  if (!Array.isArray(forms)) return String(n);
  const kind = new Intl.PluralRules(LANG).select(n);
  return forms[kind === "one" ? 0 : kind === "few" ? 1 : 2].replace("{n}", number(n));
}

// number(-40): "−40", a minus sign as the settlement's columns print it (not the hyphen String() gives)
export function number(n) {
  return n < 0 ? `\u2212${-n}` : String(n);
}

// suited("Trump ♦"): the text with each ♥ and ♦ in red, as on the cards (a button, a log line, the turn's line)
export function suited(text) {
  return String(text).split(/([♥♦])/).filter(Boolean).map((part) => (part === "♥" || part === "♦" ? el("span", { class: "suit-red" }, part) : part));
}

// el("div", {class: "x"}, child, "text"): an element; text is always a text node, never HTML
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// cardLabel("QH"): "Д♥" on the Russian page; data attributes and the actions sent keep the code
export function cardLabel(card) {
  const code = card.slice(0, -1);
  const rank = RANKS[code] ?? (code === "T" ? "10" : code);
  return rank + (SUITS[card.slice(-1)] || card.slice(-1));
}

// cardTitle("QH"): "Д♥ (черви)", a card's tooltip in the reader's words, never its code
export function cardTitle(card) {
  const name = SUIT_NAMES[card.slice(-1)];
  return name ? `${cardLabel(card)} (${name})` : cardLabel(card);
}

export function suitLabel(suit) {
  return SUITS[suit] || suit;
}

export function card(cardText, attrs = {}) {
  const red = "HD".includes(cardText.slice(-1));
  return el(attrs.onclick ? "button" : "span",
            { class: `card${red ? " red" : ""}${attrs.extra ? " " + attrs.extra : ""}`, "data-card": cardText,
              title: cardTitle(cardText), ...Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== "extra")) },
            cardLabel(cardText));
}

// What an invite says besides its link, so the friend it is sent to knows the game: "Khrap (8 deals), Seat 1: LINK"
// (a bare link said nothing of the rules; the copy buttons copy this line).
export function inviteLine(title, deals, seat, link) {
  const table = t("invite_table", { title, deals: plural("n_deals", deals) });
  return seat === null ? `${table}: ${link}` : t("invite_line", { table, seat: t("seat_n", { seat }), link });
}

// A copy button's work: the invite to the clipboard, and the button says whether it went there.  The clipboard API
// exists only in a secure context (https, or this machine): at a table served on the home network over http
// (`khrap serve --host 0.0.0.0`, opened at http://192.168.…) navigator.clipboard is undefined and "copy" did
// nothing, without a word.  There the text is copied from a selected, unseen text box.
export async function copyText(text, button) {
  let done = false;
  if (navigator.clipboard && window.isSecureContext) {
    try { await navigator.clipboard.writeText(text); done = true; } catch { done = false; }
  }
  if (!done) {
    const box = el("textarea", { class: "copy-buffer", readonly: true, "aria-hidden": "true" });
    box.value = text;
    document.body.append(box);
    box.select();
    try { done = document.execCommand("copy"); } catch { done = false; }
    box.remove();
  }
  const label = t("copy");
  button.textContent = done ? t("copied") : t("copy_failed");
  setTimeout(() => { if (button.isConnected) button.textContent = label; }, 2500);
  return done;
}

// The language buttons.  A phone's head shows the page's own alone (style.css): a tap on it unfolds the others.
export function langSwitch() {
  const box = el("span", { class: "langs" },
    LANGS.map((lang) => el("button", {
      class: lang === LANG ? "lang on" : "lang", "data-lang": lang, "aria-expanded": lang === LANG ? "false" : null,
      onclick: (ev) => {
        if (lang === LANG && getComputedStyle(box).getPropertyValue("--folded").trim() === "1") {
          ev.currentTarget.setAttribute("aria-expanded", String(box.classList.toggle("open")));
          return;
        }
        setLang(lang); const u = new URL(location.href); u.searchParams.set("lang", lang); location.href = u.href;
      },
    }, lang.toUpperCase())));
  return box;
}

// "My tables", kept in this browser (localStorage): the links it created or opened, newest first.
export function myTables() {
  try { return JSON.parse(localStorage.getItem("khrap-tables") || "[]").filter((x) => x && typeof x.link === "string"); }
  catch { return []; }
}

export function rememberTable(entry) {
  const all = myTables(), old = all.find((x) => x.link === entry.link);
  const kept = all.filter((x) => x !== old);
  localStorage.setItem("khrap-tables", JSON.stringify([{ ...old, ...entry }, ...kept].slice(0, 30)));
}

// The host's token of each table this browser created (table id -> token): its pages of that table show
// the host's controls (hand a seat to a bot or to a new link).  Kept in this browser only.
export function hostTokens() {
  try { const found = JSON.parse(localStorage.getItem("khrap-hosts") || "{}"); return found && typeof found === "object" ? found : {}; }
  catch { return {}; }
}

export function rememberHost(table, token) {
  const all = hostTokens();
  all[table] = token;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 30))) delete all[old]; // the 30 newest
  localStorage.setItem("khrap-hosts", JSON.stringify(all));
}

// Small pictures drawn as inline SVG (a face, a thumb, a clock): the page needs no emoji font (a machine
// without one showed boxes) and fetches nothing (the page's CSP).  Each is shapes on a 20×20 grid; the
// stylesheet colours them by class (.icon .face, .ink, .fill).
const ICONS = {
  thumbs_up: [["path", { class: "fill", d: "M3 9h3v9H3z" }],
              ["path", { class: "fill", d: "M7 9l3.2-6.2c1.4 0 2.3.9 2.3 2.3V8h4c1.1 0 1.9 1 1.6 2l-1.5 6.3c-.2.9-1 1.7-2 1.7H7z" }]],
  laugh: [["circle", { class: "face", cx: 10, cy: 10, r: 8.5 }], ["path", { class: "line", d: "M5.5 8q1.5-2 3 0M11.5 8q1.5-2 3 0" }],
          ["path", { class: "ink", d: "M5 11h10a5 5 0 0 1-10 0z" }]],
  wow: [["circle", { class: "face", cx: 10, cy: 10, r: 8.5 }], ["circle", { class: "ink", cx: 7, cy: 7.5, r: 1.2 }],
        ["circle", { class: "ink", cx: 13, cy: 7.5, r: 1.2 }], ["ellipse", { class: "ink", cx: 10, cy: 13.2, rx: 2.2, ry: 2.8 }]],
  grimace: [["circle", { class: "face", cx: 10, cy: 10, r: 8.5 }], ["circle", { class: "ink", cx: 7, cy: 7.5, r: 1.2 }],
            ["circle", { class: "ink", cx: 13, cy: 7.5, r: 1.2 }], ["rect", { class: "teeth", x: 5, y: 11, width: 10, height: 4, rx: 1.5 }],
            ["path", { class: "line thin", d: "M5 13h10M8.3 11v4M11.7 11v4" }]],
  party: [["path", { class: "fill", d: "M3 18l3.5-10.5 7 7z" }], ["path", { class: "line", d: "M12 3v2M15 6l2-2M17 9h2" }],
          ["circle", { class: "dot", cx: 10, cy: 7, r: 1 }], ["circle", { class: "dot", cx: 15, cy: 12, r: 1 }]],
  clock: [["circle", { class: "line", cx: 10, cy: 11, r: 7 }], ["path", { class: "line", d: "M10 11V7M10 11l3 2M8 2h4" }]],
};

// icon("laugh", "Ha ha"): the picture, named for a screen reader and a tooltip by ``label``.
export function icon(name, label) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "0 0 20 20");
  svg.setAttribute("class", `icon icon-${name}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.dataset.icon = name;
  const title = document.createElementNS(NS, "title");
  title.textContent = label;
  svg.append(title);
  for (const [tag, attrs] of ICONS[name] || []) {
    const shape = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}

export function hasIcon(name) {
  return name in ICONS;
}
