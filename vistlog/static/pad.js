// vistlog score pad: composes each deal as a line of the deal notation (docs/notation.md) from taps;
// the server checks it with the same state machine as `vistlog append` and writes it to the chained log.
"use strict";

const T = {
  ru: {
    tab_deal: "Сдача", tab_sheet: "Пулька", tab_deals: "Сдачи", tab_replay: "Просмотр", tab_new: "Новая игра",
    tab_files: "Файлы", no_game: "Нет игры: начните новую.", dealer: "Сдаёт", declarer: "Играет", calls: "Висты",
    played: "Записать взятки", line: "Строка", record: "Записать", clear: "Сброс", game_ended: "Игра окончена.", game_over: "Игра окончена",
    settlement: "Расчёт", undo: "Отменить последнюю сдачу", end_game: "Закончить игру",
    adjustment: "Поправка по согласию", lines: "Сдачи строкой", players: "Игроки по кругу", preset: "Правила",
    pool: "Пуля", stake: "Ставка за вист", game_id: "Игра", options: "Опции правил", start: "Начать игру",
    dl_log: "Скачать журнал (JSONL)", dl_html: "Скачать пульку (HTML)", dl_csv: "Скачать пульку (CSV)",
    upload: "Загрузить файл другой программы", upload_go: "Загрузить",
    mode_game: "Игра", mode_misere: "Мизер", mode_raspas: "Распасы", mode_allpass: "Все пас",
    correct: "Исправить", correcting: "исправление: сохранить значит аннулировать её и записать заново",
    deal_n: "Сдача", deals: "сдаёт", speaks: "первым говорит", sits_out: "отдыхает", again: "запись заново сдачи",
    bomb: "бомба", turned: "открыта", partner: "партнёр", trump: "козырь",
    without_three: "без трёх", dark: "втёмную", totus: "тотус", igra: "игра (без прикупа)",
    pass: "пас", whist: "вист", half: "полвиста", invite: "зову", kontra: "контра", rekontra: "реконтра",
    subkontra: "субконтра", mortkontra: "мортконтра", undo_call: "⌫",
    void: "Аннулировать", record_again: "Записать заново", reason: "причина", voided: "аннулирована",
    conflict: "Кто-то записал раньше — ваша сдача не записана.", recorded: "Записано", open_deal: "не окончена сдача",
    sure_void: "Аннулировать сдачу", reason_mistake: "ошибка записи", reason_redeal: "пересдача",
    reason_none: "без причины", reason_own: "или своими словами", cancel: "Отмена", column_pool: "пуля", column_mountain: "гора",
    column_points: "очки", column_whists: "висты на", player: "игрок", player4: "игрок 4 (не обязательно)",
    need_players: "Нужно 3 или 4 игрока", updated: "обновлено", seq: "событий", tricks_sum: "сумма",
    seq_one: "событие", seq_few: "события", seq_many: "событий", seq_other: "события",
    offline: "нет связи — ничего не записано", record_as: "Записать как сдачу", drop: "Отбросить",
    last: "последняя взятка", undo_q: "Отменить сдачу", undone: "отменена за столом", column_bula: "була",
    column_soups: "супы на", auction: "Торговля", earlier: "Показать ранние сдачи",
    missing_dealer: "Нечего записывать: выберите, кто сдаёт.", missing_deal: "Нечего записывать: выберите контракт, мизер или распасы.",
    missing_calls: "Не хватает вистов: отметьте, кто вистует и кто пасует.", missing_tricks: "Не хватает взяток: укажите, сколько взял каждый.",
    missing_done: "Нечего записывать.", bound_low: "{p}: меньше нуля взяток не бывает.", bound_high: "В сдаче всего {n} взяток.",
    bound_left: "У {p} уже ни одной взятки: сначала уменьшите кому-то другому.",
    zoom_hint: "Нажмите на рисунок, чтобы увеличить его часть; ещё раз — весь рисунок.",
  },
  en: {
    tab_deal: "Deal", tab_sheet: "Sheet", tab_deals: "Deals", tab_replay: "Replay", tab_new: "New game",
    tab_files: "Files", no_game: "No game: start a new one.", dealer: "Dealer", declarer: "Declarer", calls: "Whists",
    played: "Write the tricks", line: "Line", record: "Record", clear: "Clear", game_ended: "The game has ended.", game_over: "The game is over",
    settlement: "Settlement", undo: "Undo the last deal", end_game: "End the game",
    adjustment: "Agreed adjustment", lines: "Deals as lines", players: "Players, clockwise", preset: "Rules",
    pool: "Pool", stake: "Stake per whist", game_id: "Game", options: "Rule options", start: "Start the game",
    dl_log: "Download the log (JSONL)", dl_html: "Download the sheet (HTML)", dl_csv: "Download the sheet (CSV)",
    upload: "Upload another program's file", upload_go: "Upload",
    mode_game: "Contract", mode_misere: "Misère", mode_raspas: "Raspas", mode_allpass: "All pass",
    correct: "Correct", correcting: "correcting it: saving voids it and records it again",
    deal_n: "Deal", deals: "deals", speaks: "speaks first", sits_out: "sits out", again: "recording again deal",
    bomb: "bomb", turned: "turned", partner: "partner", trump: "trump",
    without_three: "without three", dark: "dark", totus: "totus", igra: "igra (no talon)",
    pass: "pass", whist: "whist", half: "half", invite: "invite", kontra: "kontra", rekontra: "rekontra",
    subkontra: "subkontra", mortkontra: "mortkontra", undo_call: "⌫",
    void: "Void", record_again: "Record again", reason: "reason", voided: "voided",
    conflict: "Somebody recorded first: yours is not written.", recorded: "Recorded", open_deal: "unfinished deal",
    sure_void: "Void deal", reason_mistake: "a slip of the pen", reason_redeal: "dealt again",
    reason_none: "no reason", reason_own: "or in your own words", cancel: "Cancel", column_pool: "pool", column_mountain: "mountain",
    column_points: "points", column_whists: "whists on", player: "player", player4: "player 4 (optional)",
    need_players: "3 or 4 players are needed", updated: "updated", seq: "events", tricks_sum: "sum",
    seq_one: "event", seq_other: "events",
    offline: "no connection — nothing written", record_as: "Record as deal", drop: "Drop it",
    last: "last trick", undo_q: "Undo deal", undone: "undone at the table", column_bula: "bula",
    column_soups: "soups on", auction: "Auction", earlier: "Show the earlier deals",
    missing_dealer: "Nothing to record: choose who deals.", missing_deal: "Nothing to record: choose a contract, a misère or all pass.",
    missing_calls: "The whist calls are missing: mark who whists and who passes.", missing_tricks: "The tricks are missing: say how many each took.",
    missing_done: "Nothing to record.", bound_low: "{p}: no fewer than no tricks.", bound_high: "A deal has {n} tricks in all.",
    bound_left: "{p} has no trick left: take one from somebody else first.",
    zoom_hint: "Tap the drawing to zoom in on a part of it; tap again for the whole.",
  },
};
const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
const RED_SUITS = new Set(["D", "H"]);

