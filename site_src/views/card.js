/* The passage card: one passage of any corpus, read where its id was tapped. Its text with the
 * query's matched terms marked, each term's part of the BM25 score (the engine's twin,
 * RAG.engine.BM25 through corpus.indexAt, at the lab's k1 and b: the BM25 view's own numbers), the
 * passage's metadata, and its ranks in the lists the lab shows.
 *
 * Input: {corpus (RAG.corpus), prefix (its element ids)}.
 * Reads of the corpus: passage(id) (id, text, title, section; updated, kind, acl, superseded when
 * it has them: a reader's documents may not), ids, indexAt(k1, b), settings.bm25.
 * State: {pid, text (the lab's query, "" when it has none), k1, b, ranks ([{list, rank}], read
 * from the lab's lists by the opener below)}.
 *
 * Opening: RAG.card.open(section, pid, trigger) (runtime/kit.js calls it on a click, a tap or
 * Enter on a passage id in any lab: li.result .pid-open, or a focusable [data-pid]); the card is
 * drawn in place, just under the id's row and as wide as it, and the row's margin makes room for
 * it, so the rows after it move down rather than hide under it (place, below); it follows the
 * lab's redraws (a slider moved), and closes with its button or Escape, giving the focus back to
 * the id. This file loads on the
 * first opening (assets/scripts/card.js, with assets/card.css), never with the page.
 *
 * The card reads the lab's corpus (its context's input.corpus) and state (text or q, k1, b). A lab
 * whose passages come from another corpus (a reader's documents) says where from in its setup:
 * ctx.root.cardSource = () => ({corpus, state}); the card then reads those. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const h = RAG.h;
  const TERM = /[\p{L}\p{N}]+/gu;  // a term as the engine's tokenizer cuts it (site_src/engine/tokenize.js)
  const K1 = "k\u2081";
  const KINDS = { help: "help-center page", forum: "forum post", runbook: "staff runbook" };

  /** The text in runs, each run of a matched term in a mark.
   *  Example: marked("QB-4021 fails", new Set(["4021"])) -> ["QB-", <mark>4021</mark>, " fails"] */
  function marked(text, terms) {
    const out = [];
    let at = 0;
    for (const match of text.matchAll(TERM)) {
      if (!terms.has(match[0].toLowerCase())) continue;
      out.push(text.slice(at, match.index), h("mark", { class: "card-term" }, match[0]));
      at = match.index + match[0].length;
    }
    out.push(text.slice(at));
    return out;
  }

  /** Who may read it, in words: "everyone (public)", "staff only". */
  const readers = (acl) => (acl.length === 1 && acl[0] === "public" ? "everyone (public)"
    : acl.length === 1 ? `${acl[0]} only` : acl.join(", "));

  function meta(p) {
    const rows = [
      p.updated ? ["Updated", p.updated] : null,
      p.kind ? ["Source", KINDS[p.kind] || p.kind] : null,
      p.acl ? ["Who may read it", readers(p.acl)] : null,
      p.superseded === undefined ? null : ["Superseded", p.superseded ? "yes: a newer page replaces it" : "no"],
    ].filter(Boolean);
    return h("dl", { class: "card-meta" }, rows.map(([name, value]) => h("div", null, h("dt", null, name), h("dd", null, value))));
  }

  function terms(props) {
    if (!props.text) return h("p", { class: "card-note" }, "This lab shows no query, so no term is marked.");
    if (!props.shares.length) {
      return h("p", { class: "card-note" }, ["No term of the query occurs in this passage: BM25 gives it 0 (", props.settings, ")."]);
    }
    return [
      h("p", { class: "card-note" }, `BM25 score ${RAG.fixed(props.score, 3)} (${props.settings}), made of:`),
      h("ul", { class: "card-shares", "aria-label": "What each matched term added" },
        props.shares.map((c) => h("li", { "data-term": c.term }, h("code", null, c.term), ` +${RAG.fixed(c.score, 3)} `,
          h("span", { class: "card-share" }, `${RAG.fixed((100 * c.score) / props.score, 0)}%`)))),
    ];
  }

  RAG.view("card", {
    accept(next, input) {
      const { corpus } = input;
      if (!corpus.has(next.pid)) return null;
      const build = corpus.settings.bm25;
      return { pid: next.pid, text: typeof next.text === "string" ? next.text.trim() : "",
               k1: typeof next.k1 === "number" ? next.k1 : build.k1, b: typeof next.b === "number" ? next.b : build.b,
               ranks: Array.isArray(next.ranks) ? next.ranks : [] };
    },

    props(state, input) {
      const { corpus } = input;
      const p = corpus.passage(state.pid);
      const index = corpus.indexAt(state.k1, state.b);
      const shares = state.text ? index.explain(state.text, corpus.ids.indexOf(p.id)).filter((c) => c.score > 0) : [];
      const build = corpus.settings.bm25;
      return {
        prefix: input.prefix, p, text: state.text, shares, ranks: state.ranks,
        score: shares.reduce((total, c) => total + c.score, 0),
        matched: new Set(shares.map((c) => c.term)),
        settings: `${K1} = ${RAG.fixed(state.k1, 2)}, b = ${RAG.fixed(state.b, 2)}` +
          (state.k1 === build.k1 && state.b === build.b ? ", the build\u2019s" : ""),
      };
    },

    view(props) {
      const { p, prefix } = props;
      return h("div", { class: "card-box", role: "dialog", "aria-labelledby": `${prefix}-title`, "data-pid": p.id },
        h("div", { class: "card-head" },
          h("h4", { id: `${prefix}-title`, class: "card-title", tabindex: "-1" }, h("code", null, p.id), " ",
            h("span", { class: "card-name" }, p.section && p.section !== p.title ? `${p.title} \u203a ${p.section}` : p.title)),
          h("button", { type: "button", class: "btn card-close", "aria-label": `Close the card of ${p.id}` }, "Close")),
        meta(p),
        props.ranks.length ? h("p", { class: "card-ranks" }, "In this lab: ",
          props.ranks.map((r, i) => [i ? "; " : "", `${r.list} `, h("strong", null, r.rank)])) : null,
        terms(props),
        h("p", { class: "card-text" }, marked(p.text, props.matched)));
    },
  });

  /* ----------------------------------------------------------- opening, in a lab */

  const open = new Map();  // lab section -> {host, pid, trigger, input}

  /** The lab's query: its typed text, or its question's. */
  function queryOf(state, corpus) {
    if (typeof state.text === "string" && state.text.trim()) return state.text;
    const question = typeof state.q === "string" && state.q ? corpus.question(state.q) : null;
    return question ? question.text : "";
  }

  /** A heading's words, without a stage's leading number ("4 Who may read it" -> "Who may read it"). */
  const named = (heading) => heading.textContent.trim().replace(/^\d+\s+/, "");

  /** A list's name: the heading its <ol> is labelled by, or the nearest heading above it in the lab. */
  function listName(row, section) {
    const list = row.closest("ol, ul");
    const label = list && list.getAttribute("aria-labelledby");
    if (label && document.getElementById(label)) return named(document.getElementById(label));
    for (let box = row.parentElement; box && box !== section; box = box.parentElement) {
      const heading = box.querySelector(":scope > h4, :scope > h3, :scope > header h3");
      if (heading) return named(heading);
    }
    const title = section.querySelector("h3");
    return title ? named(title) : "list";
  }

  /** The passage's rank in each list the lab shows (rows li.result[data-pid] with a rank). */
  function ranksIn(section, pid) {
    const rows = [...section.querySelectorAll(`.lab-output li.result[data-pid="${CSS.escape(pid)}"]`)];
    const seen = new Set();
    return rows.map((row) => {
      const rank = row.querySelector(".rank");
      return rank && rank.textContent.trim() ? { list: listName(row, section), rank: rank.textContent.trim() } : null;
    }).filter((r) => r && !seen.has(r.list) && seen.add(r.list));
  }

  const GAP = 6;  // px between the passage's row and its card, and under the card
  const px = (n) => `${Math.round(n)}px`;

  /** The block the card opens under: the passage's row (its li), or, for a passage drawn in a
   *  picture (an SVG node or dot), the picture; the lab's first line when neither is drawn now. */
  function anchorOf(card) {
    const { trigger, section, pid } = card;
    let item = trigger && trigger.isConnected ? trigger.closest("[data-pid]") || trigger
      : section.querySelector(`.lab-output li.result[data-pid="${CSS.escape(pid)}"]`);
    while (item && item instanceof SVGElement) item = item.parentElement;
    if (item && item.closest("table")) item = item.closest("table");  // a table row takes no margin
    else if (item) item = item.closest("li") || item;
    return item || section.querySelector(".lab-output > :first-child") || section.querySelector(".lab-output");
  }

  /** The card opens in place: laid just under its row, as wide as the row, and the row's bottom
   *  margin grows by the card's height, so what follows moves down and nothing is covered. */
  function place(card) {
    const { host, section } = card;
    const anchor = anchorOf(card);
    if (card.anchor !== anchor) {
      if (card.anchor) card.anchor.style.marginBottom = card.anchorMargin;
      card.anchor = anchor;
      card.anchorMargin = anchor.style.marginBottom;
      card.baseMargin = parseFloat(window.getComputedStyle(anchor).marginBottom) || 0;
    }
    const box = anchor.getBoundingClientRect();
    const at = section.getBoundingClientRect();
    Object.assign(host.style, { top: px(box.bottom - at.top + GAP), left: px(box.left - at.left), width: px(box.width) });
    anchor.style.marginBottom = px(card.baseMargin + host.offsetHeight + 2 * GAP);
  }

  /** What the card reads in a lab: its corpus and its state (or what the lab's cardSource names). */
  function sourceOf(section) {
    if (typeof section.cardSource === "function") return section.cardSource();
    const ctx = RAG.labContext(section.dataset.lab);
    return ctx ? { corpus: ctx.input.corpus, state: ctx.state } : null;
  }

  function draw(card) {
    const source = sourceOf(card.section);
    if (!source || source.corpus !== card.input.corpus) return close(card.section);
    const { state } = source;
    const next = card.spec.accept({ pid: card.pid, text: queryOf(state, card.input.corpus), k1: state.k1, b: state.b,
                                    ranks: ranksIn(card.section, card.pid) }, card.input);
    if (!next) return close(card.section);
    window.preact.render(RAG.labDrawing(card.spec, next, card.input).element, card.host);
    place(card);
    return card;
  }

  function close(section, { refocus = false } = {}) {
    const card = open.get(section);
    if (!card) return;
    open.delete(section);
    card.watch.disconnect();
    card.size.disconnect();
    if (card.anchor) card.anchor.style.marginBottom = card.anchorMargin;
    window.preact.render(null, card.host);
    card.host.remove();
    if (refocus && card.trigger && card.trigger.isConnected) card.trigger.focus();
  }

  /** Open (or move) the card of `pid` in a started lab's section, under `trigger`. */
  function openIn(section, pid, trigger) {
    const source = sourceOf(section);
    if (!source || !source.corpus || !source.corpus.has(pid)) return null;
    close(section);
    const host = RAG.el("div", { class: "card-host" });
    Object.assign(host.style, { position: "absolute", zIndex: "5" });
    section.appendChild(host);
    const card = { section, host, pid, trigger, spec: RAG.viewSpec("card"),
                   input: { corpus: source.corpus, prefix: `card-${section.dataset.lab}` } };
    // The lab redrew (a slider, a question): the card follows, once a frame.
    let queued = false;
    card.watch = new MutationObserver(() => {
      if (queued) return;
      queued = true;
      window.requestAnimationFrame(() => { queued = false; if (open.get(section) === card) draw(card); });
    });
    card.watch.observe(section.querySelector(".lab-output"), { childList: true, subtree: true, characterData: true });
    // Its text rewraps (the window turned, a font loaded): the room under the row follows.
    card.size = new ResizeObserver(() => { if (open.get(section) === card) place(card); });
    card.size.observe(host);
    host.addEventListener("click", (event) => { if (event.target.closest(".card-close")) close(section, { refocus: true }); });
    host.addEventListener("keydown", (event) => { if (event.key === "Escape") { event.stopPropagation(); close(section, { refocus: true }); } });
    open.set(section, card);
    if (!draw(card)) return null;
    host.querySelector(".card-title").focus({ preventScroll: true });
    return card;
  }

  RAG.card = { open: openIn, close, marked, ranksIn };
})();
