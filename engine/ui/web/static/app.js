// The page: the list of games, or one table. It holds no rules: it draws the position the
// server sends, and sends back actions in play's notation (docs/web.md).
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  table: null, // the server's id of this table
  plan: null, // the layout plan
  state: null, // the last record from the server
  legal: [], // its legal actions: { text, name, source, target, count, stock }
  picked: null, // { pile, count } chosen by a click
  hint: null, // { source, target, count, name }
  shownAt: 0, // when the last record came (for the clock)
  version: 0, // how many records have been shown (tests wait for the next)
  busy: false,
};

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data;
  try {
    data = await response.json();
  } catch (e) {
    data = { ok: false, error: `the server answered ${response.status}` };
  }
  return data;
}

function say(text, error) {
  const box = $("message");
  box.textContent = text || "";
  box.title = text || ""; // the whole of a line too long for the bar
  box.className = error ? "error" : "";
}

// --- the list of games ----------------------------------------------------------------------

async function showList() {
  $("list").hidden = false;
  document.title = "Solitaire";
  const data = await call("GET", "/api/games");
  if (!data.ok) return say(data.error, true);
  const body = document.querySelector("#games tbody");
  const select = $("pick-game");
  for (const game of data.games) {
    const row = document.createElement("tr");
    const link = document.createElement("a");
    link.href = `/play/${game.id}`;
    link.textContent = game.name;
    const cells = [link, game.id, String(game.decks), game.aliases.join(", ")];
    for (const value of cells) {
      const cell = document.createElement("td");
      if (typeof value === "string") cell.textContent = value;
      else cell.appendChild(value);
      row.appendChild(cell);
    }
    body.appendChild(row);
    const option = document.createElement("option");
    option.value = game.id;
    option.textContent = game.name;
    select.appendChild(option);
  }
  const saved = await call("GET", "/api/saves");
  for (const save of saved.saves || []) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/play/${encodeURIComponent(save.game)}?resume=${save.id}`;
    link.textContent = `${save.game}, ${save.seed !== null ? `deal ${save.seed}` : "a given deck"}`;
    item.append(link, ` (${save.moves} move${save.moves === 1 ? "" : "s"}, ${save.cards_home}/${save.cards} home, last played ${save.last_played})`);
    item.dataset.save = save.id;
    $("saves").appendChild(item);
    $("unfinished").hidden = false;
  }
  $("pick").addEventListener("submit", (event) => {
    event.preventDefault();
    const seed = $("pick-seed").value.trim();
    location.href = `/play/${encodeURIComponent(select.value)}` + (seed ? `?seed=${encodeURIComponent(seed)}` : "");
  });
}

// --- a table ----------------------------------------------------------------------------------

async function openTable(game) {
  $("felt").hidden = false;
  const query = new URLSearchParams(location.search);
  const body = { game };
  for (const key of ["seed", "deck", "resume", "auto"]) if (query.get(key)) body[key] = query.get(key);
  const data = await call("POST", "/api/tables", body);
  if (!data.table) {
    say(data.error, true);
    $("title").textContent = "";
    return;
  }
  page.table = data.table;
  page.plan = data.layout;
  $("title").textContent = data.name;
  document.title = `${data.name} - Solitaire`;
  $("tools").hidden = false;
  makeButtons(data.buttons);
  show(data);
  say([data.message, ...data.messages].filter(Boolean).join(" \u00b7 "));
  if (data.saved_games && data.saved_games.length) {
    // An unfinished game of this deal, kept apart: one click takes it up here.
    const link = document.createElement("a");
    link.id = "take-up";
    link.href = `/play/${encodeURIComponent(data.game)}?resume=${data.saved_games[0]}`;
    link.textContent = "continue it here";
    $("message").append(" \u00b7 ", link);
  }
  window.addEventListener("resize", () => draw());
  window.addEventListener("pagehide", () => navigator.sendBeacon(`/api/tables/${page.table}/close`));
  setInterval(status, 1000);
}

function makeButtons(buttons) {
  const box = $("own");
  box.textContent = "";
  page.keys = {};
  for (const b of buttons) {
    const button = document.createElement("button");
    button.textContent = b.name;
    button.dataset.action = b.name;
    button.title = b.help + (b.keys.length ? ` (${b.keys.join(", ")})` : "");
    button.addEventListener("click", () => send(b.name));
    box.appendChild(button);
    for (const key of b.keys) if (key.length === 1) page.keys[key] = b.name;
  }
}

// The address of this deal, to bookmark and share.
function remember(data) {
  const query = new URLSearchParams();
  if (data.seed !== null && data.seed !== undefined) query.set("seed", String(data.seed));
  else if (data.deck) query.set("deck", data.deck.join(" "));
  if (!data.auto_moves) query.set("auto", "off");
  const address = `/play/${data.game}?${query}`;
  if (location.pathname + location.search !== address) history.replaceState(null, "", address);
}

// The legal actions with where they go: play's texts ("moves", as play --json lists them)
// beside their piles ("move_piles", in the same order).
function legalActions(data) {
  return (data.moves || []).map((text, i) => ({ text, ...data.move_piles[i] }));
}

function show(data) {
  page.state = data;
  page.legal = legalActions(data);
  page.version += 1;
  page.shownAt = Date.now();
  page.picked = null;
  remember(data);
  draw();
  status();
  $("undo").disabled = !data.can_undo;
  $("redo").disabled = !data.can_redo;
  for (const button of $("own").children) button.disabled = !page.legal.some((a) => a.name === button.dataset.action && !a.source);
}

function status() {
  const data = page.state;
  if (!data) return;
  const seconds = Math.floor(data.seconds + (data.over ? 0 : (Date.now() - page.shownAt) / 1000));
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  const box = $("status");
  box.textContent = "";
  const parts = [
    `${data.cards_placed}/${data.cards} ${data.score_label}`,
    `${data.moves_made} move${data.moves_made === 1 ? "" : "s"}`,
    time,
    data.seed !== null && data.seed !== undefined ? `deal ${data.seed}` : "given deck",
  ];
  box.append(parts.join(" \u00b7 "));
  if (data.no_win && !data.over) {
    const warn = document.createElement("span");
    warn.className = "warn";
    // A few words in the bar, as the terminal table says it; the whole sentence on hover.
    warn.textContent = " \u00b7 no win is possible from here";
    warn.title = data.no_win;
    box.append(warn);
  }
}

// --- drawing ----------------------------------------------------------------------------------

function draw() {
  const data = page.state;
  const felt = $("felt");
  if (!data || !page.plan) return;
  const hidden = data.hidden || {};
  const faceDown = {};
  for (const name in data.piles) faceDown[name] = data.piles[name].map((_, i) => (hidden[name] || []).includes(i));
  const top = 26; // below the message line
  const { scale, places } = Layout.table(page.plan, faceDown, felt.clientWidth, felt.clientHeight - top);
  felt.textContent = "";
  for (const name in data.piles) {
    const place = places[name];
    if (!place) continue;
    const pile = document.createElement("div");
    pile.className = "pile";
    pile.dataset.pile = name;
    pile.style.left = `${place.x}px`;
    pile.style.top = `${place.y + top}px`;
    pile.style.width = `${place.w}px`;
    pile.style.height = `${place.h}px`;
    const slot = document.createElement("div");
    slot.className = "slot";
    slot.style.width = `${scale}px`;
    slot.style.height = `${scale * Layout.H}px`;
    slot.textContent = name;
    pile.appendChild(slot);
    const cards = data.piles[name];
    const down = faceDown[name];
    const offsets = Layout.fan(place, down, scale);
    cards.forEach((card, i) => {
      const element = document.createElement("div");
      element.className = "card";
      element.dataset.card = card;
      element.dataset.index = String(i);
      if (down[i]) element.dataset.down = "1";
      element.style.left = `${offsets[i][0]}px`;
      element.style.top = `${offsets[i][1]}px`;
      element.style.width = `${scale}px`;
      element.style.height = `${scale * Layout.H}px`;
      element.innerHTML = down[i] ? Cards.back() : Cards.face(card);
      if (page.picked && page.picked.pile === name && i >= cards.length - page.picked.count) element.classList.add("picked");
      if (page.hint && page.hint.source === name && i >= cards.length - page.hint.count) element.classList.add("hint");
      pile.appendChild(element);
    });
    if (page.hint && page.hint.target === name) pile.classList.add("hint");
    felt.appendChild(pile);
  }
  if (data.over) {
    const banner = document.createElement("div");
    banner.className = "over";
    banner.textContent = data.result === "won" ? "Won!" : data.result === "lost" ? "No more moves: lost" : "Game over";
    felt.appendChild(banner);
  }
}

// --- playing ----------------------------------------------------------------------------------

async function send(command, answer) {
  if (!page.table || page.busy) return null;
  page.busy = true;
  try {
    const data = await call("POST", `/api/tables/${page.table}/command`, answer ? { command, answer } : { command });
    if (!("piles" in data)) {
      say(data.error, true);
      return data;
    }
    page.hint = null;
    for (const b of $("own").children) b.classList.remove("hint");
    if (data.hint) {
      page.hint = { source: data.hint_source, target: data.hint_target, count: data.hint_count };
      if (!data.hint_source) {
        const button = [...$("own").children].find((b) => b.dataset.action === data.hint.split(" ")[0]);
        if (button) button.classList.add("hint");
      }
    }
    if (data.rules) {
      $("rules-text").textContent = data.rules;
      $("rules").showModal();
    }
    show(data);
    // The player's own words (the same as line mode's), after a note from the server.
    if (!data.ok) say(data.error, true);
    else say([data.message, ...data.messages].filter(Boolean).join(" \u00b7 "));
    return data;
  } finally {
    page.busy = false;
  }
}

// Restart or a new deal: first the question line mode asks when the game has moves (keep it
// saved, abandon it, or go on), its choices as buttons and their keys.
function leave(kind) {
  const question = (page.state.questions || {})[kind];
  if (!question) return send(kind);
  const box = $("ask");
  const choose = (means) => {
    box.close();
    if (means !== "cancel") send(kind, means);
  };
  $("ask-text").textContent = question.text;
  const choices = $("ask-choices");
  choices.textContent = "";
  for (const choice of question.choices) {
    const button = document.createElement("button");
    button.textContent = choice.word;
    button.dataset.means = choice.means;
    button.title = `(${choice.key})`;
    button.addEventListener("click", () => choose(choice.means));
    choices.appendChild(button);
  }
  box.onkeydown = (event) => {
    const choice = question.choices.find((c) => c.key === event.key.toLowerCase());
    if (choice) {
      event.preventDefault();
      choose(choice.means);
    } else if (event.key === "Enter") {
      event.preventDefault();
      choose(question.default);
    }
  };
  box.showModal();
}

function actions() {
  return page.legal;
}

function role(name) {
  return page.plan.roles[name];
}

// A move of `count` cards from `source` to `target`: the legal action that is just that, or
// else the words, for the server to say why not.
function move(source, target, count) {
  page.picked = null;
  const legal = actions().find((a) => a.source === source && a.target === target && a.count === count);
  if (legal) return send(legal.text);
  const single = actions().find((a) => a.source === source && a.target === target);
  if (single && count === 1) return send(single.text);
  return send(count > 1 ? `${source} ${target} ${count}` : `${source} ${target}`);
}

function clickPile(name, index) {
  const cards = page.state.piles[name];
  if (page.picked) {
    const picked = page.picked;
    if (picked.pile === name) {
      page.picked = null;
      mark();
      return;
    }
    move(picked.pile, name, picked.count);
    return;
  }
  if (role(name) === "stock") {
    const draw = actions().find((a) => a.stock) || actions().find((a) => a.source === name && !a.target);
    if (draw) send(draw.text);
    else say("the stock cannot be played now", true);
    return;
  }
  // An action on this pile alone (a chain started from it, a card taken by itself).
  const alone = actions().find((a) => a.source === name && !a.target);
  if (alone) {
    send(alone.text);
    return;
  }
  if (!cards.length) return;
  const chosen = index === null || index === undefined ? cards.length - 1 : index;
  const hidden = (page.state.hidden || {})[name] || [];
  if (hidden.includes(chosen)) {
    say("that card is face down", true);
    return;
  }
  page.picked = { pile: name, count: cards.length - chosen };
  say(`${cards[chosen]}${page.picked.count > 1 ? ` and the ${page.picked.count - 1} on it` : ""}: now click where it goes`);
  mark();
}

// The picked cards marked, without drawing the table again (a double click needs the same
// elements under both of its clicks).
function mark() {
  for (const card of document.querySelectorAll(".card.picked")) card.classList.remove("picked");
  const picked = page.picked;
  if (!picked) return;
  const cards = document.querySelectorAll(`[data-pile="${picked.pile}"] .card`);
  cards.forEach((card, i) => {
    if (i >= cards.length - picked.count) card.classList.add("picked");
  });
}

function sendHome(name) {
  page.picked = null;
  const home = actions().find((a) => a.source === name && a.target && role(a.target) === "foundation" && a.count === 1);
  if (home) send(home.text);
  else {
    const cards = page.state.piles[name] || [];
    say(cards.length ? `${cards[cards.length - 1]} cannot go home now` : `${name} is empty`, true);
    mark();
  }
}

// --- the mouse ----------------------------------------------------------------------------------

const drag = { start: null, moved: false, layer: null };

function pileAt(x, y) {
  const element = document.elementFromPoint(x, y);
  const pile = element && element.closest("[data-pile]");
  return pile ? pile.dataset.pile : null;
}

function onDown(event) {
  if (event.button !== 0 || !page.state) return;
  const card = event.target.closest(".card");
  const pile = event.target.closest("[data-pile]");
  if (!pile) return;
  drag.start = {
    x: event.clientX,
    y: event.clientY,
    pile: pile.dataset.pile,
    index: card ? Number(card.dataset.index) : null,
    element: card,
  };
  drag.moved = false;
}

function onMove(event) {
  const start = drag.start;
  if (!start || start.index === null) return;
  if (!drag.moved) {
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) < 6) return;
    if (start.element.dataset.down) return;
    drag.moved = true;
    const pileElement = start.element.parentElement;
    const layer = document.createElement("div");
    layer.id = "drag";
    const box = pileElement.getBoundingClientRect();
    for (const card of pileElement.querySelectorAll(".card")) {
      if (Number(card.dataset.index) < start.index) continue;
      const copy = card.cloneNode(true);
      copy.style.left = `${box.left + parseFloat(card.style.left)}px`;
      copy.style.top = `${box.top + parseFloat(card.style.top)}px`;
      layer.appendChild(copy);
      card.style.visibility = "hidden";
    }
    document.body.appendChild(layer);
    drag.layer = layer;
  }
  drag.layer.style.transform = `translate(${event.clientX - start.x}px, ${event.clientY - start.y}px)`;
}

function onUp(event) {
  const start = drag.start;
  drag.start = null;
  if (!start) return;
  if (drag.moved) {
    drag.layer.remove();
    drag.layer = null;
    drag.moved = false;
    const target = pileAt(event.clientX, event.clientY);
    const count = page.state.piles[start.pile].length - start.index;
    page.picked = null;
    if (target && target !== start.pile) move(start.pile, target, count);
    else draw();
    return;
  }
  clickPile(start.pile, start.index);
}

function onDouble(event) {
  const card = event.target.closest(".card");
  const pile = event.target.closest("[data-pile]");
  if (!card || !pile || role(pile.dataset.pile) === "stock") return;
  sendHome(pile.dataset.pile);
}

function onKey(event) {
  if (!page.table || event.target.tagName === "INPUT" || $("rules").open || $("ask").open) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "z") send(event.shiftKey ? "redo" : "undo");
  else if ((event.ctrlKey || event.metaKey) && key.toLowerCase() === "y") send("redo");
  else if (event.ctrlKey || event.metaKey || event.altKey) return;
  else if (key === "u") send("undo");
  else if (key === "r" && !page.keys.r) send("redo");
  else if (key === "h") send("hint");
  else if (key === "Escape") {
    page.picked = null;
    mark();
  } else if (page.keys[key]) send(page.keys[key]);
  else return;
  event.preventDefault();
}

function start() {
  $("undo").addEventListener("click", () => send("undo"));
  $("redo").addEventListener("click", () => send("redo"));
  $("hint").addEventListener("click", () => send("hint"));
  $("rules-button").addEventListener("click", () => send("rules"));
  $("restart").addEventListener("click", () => leave("restart"));
  $("new").addEventListener("click", () => leave("new"));
  const felt = $("felt");
  felt.addEventListener("pointerdown", onDown);
  window.addEventListener("pointermove", onMove);
  window.addEventListener("pointerup", onUp);
  felt.addEventListener("dblclick", onDouble);
  window.addEventListener("keydown", onKey);
  const match = location.pathname.match(/^\/play\/([^/]+)$/);
  if (match) openTable(decodeURIComponent(match[1]));
  else showList();
}

start();