let lang = localStorage.getItem("vistlog-lang") || "ru";
const query = new URLSearchParams(location.search);
const token = query.get("token") || sessionStorage.getItem("vistlog-token") || "";
if (query.get("token")) sessionStorage.setItem("vistlog-token", token);
let S = null;          // the state the server last sent
let startedElsewhere = false;   // no game yet at the last look: one that appears was started on another device
let written = null;     // what this page last recorded ({first, last} seq): said in the status until more is written
let chosen = localStorage.getItem("vistlog-game") || null;
let form = fresh();
let tab = "deal";
const $ = (id) => document.getElementById(id);
const t = (key) => (T[lang] && T[lang][key]) || key;

function fresh() {
  // seq, at: the log's next seq and position when the form was begun; a write names them, so that a form made
  // before another device wrote a deal (or another program rewrote the log) is never written unasked (409)
  return { mode: "game", declarer: null, contract: null, dealer: null, flags: {}, bomb: 0, turned: "",
           partner: null, trump: null, calls: [], offered: {}, bids: [], auction: false, tricks: {}, played: false, again: null, edited: false, last: null,
           correct: null,
           seq: null, at: null };
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.addEventListener("click", v);
    else if (k === "class") e.className = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

async function api(path, opts = {}) {
  const headers = Object.assign({}, opts.headers || {});
  if (token) headers["X-Vistlog-Token"] = token;
  if ((opts.method || "GET") === "POST") headers["X-Vistlog-Pad"] = "1";
  const response = await fetch(path, Object.assign({}, opts, { headers }));
  let data;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  return { status: response.status, data };
}

async function post(body) {
  return api("/api/record", { method: "POST", headers: { "Content-Type": "application/json" },
                              body: JSON.stringify(Object.assign({ expect_seq: S ? S.seq : null, expect_at: S ? S.at : null, lang }, body)) });
}

// ------------------------------------------------------------------ state

let every = false;   // the view holds every deal of a long game (else its last ones: the server's VIEW_DEALS)
let asked = 0;   // the last state asked for: an answer to an earlier question (a poll's) never overwrites a later one
async function load(polled = false) {
  const mine = ++asked;
  const r = await api("/api/state?lang=" + lang + (chosen ? "&game=" + encodeURIComponent(chosen) : "") + (every ? "&all=1" : ""));
  if (mine !== asked) return;
  if (r.status !== 200) { $("status").textContent = r.data.error || r.status; return; }
  // a poll that finds what is shown already draws nothing again (a button being tapped stays where it is)
  if (polled && S && r.data.seq === S.seq && (r.data.game && r.data.game.id) === (S.game && S.game.id)) return;
  S = r.data;
  if (S.game) chosen = S.game.id;
  render();
}

let lastSeen = Date.now();   // when the server last answered a poll
async function poll() {
  try {
    const r = await api("/api/version");
    if (r.status !== 200) throw new Error(String(r.status));
    const away = $("status").classList.contains("offline");
    lastSeen = Date.now();
    if (away || (S && r.data.seq !== S.seq)) { $("status").classList.remove("offline"); await load(!away); }
  } catch (e) {
    // the server is away: within 3 s the page says so (a poll a second), and tries again
    if (Date.now() - lastSeen > 2500) {
      $("status").textContent = t("offline");
      $("status").classList.add("offline");
    }
  }
}

function game() { return S && S.game; }
function table() { return S && S.game && S.game.table; }

// ------------------------------------------------------------------ the deal form
// The form composes the deal as a line of the notation; what it may say next (who holds cards, the
// contracts, each call, whether tricks are asked and a first guess for them) is the game's to say: the page
// asks GET /api/next with the line so far and draws the choices it answers (NX), nothing else.

let NX = null;          // the server's answer for the form's draft
let nextAsked = 0;
let asking = Promise.resolve();

function draftData() {
  // the deal as data, in the next-step query's own words (dealer, bids, contract, calls): what the page sends;
  // the server reads it, and says it back as a line of the notation in the page's language (NX.line)
  const tb = table();
  if (!tb) return null;
  const d = {};
  if (form.correct !== null) { d.correct = form.correct; d.dealer = form.dealer; }
  else if (form.again !== null) { d.again = Number(form.again); if (form.dealer) d.dealer = form.dealer; }
  else if (!tb.dealer && form.dealer) d.dealer = form.dealer;
  if (form.bomb) d.bomb = Number(form.bomb);
  if (form.turned) d.turned = form.turned;
  if (form.bids.length) d.bids = form.bids.map(([p, bid]) => [p, bid]);
  if (passing()) d.all_pass = true;
  else if (form.declarer) {
    const contract = modeContract() || form.contract;
    if (contract) {
      d.declarer = form.declarer;
      d.contract = contract;
      const flags = Object.entries(form.flags).filter(([, on]) => on).map(([f]) => f);
      // what the game says this contract must carry (a Serbian igra after an igra auction)
      for (const f of (NX && NX.must_say) || []) if (!form.flags[f]) flags.push(f);
      if (flags.length) d.flags = flags;
      if (form.partner) d.partner = form.partner;
      if (form.trump) d.trump = form.trump;
    }
  }
  if (form.calls.length) d.calls = form.calls.map(([p, c]) => [p, c]);
  return d;
}

// what a mode of the deal form means is the game's to say (table.mode_info): nobody declares, a contract of its
// own, or a contract of the grid
function modeOf(m) { const tb = table(); return (tb && tb.mode_info && tb.mode_info[m]) || {}; }
function passing() { return !!modeOf(form.mode).all_pass; }
function modeContract() { return modeOf(form.mode).contract || null; }
function gridMode() { return !passing() && !modeContract(); }

function showsTricks() { return !!NX && NX.tricks && (NX.step === "tricks" || (NX.done && form.played)); }

function draftTricks() {
  // the tricks as the form has them, when it asks them (the next step is asked without them)
  if (!showsTricks()) return null;
  const tricks = {};
  for (const p of NX.takers) tricks[p] = form.tricks[p] || 0;
  return NX.last.length && form.last ? { tricks, last: form.last } : { tricks };
}

function composeLine() { return (NX && NX.line) || ""; }

let askedDraft = null;   // the draft the last question was about
async function askNext() {
  // what the game allows next for the form's draft; an earlier answer never overwrites a later one
  const mine = ++nextAsked;
  const draft = JSON.stringify(draftData()), tricks = draftTricks();
  askedDraft = JSON.stringify([draft, tricks]);
  const contract = modeContract() || form.contract;
  const q = "/api/next?lang=" + lang + (chosen ? "&game=" + encodeURIComponent(chosen) : "")
    + "&draft=" + encodeURIComponent(draft) + (tricks ? "&tricks=" + encodeURIComponent(JSON.stringify(tricks)) : "")
    + (form.declarer ? "&declarer=" + encodeURIComponent(form.declarer) : "")
    + (contract ? "&contract=" + encodeURIComponent(contract) : "") + (passing() ? "&all_pass=1" : "")
    + (form.auction || form.bids.length ? "&auction=1" : "");
  let r;
  document.body.classList.add("asking");   // the choices drawn are those of an earlier tap until the answer comes
  try { r = await api(q); } catch (e) { if (mine === nextAsked) document.body.classList.remove("asking"); return false; }
  if (mine !== nextAsked) return false;
  document.body.classList.remove("asking");
  if (r.status !== 200) return false;
  NX = r.data;
  return true;
}

// A part of the form is drawn again only when what it shows has changed: a button or a field being tapped is
// never replaced under the finger by an answer that changed nothing there.
function keyed(container, key, build) {
  if (container.dataset.key === key) return false;
  container.dataset.key = key;
  container.replaceChildren(...build());
  return true;
}

function buttons(container, items, selected, onpick, label, red) {
  keyed(container, JSON.stringify([items, selected, lang]), () => items.map((item) => el("button", {
    type: "button", class: item === selected ? "sel" : (red && red(item) ? "red" : ""),
    "data-value": item, onclick: () => onpick(item),
  }, label ? label(item) : item)));
}

function renderOver() {
  const g = game(), tb = table(), nx = tb && tb.next;
  const over = !tb || !nx || nx.step === "over";   // what may come next is the server's to say
  $("no-game").hidden = !!g;
  $("deal-form").hidden = over;
  $("ended").hidden = !(g && over);
  if (g && over) {
    $("ended").replaceChildren(el("p", { class: "info" }, t("game_over") + (nx && nx.why ? ": " + nx.why : "") + "."),
      el("pre", {}, g.settlement_text),
      ...(tb && !tb.ended ? [el("button", { type: "button", id: "end-now", onclick: endGame }, t("end_game"))] : []));
  }
  return over;
}

function renderDeal() {
  if (renderOver() || !NX) return;
  const tb = table(), nx = NX;
  const number = form.correct !== null ? form.correct : form.again !== null ? form.again : nx.deal;
  let info = `${t("deal_n")} ${number}` + (form.again !== null ? ` (${t("again")} ${form.again})` : "")
    + (form.correct !== null ? ` (${t("correcting")})` : "");
  if (nx.dealer) info += ` · ${nx.dealer} ${t("deals")}` + (nx.sits_out ? ` (${t("sits_out")})` : "");
  if (nx.speaks) info += ` · ${nx.speaks} ${t("speaks")}`;
  if (nx.step === "open") info += ` · ${t("open_deal")}: ${nx.why}`;
  $("deal-info").textContent = info;
  $("dealer-row").hidden = !!tb.dealer || form.again !== null;
  buttons($("dealer-buttons"), tb.players, form.dealer, (p) => { form.dealer = p; form.tricks = {}; update(); });
  // the deal's own options
  keyed($("opts-row"), JSON.stringify([tb.flags, nx.again, form.again, nx.step, nx.deal, lang]), () => {
    const opts = [];
    if (nx.step === "open") {  // a deal another writer left unfinished: void it (then record it again) first
      opts.push(el("button", { type: "button", id: "void-open", onclick: () => voidDeal(nx.deal) }, `${t("sure_void")} ${nx.deal}`));
    }
    if (tb.flags.includes("bomb")) {
      const sel = el("select", { id: "bomb" }, ...[0, 1, 2, 3].map((n) => el("option", { value: n }, n)));
      sel.addEventListener("change", () => { form.bomb = Number(sel.value); update(); });
      opts.push(el("label", {}, t("bomb") + " ", sel));
    }
    if (tb.flags.includes("turned")) {
      // the turned card by taps: a rank, then a suit (or typed, as the log spells it)
      const input = el("input", { id: "turned", placeholder: "QH", size: 4, value: form.turned || "" });
      input.addEventListener("input", () => { form.turned = input.value.trim(); update(false); });
      const pickRank = el("span", { class: "buttons", id: "turned-ranks" });
      const pickSuit = el("span", { class: "buttons", id: "turned-suits" });
      const drawPicks = () => {
        const have = form.turned || "", rank = have.slice(0, -1), suit = have.slice(-1);
        buttons(pickRank, tb.ranks.map(([r]) => r), form.turnedRank || rank, (r) => { form.turnedRank = r; setCard(); },
          (r) => (tb.ranks.find(([x]) => x === r) || [r, r])[1]);
        buttons(pickSuit, ["S", "C", "D", "H"], form.turnedSuit || suit, (x) => { form.turnedSuit = x; setCard(); },
          (x) => ({ S: "♠", C: "♣", D: "♦", H: "♥" })[x], (x) => x === "D" || x === "H");
      };
      const setCard = () => {
        const rank = form.turnedRank || (form.turned || "").slice(0, -1), suit = form.turnedSuit || (form.turned || "").slice(-1);
        drawPicks();
        if (rank && suit) { form.turned = rank + suit; input.value = form.turned; update(); }
      };
      drawPicks();
      opts.push(el("label", {}, t("turned") + " ", input), pickRank, pickSuit);
    }
    if (nx.again.length && form.again === null) {
      for (const [n] of nx.again) opts.push(el("button", { type: "button", onclick: () => { Object.assign(form, fresh(), { again: n }); update(); } },
        `${t("record_again")} ${n}`));
    }
    return opts;
  });
  // what is typed stays where it is typed: a field in use is never written over
  if ($("bomb") && document.activeElement !== $("bomb")) $("bomb").value = String(form.bomb);
  if ($("turned") && document.activeElement !== $("turned")) $("turned").value = form.turned;
  // the auction, where the table records it: each bid the game allows now, by whoever may say it
  $("auction").open = form.auction || form.bids.length > 0;
  const bidders = [...new Set(nx.bids.map(([p]) => p))];
  keyed($("bids-buttons"), JSON.stringify([nx.bids, nx.bid_labels, lang]), () => bidders.map((p) => el("div", { class: "who" },
    el("span", {}, p), ...nx.bids.filter(([q]) => q === p).map(([, b]) => el("button", { type: "button", "data-player": p, "data-bid": b,
      onclick: () => { form.bids.push([p, b, nx.bid_words[b] || b, nx.bid_labels[b] || b]); form.tricks = {}; update(); } },
      nx.bid_labels[b] || b)))));
  keyed($("bids-said"), JSON.stringify([form.bids, lang]), () => [...form.bids.map(([p, , , label]) => el("span", {}, `${p} ${label}`)),
    ...(form.bids.length ? [el("button", { type: "button", id: "undo-bid", onclick: () => { form.bids.pop(); form.tricks = {}; update(); } }, t("undo_call"))] : [])]);
  // what is played
  if (!tb.modes.includes(form.mode)) form.mode = tb.modes[0];   // a game's first mode, where it has no «game»
  buttons($("mode-buttons"), tb.modes, form.mode, (m) => { form.mode = m; form.calls = []; form.tricks = {}; if (modeOf(m).all_pass) form.declarer = null; update(); },
    (m) => modeOf(m).label || t(modeOf(m).all_pass ? tb.all_pass_word : "mode_" + m));
  $("declarer-row").hidden = passing();
  // in seat order, so that a name stays where it was from deal to deal
  buttons($("declarer-buttons"), form.declarer && !nx.declarers.length ? [form.declarer] : nx.declarers, form.declarer,
    (p) => { form.declarer = p; form.calls = []; form.tricks = {}; update(); });
  $("contract-row").hidden = !gridMode();
  // the contracts the game allows this declarer now (the chosen one stays shown once it is made)
  const offered = nx.contracts.length ? nx.contracts : (form.contract ? [form.contract] : []);
  const labels = Object.fromEntries(tb.grid.map(([c, label]) => [c, label]));
  const reds = new Set(tb.grid.filter((g) => g[3]).map(([c]) => c));
  const grid = $("contract-grid");
  grid.style.gridTemplateColumns = tb.grid_columns === 5 ? "" : "repeat(2, minmax(6em, 1fr))";
  buttons(grid, tb.grid.map(([c]) => c).filter((c) => offered.includes(c)), form.contract,
    (c) => { Object.assign(form, { contract: c, partner: null, trump: null, flags: {}, tricks: {} }); update(); },
    (c) => labels[c] || c, (c) => reds.has(c));
  // the flags the contract may carry, and what it must say besides its declarer
  const shownFlags = passing() ? [] : nx.flags.concat(Object.keys(form.flags).filter((f) => form.flags[f] && !nx.flags.includes(f)));
  keyed($("flags-row"), JSON.stringify([shownFlags, form.flags, nx.needs, nx.partners, form.partner, form.trump, form.mode, lang]), () => {
    const flags = [];
    for (const f of shownFlags) {
      const box = el("input", { type: "checkbox", id: "flag-" + f, checked: !!form.flags[f] });
      box.addEventListener("change", () => { form.flags[f] = box.checked; form.tricks = {}; update(); });
      flags.push(el("label", {}, box, " " + t(f)), " ");
    }
    if (nx.needs.includes("partner") && gridMode()) {
      const row = el("span", { class: "buttons" });
      buttons(row, nx.partners, form.partner, (p) => { form.partner = p; form.tricks = {}; update(); });
      flags.push(t("partner") + " ", row);
    }
    if (nx.needs.includes("trump") && gridMode()) {
      const row = el("span", { class: "buttons" });
      buttons(row, ["S", "C", "D", "H"], form.trump, (s) => { form.trump = s; update(); }, (s) => SUITS[s], (s) => RED_SUITS.has(s));
      flags.push(" " + t("trump") + " ", row);
    }
    return flags;
  });
  // the calls: a row for each player who may speak or has spoken, with what he was offered; only what the
  // game allows now may be tapped
  for (const [p, c] of nx.calls) { form.offered[p] = form.offered[p] || []; if (!form.offered[p].includes(c)) form.offered[p].push(c); }
  const callers = nx.holders.filter((p) => form.offered[p] && (nx.calls.some(([q]) => q === p) || form.calls.some(([q]) => q === p)));
  $("calls-row").hidden = !callers.length;
  keyed($("calls-buttons"), JSON.stringify([callers, form.offered, form.calls, nx.calls, lang]), () => callers.map((p) => el("div", { class: "who" }, el("span", {}, p),
    ...form.offered[p].map((c) => el("button", { type: "button", "data-player": p, "data-call": c,
      // the call this player said last is shown as chosen
      class: (form.calls.filter(([q]) => q === p).slice(-1)[0] || [])[1] === c ? "sel" : "",
      disabled: !nx.calls.some(([q, k]) => q === p && k === c),
      onclick: () => { form.calls.push([p, c]); form.tricks = {}; update(); } }, t(c))))));
  keyed($("calls-said"), JSON.stringify([form.calls, lang]), () => [...form.calls.map(([p, c]) => el("span", {}, `${p} ${t(c)}`)),
    ...(form.calls.length ? [el("button", { type: "button", id: "undo-call", onclick: () => { form.calls.pop(); form.tricks = {}; update(); } }, t("undo_call"))] : [])]);
  // tricks: steppers that keep the sum, from the game's first guess; asked only when the deal is played
  $("played-box").hidden = !(nx.done && nx.tricks);   // a deal decided whose play may still be written
  $("played").checked = form.played;
  const showTricks = showsTricks();
  $("tricks-row").hidden = !showTricks;
  if (showTricks) {
    if (!Object.keys(form.tricks).length || nx.takers.some((p) => !(p in form.tricks))) form.tricks = Object.assign({}, nx.guess);
    const total = nx.tricks_total, hs = nx.takers;
    if (total !== null) { const lastP = hs[hs.length - 1]; form.tricks[lastP] = total - hs.slice(0, -1).reduce((a, q) => a + (form.tricks[q] || 0), 0); }
    keyed($("tricks"), JSON.stringify([hs, total, form.tricks, nx.last, form.last, lang]), () => {
    const rows = hs.map((p, k) => {
      const last = total !== null && k === hs.length - 1;
      if (last) form.tricks[p] = total - hs.slice(0, -1).reduce((a, q) => a + (form.tricks[q] || 0), 0);
      const out = el("output", { "data-player": p }, form.tricks[p]);
      const step = (d) => () => {
        const n = (form.tricks[p] || 0) + d;
        const lastP = hs[hs.length - 1];
        // a stepper at its bound says why it does not move (nothing else changes)
        const why = n < 0 ? t("bound_low").replace("{p}", p) : total !== null && n > total ? t("bound_high").replace("{n}", total)
          : total !== null && form.tricks[lastP] - d < 0 && p !== lastP ? t("bound_left").replace("{p}", lastP) : "";
        if (why) { $("err-tricks").textContent = why; return; }
        form.tricks[p] = n; redraw();
      };
      return el("div", { class: "stepper" }, el("span", { class: "name" }, p),
        el("button", { type: "button", "data-step": "-", "data-player": p, disabled: last, onclick: step(-1) }, "−"), out,
        el("button", { type: "button", "data-step": "+", "data-player": p, disabled: last, onclick: step(1) }, "+"));
    });
    if (nx.last.length) {  // who took the last trick, where the deal needs it
      const row = el("span", { class: "buttons", id: "last-buttons" });
      buttons(row, nx.last.filter((p) => (form.tricks[p] || 0) > 0), form.last, (p) => { form.last = p; redraw(); });
      rows.push(el("div", { class: "who" }, el("span", {}, t("last")), row));
    }
    return rows;
    });
  }
  // the line a person is typing in is never written over by an answer that comes back meanwhile
  if (!form.edited && document.activeElement !== $("line")) $("line").value = composeLine();
}

function redraw() {
  // a change the game's choices do not hang on (a tricks counter): drawn at once, then the line said again
  form.edited = false;
  clearErrors();
  renderDeal();
  begin();
  refresh();
}

function begin() {
  // the form is begun: the writes it makes are for the log as it stands now
  if (form.seq === null && S) { form.seq = S.seq; form.at = S.at; }
}

function preselect() {
  // after an auction, the one declarer it leaves and the contract he won it with are chosen for him (a tap
  // less each; another may still be tapped)
  if (!NX || !form.bids.length || passing()) return false;
  let changed = false;
  if (!form.declarer && NX.declarers.length === 1) { form.declarer = NX.declarers[0]; changed = true; }
  if (form.declarer && !form.contract && gridMode()) {
    const won = [...form.bids].reverse().find(([p, bid]) => p === form.declarer && bid !== "pass");
    if (won && NX.contracts.includes(won[1])) { form.contract = won[1]; changed = true; }
  }
  return changed;
}

function refresh(again = 3) {
  // ask what may come next for the form as it is, then draw it (a failure is said, and never stops a record);
  // an answer that adds to the draft (a flag the contract must carry, the declarer an auction leaves) is asked
  // about once more
  asking = askNext().then((answered) => {
    if (answered && again > 0 && preselect()) return refresh(again - 1);
    // (and once the tricks are asked, the line is said again with them)
    if (answered && again > 0 && JSON.stringify([JSON.stringify(draftData()), draftTricks()]) !== askedDraft) return refresh(again - 1);
    if (answered) renderDeal(); else renderOver();
    // the form now stands for the log as it was last read: a script (or a test) waiting for a write to show waits on this
    if (answered && S) document.body.dataset.drawn = S.seq;
  }).catch((e) => { $("err-general").textContent = String(e); });
  return asking;
}

function update(redrawn = true) {
  form.edited = false;
  clearErrors();
  if (!redrawn) { if (document.activeElement !== $("line")) $("line").value = composeLine(); return asking; }
  return refresh().then(() => {
    if ($("line").value) begin();
  });
}

function clearErrors() { for (const e of document.querySelectorAll(".err")) e.textContent = ""; }

function showProblems(data) {
  const where = { taken: "err-tricks", last: "err-tricks", contract: "err-contract", declarer: "err-contract",
                  call: "err-calls", player: "err-calls", level: "err-calls", line: "err-line" };
  const problems = data.problems || [];
  if (!problems.length) { $("err-general").textContent = data.error || "?"; return; }
  for (const p of problems) {
    const key = (p.field || "").split(".")[0];
    let box = $(where[key] || "err-general");
    // a refusal is always in sight: one whose field's row is not shown (a typed line's tricks) goes under the line
    if (box.offsetParent === null) box = $("line").offsetParent !== null ? $("err-line") : $("err-general");
    box.textContent += (box.textContent ? "\n" : "") + p.message;
  }
  const first = [...document.querySelectorAll(".err")].find((e) => e.textContent && e.offsetParent !== null);
  if (first) first.scrollIntoView({ block: "nearest" });
}

async function recordDeal() {
  await asking;   // the choices of the last tap are in
  const line = $("line").value.trim();
  clearErrors();
  const before = NX && !form.edited && ["dealer", "deal"].includes(NX.step);   // tapped: nothing of the deal yet
  if (!line || before) {   // an empty form names what is missing, from what the game asks next
    $("err-general").textContent = t("missing_" + (NX && ["dealer", "deal", "calls", "tricks"].includes(NX.step) ? NX.step : "done"));
    return;
  }
  let r;
  // a deal tapped is sent as data; a line typed by hand, as typed
  const deal = form.edited ? { line } : { deal: Object.assign(draftData(), draftTricks() || {}) };
  try {
    r = await post({ game: chosen, ...deal, by: localStorage.getItem("vistlog-by") || undefined,
                     expect_seq: form.seq !== null ? form.seq : (S ? S.seq : null),
                     expect_at: form.seq !== null ? form.at : (S ? S.at : null) });
  } catch (e) {
    $("err-general").textContent = t("offline");   // nothing reached the server: nothing is shown as written
    return;
  }
  if (r.status === 200) {
    form = fresh();
    written = { first: r.data.recorded[0].seq, last: r.data.recorded[r.data.recorded.length - 1].seq };
    await load();   // the status says it (render)
  } else if (r.status === 409) {
    // another device wrote first: the form keeps what was tapped; the deal written meanwhile is shown, and
    // the user records theirs as the next deal or drops it
    await load();
    const tb = table();
    const again = el("button", { type: "button", id: "record-as-next", onclick: () => { form.seq = S.seq; form.at = S.at; recordDeal(); } },
      `${t("record_as")} ${tb && tb.next ? tb.next.deal : ""}`);
    const drop = el("button", { type: "button", id: "drop-form", onclick: () => { form = fresh(); update(); } }, t("drop"));
    const written = (game() ? game().deal_list : []).filter((d) => !d.voided).slice(-1)[0];
    const said = r.data.rewritten ? r.data.error
      : t("conflict") + (written ? ` ${t("deal_n")} ${written.deal}: ${written.summary}.` : "");
    $("err-general").replaceChildren(said, el("br"), again, " ", drop);
  } else showProblems(r.data);
}

// ------------------------------------------------------------------ the other tabs

let drawn = null;   // the drawing on the sheet tab: a poll that brings the same one leaves a zoom alone

function renderSheet() {
  const g = game();
  const svg = g ? g.svg : "";
  if (svg !== drawn) {
    $("sheet").innerHTML = svg;   // drawn by vistlog itself, names escaped
    drawn = svg;
  }
  if (tab === "sheet") strike($("sheet"));
  $("zoom-hint").hidden = !svg;
  // a game whose sheet is points (Solo Whist): the running points, deal by deal, as the paper reads
  const pts = g && g.points;
  $("points").hidden = !pts;
  if (pts) keyed($("points"), JSON.stringify([pts, lang]), () => [el("table", { class: "points" },
    el("tr", {}, el("th", {}, t("deal_n")), ...pts.players.map((p) => el("th", {}, p))),
    ...pts.rows.map(([deal, ...values]) => el("tr", {}, el("td", { class: "num" }, deal),
      ...values.map((v) => el("td", { class: "num" }, v)))))]);
  $("settlement").textContent = g ? g.settlement_text : "";
}

// a voided entry struck through by a line of its own, as plain on a turned side as on the bottom: the text's own
// line-through is thin, and drawn off its place where a long line is squeezed to fit
function strike(root) {
  const svg = root.querySelector("svg");
  if (!svg || svg.dataset.struck) return;   // laid out only once its tab is shown
  svg.dataset.struck = "1";
  for (const ts of svg.querySelectorAll('tspan[text-decoration="line-through"]')) {
    const text = ts.closest("text");
    let start = 0;
    for (const node of text.childNodes) {
      if (node === ts) break;
      if (node.nodeName !== "title") start += node.textContent.length;
    }
    const n = ts.textContent.length;
    if (!n || !text.getNumberOfChars || text.getNumberOfChars() < start + n) continue;
    const a = text.getStartPositionOfChar(start), b = text.getEndPositionOfChar(start + n - 1);
    const size = parseFloat(text.getAttribute("font-size")) || 14;
    const line = document.createElementNS("http://www.w3.org/2000/svg", "line");
    const rise = text.getAttribute("dominant-baseline") === "middle" ? 0 : size * 0.3;
    Object.entries({ x1: a.x - 1, y1: a.y - rise, x2: b.x + 1, y2: b.y - rise, stroke: "#b3261e",
      "stroke-width": Math.max(1.5, size / 9), class: "struck", transform: text.getAttribute("transform") || "" })
      .forEach(([k, v]) => line.setAttribute(k, v));
    text.after(line);
  }
}

// a tap on the drawing shows the quarter around it at twice the size; a second tap, the whole drawing
function zoom(ev) {
  const svg = $("sheet").querySelector("svg");
  if (!svg) return;
  if (svg.dataset.whole) {
    svg.setAttribute("viewBox", svg.dataset.whole);
    delete svg.dataset.whole;
    return;
  }
  const whole = svg.getAttribute("viewBox");
  const [x0, y0, w, h] = whole.split(/[ ,]+/).map(Number);
  const q = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(svg.getScreenCTM().inverse());
  const x = Math.min(Math.max(q.x - w / 4, x0), x0 + w / 2), y = Math.min(Math.max(q.y - h / 4, y0), y0 + h / 2);
  svg.dataset.whole = whole;
  svg.setAttribute("viewBox", `${x} ${y} ${w / 2} ${h / 2}`);
}

// the deals as data (the server's deal_list), in the order of the replay's blocks
function dealsOf(g) { return g ? g.deals.map((block, i) => Object.assign({ block }, g.deal_list[i] || {})) : []; }

function renderDeals() {
  const g = game();
  const list = $("deal-list");
  list.replaceChildren();
  $("lines").textContent = g ? g.lines.join("\n") : "";
  if (!g) return;
  const tb = table();
  dealsOf(g).forEach((d) => {
    const n = d.deal, voided = d.voided, block = d.block;
    const li = el("li", { class: voided ? "void" : "", "data-deal": n }, el("pre", {}, block.join("\n")));
    if (tb && !tb.ended && !voided) {
      li.append(el("button", { type: "button", class: "void-deal", onclick: () => askVoid(li, n) }, t("void")));
      if (d.draft) li.append(el("button", { type: "button", class: "correct-deal", onclick: () => correctDeal(n, d.draft) }, t("correct")));
    }
    if (tb && voided && tb.voided.some((v) => v[0] === n)) {
      li.append(el("button", { type: "button", onclick: () => { form = fresh(); form.again = n; switchTab("deal"); update(); } }, t("record_again")));
    }
    list.append(li);
  });
  const players = g.players;
  $("adj-player").replaceChildren(...players.map((p) => el("option", { value: p }, p)));
  // a column written on another player (whists, soups) is offered once per player
  const cols = g.columns.flatMap((c) => (c === "whists" || c === "soups") ? players.map((p) => c + ":" + p) : [c]);
  $("adj-column").replaceChildren(...cols.map((c) => el("option", { value: c },
    c.includes(":") ? `${t("column_" + c.split(":")[0])} ${c.split(":")[1]}` : t("column_" + c))));
}

function correctDeal(n, draft) {
  // the form filled with the deal as recorded; saving it voids the deal and records it again, in one append
  const tb = table();
  form = fresh();
  form.correct = n;
  form.dealer = draft.dealer || null;
  form.bomb = draft.bomb || 0;
  form.turned = draft.turned || "";
  form.bids = (draft.bids || []).map(([p, bid]) => [p, bid, bid, bid]);
  form.auction = form.bids.length > 0;
  const passingMode = tb.modes.find((m) => modeOf(m).all_pass);
  const ownMode = tb.modes.find((m) => modeOf(m).contract && modeOf(m).contract === draft.contract);
  form.mode = draft.all_pass && passingMode ? passingMode : ownMode || (tb.modes.includes("game") ? "game" : tb.modes[0]);
  form.declarer = draft.declarer || null;
  form.contract = ownMode ? null : draft.contract || null;
  for (const f of draft.flags || []) form.flags[f] = true;
  form.partner = draft.partner || null;
  form.trump = draft.trump || null;
  form.calls = (draft.calls || []).map(([p, c]) => [p, c]);
  form.tricks = Object.assign({}, draft.tricks || {});
  form.played = !!draft.tricks;
  form.last = draft.last || null;
  switchTab("deal");
  update();
}

function askVoid(li, n) {
  // why the deal is voided: picked from a short list, or typed, or left unsaid; nothing is written until confirmed
  if (li.querySelector(".void-form")) return;
  const pick = el("select", { class: "void-pick" }, ...["reason_mistake", "reason_redeal", "reason_none"].map((k) =>
    el("option", { value: k }, t(k))));
  const own = el("input", { type: "text", class: "void-own", placeholder: t("reason_own"), maxlength: "200" });
  const form_ = el("div", { class: "void-form row" }, pick, own,
    el("button", { type: "button", class: "confirm-void", onclick: () => {
      const reason = own.value.trim() || (pick.value === "reason_none" ? "" : t(pick.value));
      voidDeal(n, reason);
    } }, `${t("sure_void")} ${n}`),
    el("button", { type: "button", class: "cancel-void", onclick: () => form_.remove() }, t("cancel")));
  li.append(form_);
  own.focus();
}

async function voidDeal(n, why) {
  const reason = why || "";
  const r = await post({ game: chosen, events: [Object.assign({ type: "deal_voided", game: chosen, deal: n },
                                                               reason ? { reason } : {})] });
  if (r.status !== 200) { alert(r.data.error); }
  await load();
  return r.status === 200;
}

async function undoLast() {
  const g = game(), nx = table() && table().next;
  if (!g) return;
  if (nx && nx.step === "open") {  // the last deal written is unfinished (another writer's): it is the one undone
    if (!confirm(`${t("undo_q")} ${nx.deal}: ${t("open_deal")}?`)) return;
    await voidDeal(nx.deal, t("undone"));
    return;
  }
  const standing = g.deal_list.filter((d) => !d.voided);
  if (!standing.length) return;
  const last = standing[standing.length - 1];
  if (!confirm(`${t("undo_q")} ${last.deal}: ${last.summary}?`)) return;
  const voided = await voidDeal(last.deal, t("undone"));
  // the form stays on that deal, filled as it was, to be recorded again as it really was (the write's own answer
  // says it was voided: a look at the log that set out before the write may come back after it)
  if (voided && last.draft) {
    correctDeal(last.deal, last.draft);
    form.correct = null;
    form.again = last.deal;
    update();
  }
}

async function endGame() {
  if (!confirm(t("end_game") + "?")) return;
  const r = await post({ game: chosen, events: [{ type: "game_ended", game: chosen, reason: "agreed" }] });
  if (r.status !== 200) alert(r.data.error);
  await load();
}

async function adjust() {
  const g = game(), who = $("adj-player").value, col = $("adj-column").value, amount = Number($("adj-amount").value);
  const ev = { type: "adjustment", game: g.id, reason: $("adj-reason").value || undefined };
  if (col.includes(":")) ev[col.split(":")[0]] = { [who]: { [col.split(":")[1]]: amount } };
  else ev[col] = { [who]: amount };
  const r = await post({ game: g.id, events: [ev] });
  $("err-adjust").textContent = r.status === 200 ? "" : r.data.error;
  await load();
}

// a long game's view holds its last deals; the earlier ones come on a tap
function renderEarlier() {
  const g = game(), since = g ? g.deals_since : 0;
  for (const b of document.querySelectorAll("button.earlier")) {
    b.hidden = !since;
    b.textContent = `${t("earlier")} (${since})`;
    b.onclick = () => { every = true; load(); };
  }
}

let replayShown = null;   // the data the replay viewer shows (made again only when the game's view changed)
function renderReplay() {
  // the replay tab is the viewer of vistlog replay --format html (viewer.js), over the game's view: its deals'
  // stories, the cards played; the open-hand analysis and the sheet after a deal asked for on a tap
  const g = game();
  if (!g) { $("replay-view").replaceChildren(); replayShown = null; return; }
  if (replayShown && replayShown[0] === g && replayShown[1] === lang) return;
  replayShown = [g, lang];
  const cards = g.cards || [];
  const deals = dealsOf(g).map((d) => ({ deal: d.deal, voided: d.voided, dealer: d.dealer, summary: { [lang]: d.summary },
    lines: { [lang]: d.block }, cards: cards.find((c) => c.deal === d.deal && c.voided === d.voided) || null, values: null }));
  const which = chosen ? "&game=" + encodeURIComponent(chosen) : "";
  VistlogViewer.mount($("replay-view"), { game: g.id, header: { [lang]: g.header }, deals, sheets: null, settlement: null },
    { lang, embedded: true,
      ask: async (deal, weigh) => {
        const r = await api(`/api/analysis?deal=${deal}&lang=${lang}` + (weigh ? "&single_dummy=1" : "") + which);
        if (r.status !== 200) throw new Error(r.data.error || r.status);
        return r.data;
      },
      sheet: async (deal) => {
        const r = await api(`/api/sheet?upto=${deal}&lang=${lang}` + which);
        return r.status === 200 ? r.data.svg : null;
      } });
}


async function renderNew() {
  if (!$("preset").options.length) {
    const r = await api("/api/presets?lang=" + lang);
    $("preset").replaceChildren(...r.data.presets.map((p) => el("option", { value: p }, r.data.labels[p] || p)));
    $("up-format").replaceChildren(...r.data.formats.map((f) => el("option", { value: f }, f)));
    await loadOptions();
  }
  const taken = new Set(S ? S.games.map((g) => g.id) : []);
  if (!$("game-id").value || ($("game-id").value === defaultId && taken.has(defaultId))) {
    // a default id no game of the log has: the date and time, and a number after it when that is taken
    const d = new Date(), z = (n) => String(n).padStart(2, "0");
    const base = `${d.getFullYear()}-${z(d.getMonth() + 1)}-${z(d.getDate())}-${z(d.getHours())}${z(d.getMinutes())}`;
    let id = base;
    for (let k = 2; taken.has(id); k++) id = `${base}-${k}`;
    $("game-id").value = defaultId = id;
  }
}

let defaultId = null;   // the id the form offered (a typed one is never replaced)
let presetOptions = [];
let presetStart = {};   // the start of the chosen preset's game_started, as the server gives it
let optionsAsked = 0;   // a preset chosen again before its options came: only the last answer is drawn
async function loadOptions() {
  const mine = ++optionsAsked, preset = $("preset").value;
  delete $("options").dataset.preset;
  const r = await api("/api/rules/" + encodeURIComponent(preset) + "?lang=" + lang);
  if (mine !== optionsAsked) return;
  presetOptions = r.data.options;
  presetStart = r.data.start;
  $("pool").disabled = !r.data.pool;
  // an option of a few values is chosen from them, in words; the log keeps the value itself
  const field = (o) => o.choices
    ? el("select", { "data-option": o.name }, ...o.choices.map(([v, said]) => {
      const opt = el("option", { value: v }, said);
      opt.selected = v === o.shown;
      return opt;
    }))
    : el("input", { "data-option": o.name, value: o.shown });
  $("options").replaceChildren(...presetOptions.map((o) => el("tr", {},
    el("td", { title: o.name }, o.label), el("td", {}, field(o)),
    el("td", {}, o.choices ? "" : o.accepts), el("td", {}, o.meaning))));
  $("options").dataset.preset = preset;   // the options shown are this preset's
}

async function startGame() {
  const players = [...document.querySelectorAll(".player")].map((i) => i.value.trim()).filter(Boolean);
  $("err-new").textContent = "";
  if (players.length < 3 || players.length > 4) { $("err-new").textContent = t("need_players"); return; }
  const preset = $("preset").value;
  const hasPool = !$("pool").disabled;
  const rules = { preset };
  for (const input of document.querySelectorAll("[data-option]")) {
    const o = presetOptions.find((x) => x.name === input.dataset.option);
    if (o && input.value !== o.shown) {
      let v = input.value;
      try { v = JSON.parse(v); } catch (e) { /* a word: kept as text */ }
      rules[o.name] = v;
    }
  }
  const ev = Object.assign({}, presetStart, { game: $("game-id").value.trim(), players, rules });
  if (hasPool) ev.pool = Number($("pool").value);
  if ($("stake").value.trim()) ev.stake = $("stake").value.trim().replace(",", ".");  // «0,5» as a table writes it
  const r = await post({ events: [ev] });
  if (r.status === 200) { chosen = ev.game; localStorage.setItem("vistlog-game", chosen); form = fresh(); await load(); switchTab("deal"); }
  else $("err-new").textContent = r.data.error;
}

async function upload() {
  const file = $("up-file").files[0];
  if (!file) return;
  const r = await api(`/api/upload?format=${encodeURIComponent($("up-format").value)}&name=${encodeURIComponent(file.name)}`,
    { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
  $("up-result").textContent = JSON.stringify(r.data, null, 1);
  await load();
}

// ------------------------------------------------------------------ the frame

function render() {
  if (!S) return;
  // a device opened before the game started follows it once it is started elsewhere
  const typing = [...document.querySelectorAll(".player")].some((i) => i.value.trim());
  if (tab === "new" && S.game && !S.game.ended && !typing && startedElsewhere) switchTab("deal");
  startedElsewhere = !S.games.length;
  $("logname").textContent = S.log;
  const n = S.seq - 1, form_ = new Intl.PluralRules(lang).select(n);  // the language's plural forms (CLDR)
  // the deal this page recorded stays said (not only until the view comes back) while it is the log's last
  const mine = written && written.last === n ? `${t("recorded")}: seq ${written.first}…${written.last} · ` : "";
  $("status").textContent = `${mine}${n} ${t("seq_" + form_) || t("seq")} · ${t("updated")} `
    + new Date().toLocaleTimeString(lang === "ru" ? "ru-RU" : "en-GB");
  $("game-select").replaceChildren(...S.games.map((g) => el("option", { value: g.id, selected: g.id === chosen },
    g.id + (g.ended ? " ✓" : ""))));
  const q = "?lang=" + lang + (chosen ? "&game=" + encodeURIComponent(chosen) : "");
  $("dl-html").href = "/download/html" + q;
  $("dl-csv").href = "/download/csv" + q;
  // the sheet's tab is named by the game (Solo Whist keeps пункты, not a пулька)
  document.querySelector('nav button[data-tab="sheet"]').textContent =
    (S.game && S.game.words && S.game.words.sheet) || t("tab_sheet");
  refresh(); renderSheet(); renderDeals(); renderReplay(); renderEarlier();
}

function translate() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll("[data-t]")) e.textContent = t(e.dataset.t);
  for (const e of document.querySelectorAll("[data-tp]")) e.placeholder = t(e.dataset.tp);
  $("lang").textContent = lang === "ru" ? "EN" : "RU";
}

function switchTab(name) {
  tab = name;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("on", b.dataset.tab === name);
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== "tab-" + name;
  if (name === "new" || name === "files") renderNew();
  if (name === "sheet") strike($("sheet"));
}

document.addEventListener("DOMContentLoaded", () => {
  translate();
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => switchTab(b.dataset.tab));
  $("lang").addEventListener("click", () => { lang = lang === "ru" ? "en" : "ru"; localStorage.setItem("vistlog-lang", lang); translate(); render(); load();
    if ($("preset").options.length) loadOptions(); });
  $("game-select").addEventListener("change", (e) => { every = false; chosen = e.target.value; localStorage.setItem("vistlog-game", chosen); form = fresh(); load(); });
  $("record").addEventListener("click", recordDeal);
  $("sheet").addEventListener("click", zoom);
  $("clear").addEventListener("click", () => { form = fresh(); update(); });
  $("line").addEventListener("input", () => { form.edited = true; begin(); });
  $("line").addEventListener("keydown", (e) => { if (e.key === "Enter") recordDeal(); });
  $("played").addEventListener("change", (e) => { form.played = e.target.checked; update(); });
  $("auction").addEventListener("toggle", () => { if (form.auction !== $("auction").open) { form.auction = $("auction").open; update(); } });
  $("undo").addEventListener("click", undoLast);
  $("end-game").addEventListener("click", endGame);
  $("adj-record").addEventListener("click", adjust);
  $("preset").addEventListener("change", loadOptions);
  $("start").addEventListener("click", startGame);
  $("upload").addEventListener("click", upload);
  load().then(() => { if (!S || !S.games.length) switchTab("new"); });
  setInterval(poll, 1000);
});
