// The replay viewer of one game: the file vistlog replay LOG --format html writes (its data inline, #data: it
// asks no server for anything) and the score pad's «Просмотр» tab (VistlogViewer.mount, the pad's own data and,
// on a tap, its analysis). Deal by deal, card by card; arrow keys, swipes, buttons, a deal list and a deep link
// (#deal=5&trick=3); Russian or English.
"use strict";
window.VistlogViewer = (function () {
  const T = {
    ru: { deal: "Сдача", trick: "Взятка", card: "карта", of: "из", talon: "Прикуп", took: "взял", sheet: "Запись после сдачи",
          settlement: "Расчёт", head: "Голова цепочки журнала", check: "проверить", deals: "Сдачи", voided: "аннулирована",
          again: "записана заново", prev_deal: "Предыдущая сдача", next_deal: "Следующая сдача", prev_trick: "Предыдущая взятка",
          next_trick: "Следующая взятка", prev_card: "Предыдущая карта", next_card: "Следующая карта", no_cards: "Карты этой сдачи не записаны",
          after: "после карты", best: "лучше", cost: "цена", lang: "English", hands: "Руки", discard: "снёс", loading: "…",
          no_head: "журнал без цепочки: проверить нечем", open_hands: "в открытую", closed_hands: "что они могли знать",
          dd_value: "в открытую:", dd_each: "в открытую каждый удержится на:", dd_defence: "у защиты",
          trick_one: "взятка", trick_few: "взятки", trick_many: "взяток", trick_other: "взятки",
          at_least: "не меньше", at_most: "не больше", from: "от", to: "до", gen_one: "взятки", gen_other: "взяток",
          undecided: "не решено за отведённое время", uncounted: "не посчитано за отведённое время", made: "контракт теперь играется", failed: "контракт больше не играется" },
    en: { deal: "Deal", trick: "Trick", card: "card", of: "of", talon: "Talon", took: "taken by", sheet: "The sheet after the deal",
          settlement: "Settlement", head: "The log's chain head", check: "check", deals: "Deals", voided: "voided",
          again: "recorded again", prev_deal: "Previous deal", next_deal: "Next deal", prev_trick: "Previous trick",
          next_trick: "Next trick", prev_card: "Previous card", next_card: "Next card", no_cards: "The cards of this deal are not recorded",
          after: "after the card", best: "better", cost: "cost", lang: "Русский", hands: "Hands", discard: "discarded", loading: "…",
          no_head: "the log has no chain: nothing to check against", open_hands: "open hands", closed_hands: "what they could know",
          dd_value: "double-dummy:", dd_each: "double-dummy, each can hold himself to:", dd_defence: "the defence",
          trick_one: "trick", trick_other: "tricks",
          at_least: "at least", at_most: "at most", from: "", to: "to", gen_one: "trick", gen_other: "tricks",
          undecided: "not decided within the budget", uncounted: "not counted within the budget", made: "the contract now makeable", failed: "the contract no longer makeable" },
  };
  const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
  let D = null, root = null, opts = {};
  let lang = "ru";
  let d = 0, k = 0;              // the deal shown, and how many of its cards are played
  let sheets = null;             // the drawn sheets, unpacked on first use
  const asked = {};              // the analysis asked for on a tap, by deal index (the pad's)
  const t = (key) => T[lang][key] || key;
  const plural = (n, stem) => t(stem + "_" + new Intl.PluralRules(lang).select(n));

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [key, v] of Object.entries(attrs || {})) {
      if (key === "onclick") e.addEventListener("click", v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(key, v === true ? "" : v);
    }
    for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }

  function card(c) {
    return c.slice(0, -1) + SUITS[c.slice(-1)];  // as the story's lines write a card (J♥, 10♠)
  }

  const deal = () => D.deals[d];
  const plays = () => { const c = deal().cards; return c ? c.tricks.flatMap((tr) => tr.cards) : []; };
  // how many cards are played when each trick is complete; the trick the n-th card is in, and its place there
  const ends = () => { let s = 0; return deal().cards.tricks.map((tr) => (s += tr.cards.length)); };
  const trickOf = (n) => {
    const e = ends(), i = e.findIndex((x) => x >= n);
    return i < 0 ? [e.length - 1, n - (e[e.length - 2] || 0)] : [i, n - (i ? e[i - 1] : 0)];
  };

  async function unpack() {
    if (sheets !== null || !D.sheets) return sheets;
    if (typeof D.sheets !== "string") { sheets = D.sheets; return sheets; }
    const bytes = Uint8Array.from(atob(D.sheets), (ch) => ch.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    sheets = JSON.parse(await new Response(stream).text());
    return sheets;
  }

  function go(nd, nk) {
    d = Math.max(0, Math.min(D.deals.length - 1, nd));
    k = Math.max(0, Math.min(plays().length, nk));
    const tr = deal().cards && k ? trickOf(k)[0] + 1 : 0;
    if (!opts.embedded) history.replaceState(null, "", `#deal=${deal().deal}` + (tr ? `&trick=${tr}` + (k ? `&card=${k}` : "") : "") + (lang === "en" ? "&lang=en" : ""));
    draw();
  }
  const step = (n) => go(d, k + n);
  function trickStep(n) {
    // forward to where the trick on the table (or the next) is complete, back to where the one before it was
    if (!deal().cards) return go(d + n, 0);
    const e = [0, ...ends()];
    go(d, n > 0 ? (e.find((x) => x > k) ?? k) : ([...e].reverse().find((x) => x < k) ?? 0));
  }

  function hands() {
    const c = deal().cards;
    const gone = new Set(plays().slice(0, k).map((x) => x[1]));
    const box = el("div", { class: "hands" });
    for (const [p, cs] of Object.entries(c.hands)) box.append(el("div", { class: "hand" }, el("strong", {}, p), " ", cs.filter((x) => !gone.has(x)).map(card).join(" ")));
    const begun = k ? trickOf(k)[0] + 1 : 0;  // a talon not taken leads the first tricks, a card each
    const left = c.took ? (k === 0 ? c.talon : []) : c.talon.slice(begun);
    if (left.length) box.append(el("div", { class: "hand talon" }, el("strong", {}, t("talon")), " ",
      left.map(card).join(" ") + (c.took ? ` (${t("took")} ${c.declarer}` + (c.discard.length ? `; ${t("discard")} ${c.discard.map(card).join(" ")})` : ")") : "")));
    return box;
  }

  function trick() {
    if (!k) return el("div", { class: "trick" });
    const [i, shown] = trickOf(k);
    const tr = deal().cards.tricks[i];
    const first = k - shown;   // the place of the trick's first card in the deal's play
    const v = values();
    const rows = tr.cards.slice(0, shown).map(([p, c], j) => {
      const x = v && v.cards ? v.cards[first + j] : null;
      const whose = v && v.side ? v.side.join("+") : p;  // whose tricks the values count
      const after = x && (x.exact === false ? span(x.after_low, x.after_high, v.tricks) : `${x.after} ${plural(x.after, "trick")}`);
      const note = x ? ` — ${t("after")}: ${whose} ${after}` + (x.mistake ? " ✗" + (x.better.length ? ` ${t("best")}: ${x.better.map(card).join(" ")}` : "") + (x.cost && Object.keys(x.cost).length ? `; ${t("cost")}: ` + Object.entries(x.cost).map(([q, n]) => `${q} ${n}`).join(", ") : "") : "") + (x.fate ? ` · ${t(x.fate)}` : "") : "";
      return el("div", { class: "played" + (first + j === k - 1 ? " last" : "") }, `${p} ${card(c)}${note}`);
    });
    const led = !deal().cards.took && i < deal().cards.talon.length ? [el("div", { class: "led" }, `${t("talon")} ${card(deal().cards.talon[i])}`)] : [];
    return el("div", { class: "trick" }, el("strong", {}, `${t("trick")} ${i + 1}` + (shown === tr.cards.length && tr.winner ? ` → ${tr.winner}` : "")), ...led, ...rows);
  }

  const values = () => deal().values || asked[d] || null;

  function span(lo, hi, most) {
    // a count the search proved only a range of (past the analysis budget), in words
    if (lo === hi) return `${lo} ${plural(lo, "trick")}`;
    if (lo === 0 && hi >= most) return t("uncounted");
    const gen = (n) => t(new Intl.PluralRules(lang).select(n) === "one" ? "gen_one" : "gen_other");
    if (hi >= most) return `${t("at_least")} ${lo} ${gen(lo)}`;
    if (lo === 0) return `${t("at_most")} ${hi} ${gen(hi)}`;
    return `${t("from")} ${lo} ${t("to")} ${hi} ${gen(hi)}`.trim();
  }

  function analysis() {
    // a contract: its side's double-dummy tricks; a raspas: what each can hold himself to; the decisions made
    // with the cards hidden, each a line to tap; in the pad, the buttons that ask for them
    const v = values(), out = [];
    if (v && v.values) out.push(el("div", { class: "dd" }, `${t("dd_each")} ` + [...Object.entries(v.values).map(([p, n]) => `${p} ${n}`),
      ...Object.entries(v.ranges || {}).map(([p, [lo, hi]]) => `${p} ${lo}–${hi}`)].join(", ")));
    else if (v && v.value === null) out.push(el("div", { class: "dd" }, `${t("dd_value")} ${v.side.join("+")} ` +
      (v.makeable === null && v.low === 0 && v.high >= v.tricks ? t("undecided")
        : span(v.low, v.high, v.tricks) + (v.makeable === null ? ` (${t("undecided")})` : ""))));
    else if (v) out.push(el("div", { class: "dd" }, `${t("dd_value")} ${v.side.join("+")} ${v.value}, ${t("dd_defence")} ${v.defence}`));
    if (v && v.decision_lines && k === 0) out.push(...v.decision_lines.map(([head, ...choices]) =>
      el("details", { class: "decision" }, el("summary", {}, head), el("pre", {}, choices.join("\n")))));
    if (opts.ask && deal().cards && !deal().voided) {
      const mine = d;
      const ask = async (weigh) => {
        try {
          asked[mine] = await opts.ask(D.deals[mine].deal, weigh);
          if (d === mine) draw();
        } catch (e) {
          const box = root.querySelector("#v-deal");
          if (box && d === mine) box.append(el("div", { class: "err" }, String(e.message || e)));
        }
      };
      out.push(el("div", { class: "asks" },
        el("button", { type: "button", class: "open-hands", disabled: !!v, onclick: () => ask(false) }, t("open_hands")), " ",
        el("button", { type: "button", class: "closed-hands", disabled: !!(v && v.decision_lines), onclick: () => ask(true) }, t("closed_hands"))));
    }
    return out;
  }

  async function draw() {
    if (!opts.embedded) document.documentElement.lang = lang;
    const x = deal();
    const list = el("select", { id: "v-deal-list", class: "deal-list", "aria-label": t("deals") });
    D.deals.forEach((y, i) => list.append(el("option", { value: i, selected: i === d }, `${y.deal}. ${y.summary[lang]}` + (y.voided ? ` (${t("voided")})` : ""))));
    list.addEventListener("change", (e) => go(Number(e.target.value), 0));
    const n = plays().length;
    const controls = el("div", { class: "controls" },
      el("button", { type: "button", id: "v-prev-deal", class: "prev-deal", title: t("prev_deal"), onclick: () => go(d - 1, 0) }, "«"),
      el("button", { type: "button", id: "v-prev-trick", class: "prev-trick", title: t("prev_trick"), onclick: () => trickStep(-1) }, "◀◀"),
      el("button", { type: "button", id: "v-prev-card", class: "prev-card", title: t("prev_card"), onclick: () => step(-1) }, "◀"),
      el("span", { id: "v-where", class: "where" }, x.cards ? `${t("card")} ${k} ${t("of")} ${n}` : ""),
      el("button", { type: "button", id: "v-next-card", class: "next-card", title: t("next_card"), onclick: () => step(1) }, "▶"),
      el("button", { type: "button", id: "v-next-trick", class: "next-trick", title: t("next_trick"), onclick: () => trickStep(1) }, "▶▶"),
      el("button", { type: "button", id: "v-next-deal", class: "next-deal", title: t("next_deal"), onclick: () => go(d + 1, 0) }, "»"));
    const head = D.head ? [el("code", { id: "v-head", class: "head" }, D.head), el("div", { class: "check" }, `${t("check")}: vistlog verify ${D.log || "LOG"} --head ${D.head}`)]
      : [el("span", { id: "v-head", class: "head" }, t("no_head"))];
    const sheet = el("div", { id: "v-sheet", class: "sheet" }, t("loading"));
    const langButton = opts.embedded ? [] : [el("button", { type: "button", id: "v-lang", class: "lang", onclick: () => { lang = lang === "ru" ? "en" : "ru"; go(d, k); } }, t("lang"))];
    root.replaceChildren(
      el("header", {}, el("h1", {}, D.game), ...langButton),
      el("pre", { class: "story" }, D.header[lang].join("\n")),
      list, controls,
      el("section", { id: "v-deal", class: "deal" + (x.voided ? " voided" : "") },
        el("pre", { class: "lines" }, x.lines[lang].join("\n")),
        ...(x.cards ? [hands(), ...analysis(), trick()] : [el("p", { class: "note" }, t("no_cards"))])),
      el("h2", {}, `${t("sheet")} ${x.deal}`), sheet,
      ...(D.settlement ? [el("h2", {}, t("settlement")), el("pre", { id: "v-settlement", class: "settlement" }, D.settlement[lang])] : []),
      ...(opts.embedded ? [] : [el("h2", {}, t("head")), ...head]));
    try {
      const all = await unpack();
      const mine = d;
      const drawn = all ? all[lang][d] : opts.sheet ? await opts.sheet(x.deal) : null;
      if (mine !== d) return;
      if (drawn) sheet.innerHTML = drawn;  // drawn by vistlog itself, names escaped
      else { sheet.previousSibling.remove(); sheet.remove(); }
    } catch (e) { sheet.textContent = String(e.message || e); }
  }

  function fromHash() {
    const q = new URLSearchParams(location.hash.slice(1));
    if (q.get("lang") === "en" || q.get("lang") === "ru") lang = q.get("lang");
    const want = Number(q.get("deal") || 0);
    let i = D.deals.findIndex((y) => y.deal === want && !y.voided);
    if (i < 0) i = Math.max(0, D.deals.findIndex((y) => y.deal === want));
    d = i;
    let nk = 0;
    const tr = Number(q.get("trick") || 0);
    if (q.get("card")) nk = Number(q.get("card"));
    else if (tr && deal().cards) nk = ends()[Math.min(tr, deal().cards.tricks.length) - 1];
    go(d, nk);
  }

  function keys(e) {
    if (!root || !root.isConnected || root.offsetParent === null && opts.embedded) return;  // the viewer is not shown
    if (e.target && ["SELECT", "INPUT", "TEXTAREA"].includes(e.target.tagName)) return;
    const moves = { ArrowRight: () => step(1), ArrowLeft: () => step(-1), ArrowDown: () => trickStep(1), ArrowUp: () => trickStep(-1),
                    PageDown: () => go(d + 1, 0), PageUp: () => go(d - 1, 0), Home: () => go(d, 0), End: () => go(d, plays().length) };
    if (moves[e.key]) { e.preventDefault(); moves[e.key](); }
  }
  let x0 = null, y0 = null;
  function touchStart(e) { x0 = e.touches[0].clientX; y0 = e.touches[0].clientY; }
  function touchEnd(e) {
    if (x0 === null) return;
    const dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
    x0 = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) step(dx < 0 ? 1 : -1);
  }

  function mount(where, data, options = {}) {
    // show ``data`` (what vistlog.viewer makes of a game) in ``where``; options: lang, embedded (inside another
    // page: no hash, no language switch of its own), deal (the index shown first), ask(deal, weigh) → the deal's
    // analysis, sheet(deal) → the sheet drawn after it (SVG), each a promise
    const again = root !== null;
    root = where; D = data; opts = options; sheets = null;
    root.classList.add("vistlog-viewer");
    for (const key of Object.keys(asked)) delete asked[key];
    lang = options.lang || lang;
    if (!D.deals.length) { root.replaceChildren(); return; }
    if (!again) {
      document.addEventListener("keydown", keys);
      root.addEventListener("touchstart", touchStart, { passive: true });
      root.addEventListener("touchend", touchEnd);
    }
    if (opts.embedded) go(opts.deal !== undefined ? opts.deal : D.deals.length - 1, 0);
    else { window.addEventListener("hashchange", fromHash); fromHash(); }
  }

  const own = document.getElementById("data");
  if (own) {
    lang = document.documentElement.dataset.lang === "en" ? "en" : "ru";
    document.body.classList.add("viewer-page");
    const main = el("main", { id: "app" });
    document.body.append(main);
    mount(main, JSON.parse(own.textContent), { lang });
  }
  return { mount };
})();
