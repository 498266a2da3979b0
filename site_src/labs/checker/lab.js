/* The citation checker: one claim of a traced answer (its text, the source id it cites, its quote)
 * checked by RAG.engine.checkClaim, the twin of engine/citations.py's check_claim, against the
 * passages that answer's prompt carried (data.tracers[i].sent), with the quote marked, piece by
 * piece, in the passage it cites. Text the reader types is only ever shown as text.
 * The frame's controls are kept in step with the state by setup(): the claims of the answer
 * picked, the three fields, which break-a-check buttons apply, and which case (own.cases, from
 * corpus/checker-cases.yaml) the state shows.
 * Below the checks, the answer itself, sentence by sentence (the answer view, site_src/views/answer.js):
 * the claims behind each sentence, the one being checked marked, and "no claim backs this sentence"
 * on each that holds no claim's words.
 * State: {q, c, text, source, quote}: a traced answer, the claim the reader started from, and
 * the claim's three fields once edited (absent while they are the claim's own).
 * Local: {mine}: the reader's own state from before they pressed a case, null when there is none.
 * A case may move the Answer menu to another answer; the lab then says so, and Reset takes the
 * reader back to their own answer, claim and edits. */
(() => {
  const h = RAG.h;
  const FIELDS = ["text", "source", "quote"];
  const UNEDITED = { text: undefined, source: undefined, quote: undefined };
  const words = (text) => text.split(/\s+/).filter(Boolean);
  const IGNORED = "ignoring case, spacing, typographic quotes and dashes, and HTML entities";
  // The engine (citations.js) decodes these as entities; each is one unit of the passage, as a character is.
  const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);/y;

  /**
   * The passage as RAG.engine.normalize() makes it, with, for each of its characters, the span
   * of the passage it came from: each unit (an entity or one character) normalized on its own
   * between two letters, white space folded as normalize() folds it. Null when that does not
   * give normalize()'s text exactly (a letter whose lower case depends on its neighbours), so
   * that a mark is never put in the wrong place.
   */
  function normalizedWithOrigins(text) {
    let normal = "";
    const from = [];
    const to = [];
    for (let at = 0; at < text.length;) {
      ENTITY.lastIndex = at;
      const entity = ENTITY.exec(text);
      const unit = entity ? entity[0] : String.fromCodePoint(text.codePointAt(at));
      const folded = RAG.engine.normalize(`a${unit}a`).slice(1, -1);
      for (const char of folded === " " && (!normal || normal.endsWith(" ")) ? "" : folded) {
        normal += char;
        for (let i = 0; i < char.length; i++) { from.push(at); to.push(at + unit.length); }
      }
      at += unit.length;
    }
    if (normal.endsWith(" ")) { normal = normal.slice(0, -1); from.pop(); to.pop(); }
    return normal === RAG.engine.normalize(text) ? { normal, from, to } : null;
  }

  /** The pieces the checker looks for in a passage's normalized text, as engine/citations.py
   *  reads a quote: the whole quote when the passage holds it (on whole words), else the quote
   *  cut at its "…". */
  function lookedFor(normal, quote) {
    const whole = RAG.engine.normalize(quote);
    const cut = RAG.engine.quotePieces(quote);
    return RAG.engine.findWhole(normal, whole) >= 0 ? (cut.length ? [whole] : []) : cut;
  }

  /**
   * Where each piece of a quote sits in the passage, [[start, end], ...] in the passage's own
   * characters, each found whole after the one before, as engine/citations.py finds them. Null when
   * they are not all there, or their place cannot be mapped back.
   */
  function quoteMarks(text, quote) {
    const passage = normalizedWithOrigins(text);
    if (!passage) return null;
    const pieces = lookedFor(passage.normal, quote);
    const marks = [];
    let at = 0;
    for (const piece of pieces) {
      const found = RAG.engine.findWhole(passage.normal, piece, at);
      if (found < 0) return null;
      marks.push([passage.from[found], passage.to[found + piece.length - 1]]);
      at = found + piece.length;
    }
    return marks.length ? marks : null;
  }

  /* engine.checkClaim's problems sorted into its three checks. */
  const byCheck = (problems) => ({
    source: problems.filter((p) => p.startsWith("unknown source id")),
    numbers: problems.filter((p) => p.startsWith("number ")),
    quote: problems.filter((p) => !p.startsWith("unknown source id") && !p.startsWith("number ")),
  });

  /** The case of own.cases that the claim, as edited, is: its id, or null. */
  function caseOf(cases, state, claim) {
    const fields = Object.fromEntries(FIELDS.map((key) => [key, state[key] ?? claim[key]]));
    const found = cases.find((c) => c.q === state.q && c.c === state.c
      && FIELDS.every((key) => (c.edits[key] ?? claim[key]) === fields[key]));
    return found || null;
  }

  /* One check's row: pass, fail (with its problems) or not run (no such source to look in). */
  const checkRow = (name, problems, skipped, skippedText, passed) => {
    const bad = problems.length > 0;
    const [badge, word] = skipped ? ["badge-warn", "not run"] : bad ? ["badge-fail", "fail"] : ["badge-ok", "pass"];
    return h("li", { class: skipped ? "is-skipped" : bad ? "is-bad" : "is-ok" },
      h("span", { class: ["badge", badge] }, word), " ", h("span", { class: "checker-check-name" }, name),
      skipped ? h("span", { class: "checker-detail" }, skippedText)
        : bad ? problems.map((p) => h("span", { class: "checker-problem" }, p))
        : h("span", { class: "checker-detail" }, passed));
  };

  /** What the quote check says when it passes: how the quote was found, and whether it is marked. */
  function found(props) {
    const how = props.pieces > 1
      ? `Found as ${props.pieces} pieces, each after the one before (\u201c\u2026\u201d marks words left out), ${IGNORED}.`
      : `Found, ${IGNORED}; a quote shortened with \u201c\u2026\u201d is looked for piece by piece, in order.`;
    return props.marked ? how : `${how} Not marked below: this passage holds a character whose place the page cannot map back.`;
  }

  const snippet = (text, marks) => {
    if (!marks) return text;
    const parts = [];
    let at = 0;
    for (const [start, end] of marks) {
      parts.push(text.slice(at, start), h("mark", null, text.slice(start, end)));
      at = end;
    }
    parts.push(text.slice(at));
    return parts.filter((part) => part !== "");
  };

  const sourceRow = (s) => RAG.kit.row({
    id: s.id, place: s.place, title: s.title, score: RAG.fixed(s.score, 4), scoreTitle: "fused (RRF) score",
    more: [h("span", { class: "badges" }, h("span", { class: "badge" }, s.updated),
      s.cited ? h("span", { class: "badge badge-warn" }, `cited${s.marks ? " \u00b7 quote marked" : ""}`) : null),
    h("p", { class: "snippet" }, snippet(s.text, s.marks))],
    classes: [s.cited && "is-winner"], attrs: { "data-pid": s.id } });

  function caseNote(shown) {
    return h("div", { class: "checker-case", "data-case": shown.id },
      h("p", { class: "checker-case-title" }, h("span", { class: "checker-case-kind" }, shown.rule), " \u00b7 ", shown.label,
        shown.claim_true ? null : [" ", h("span", { class: "badge badge-fail" }, "the claim is false")]),
      h("p", { class: "checker-case-note" }, shown.note));
  }

  /** What a case changed of the reader's own state (`mine`), and what Reset does about it; null
   *  when there is nothing to say. */
  function movedFrom(data, state, mine) {
    if (!mine) return null;
    const edited = FIELDS.some((key) => mine[key] !== undefined);
    if (mine.q === state.q && mine.c === state.c) return edited ? "Reset takes you back to your own edits of this claim." : null;
    const question = (id) => data.tracers.find((t) => t.id === id).question;
    const where = mine.q === state.q ? `the \u201cStart from claim\u201d menu to claim ${state.c + 1}, from your claim ${mine.c + 1}`
      : `the Answer menu to \u201c${question(state.q)}\u201d (claim ${state.c + 1}), from \u201c${question(mine.q)}\u201d (claim ${mine.c + 1})`;
    return `The case moved ${where}. Reset takes you back to your own${edited ? ", with your edits" : ""}.`;
  }

  const status = (problems) => (problems.length ? `Fails: ${RAG.plural(problems.length, "problem")}.` : "Passes every check.");

  RAG.lab("checker", {
    accept(next, input) {
      const tracer = input.data.tracers.find((t) => t.id === next.q);
      const c = Number(next.c);
      if (!tracer || !Number.isInteger(c) || c < 0 || c >= tracer.claims.length) return null;
      const claim = tracer.claims[c];
      const state = { q: tracer.id, c };
      for (const key of FIELDS) {
        if (typeof next[key] === "string" && next[key] !== claim[key]) state[key] = next[key];
      }
      return state;
    },

    props(state, input, local) {
      const { data, own } = input;
      const tracer = data.tracers.find((t) => t.id === state.q);
      const claim = tracer.claims[state.c];
      const [text, source, quote] = FIELDS.map((key) => state[key] ?? claim[key]);
      const { corpus } = input;
      const result = RAG.engine.checkClaim({ text, source_id: source, quote },
        Object.fromEntries(tracer.sent.map((pid) => [pid, corpus.passage(pid).text])));
      const groups = byCheck(result.problems);
      const quoteFound = !groups.source.length && !groups.quote.length;
      const fused = new Map(corpus.question(state.q).runs.hybrid);
      const places = RAG.kit.placesOf(tracer.sent.map((pid) => [pid, fused.get(pid)]));
      const sources = tracer.sent.map((pid) => {
        const p = corpus.passage(pid);
        const cited = pid === source;
        return { id: pid, title: p.title, updated: p.updated, text: p.text, score: fused.get(pid), cited, place: places.get(pid),
                 marks: cited && quoteFound ? quoteMarks(p.text, quote) : null };
      });
      const cited = sources.find((s) => s.cited);
      const answer = RAG.viewSpec("answer");
      const answerProps = answer.props(null, {
        corpus, text: tracer.answer_text, current: state.c, unbacked: own.unbacked,
        claims: tracer.claims.map((c, i) => ({ in_answer: c.in_answer, ok: i === state.c ? result.ok : !tracer.sent_problems[i].length })),
        label: "Illustrative \u00b7 sentence by sentence", prefix: "checker" });
      return {
        answer, answerProps, moved: movedFrom(data, state, local.mine),
        text, source, quote, problems: result.problems, groups, sources,
        pieces: quoteFound ? lookedFor(RAG.engine.normalize(cited.text), quote).length : 0, marked: Boolean(cited && cited.marks),
        case: caseOf(own.cases, state, claim),
      };
    },

    view(props) {
      const { groups, source } = props;
      const unknown = groups.source.length > 0;
      return [
        h("p", { class: "lab-status" }, status(props.problems)),
        props.moved ? h("p", { class: "checker-moved" }, props.moved) : null,
        props.case ? caseNote(props.case) : null,
        h("dl", { class: "checker-claim no-js-only" },
          h("div", null, h("dt", null, "Claim"), h("dd", { class: "checker-claim-text" }, props.text)),
          h("div", null, h("dt", null, "Cites"), h("dd", null, h("code", { class: "checker-claim-source" }, source))),
          h("div", null, h("dt", null, "Quote"), h("dd", { class: "checker-claim-quote" }, props.quote))),
        h("ul", { class: "checker-checks" },
          checkRow("The source was sent to the model", groups.source, false, null,
            [h("code", null, source), ` is one of the ${props.sources.length} passages sent.`]),
          checkRow("The quote is in that source", groups.quote, unknown,
            "Not checked: there is no such source to look in.", found(props)),
          checkRow("Every number in the claim is in the quote", groups.numbers, unknown,
            "Not checked: there is no such source.", "No number of the claim is missing from the quote.")),
        props.answer.view(props.answerProps),
        h("h4", null, `The ${props.sources.length} passages sent with this answer`),
        h("ol", { class: "results checker-sources" }, props.sources.map(sourceRow)),
      ];
    },

    summary(props) {
      return props.problems.length ? `${status(props.problems)} ${props.problems.join("; ")}.` : status(props.problems);
    },

    local: { mine: null },

    // For the tests, which hold the marks to engine/citations.py's pieces.
    quoteMarks,

    setup(ctx) {
      const { data, own } = ctx.input;
      const field = (key) => ctx.find(`[name="checker-${key}"]`);
      const tracerOf = () => data.tracers.find((t) => t.id === ctx.state.q);
      const current = (key) => ctx.state[key] ?? tracerOf().claims[ctx.state.c][key];

      /** The frame's controls, as the state stands: after every change, whoever made it. */
      const sync = () => {
        const tracer = tracerOf();
        field("q").value = ctx.state.q;
        const claims = field("c");
        const labels = tracer.claims.map((claim, i) => `${i + 1}. ${claim.text}`);
        if ([...claims.options].map((option) => option.textContent).join("\n") !== labels.join("\n")) {
          RAG.replace(claims, labels.map((label, i) => RAG.el("option", { value: String(i) }, label)));
        }
        claims.value = String(ctx.state.c);
        for (const key of FIELDS) {
          if (field(key).value !== current(key)) field(key).value = current(key);  // left alone while it holds what was typed
        }
        ctx.find('button[data-action="number"]').disabled = !/[0-9]/.test(current("text"));
        ctx.find('button[data-action="word"]').disabled = words(current("quote")).length < 2;
        const shown = caseOf(own.cases, ctx.state, tracerOf().claims[ctx.state.c]);
        for (const button of ctx.findAll("button[data-case]")) {
          button.setAttribute("aria-pressed", String(Boolean(shown) && button.dataset.case === shown.id));
        }
      };
      const set = (patch, options) => { ctx.set(patch, options); sync(); };
      // The reader's own state, kept while a case shows (drawn on the next set or show).
      const keep = (mine) => { ctx.local = { ...ctx.local, mine }; };

      ctx.on(field("q"), "change", () => { keep(null); set({ q: field("q").value, c: 0, ...UNEDITED }); });
      ctx.on(field("c"), "change", () => { keep(null); set({ c: field("c").value, ...UNEDITED }); });
      for (const key of FIELDS) {
        ctx.on(field(key), "input", () => set({ [key]: field(key).value }, { announce: "later" }));
      }
      const actions = {
        // The first passage of the fused list that did not make the cut: real, but never sent.
        unsent: () => {
          const sent = tracerOf().sent;
          const next = ctx.input.corpus.question(ctx.state.q).runs.hybrid.find(([pid]) => !sent.includes(pid));
          if (next) set({ source: next[0] });
        },
        number: () => set({ text: current("text").replace(/[0-9]+/, (digits) => String(Number(digits) + 1)) }),
        word: () => {
          const quote = words(current("quote"));
          quote.splice(Math.floor(quote.length / 2), 1);
          set({ quote: quote.join(" ") });
        },
        // Back to the reader's own answer, claim and edits when a case moved them; else the claim as written.
        reset: () => {
          const mine = ctx.local.mine;
          keep(null);
          set(mine ? { ...UNEDITED, ...mine } : UNEDITED);
        },
      };
      for (const button of ctx.findAll("button[data-action]")) {
        ctx.on(button, "click", () => actions[button.dataset.action]());
      }
      for (const button of ctx.findAll("button[data-case]")) {
        const shown = own.cases.find((c) => c.id === button.dataset.case);
        ctx.on(button, "click", () => {
          if (!ctx.local.mine) keep({ ...ctx.state });
          set({ q: shown.q, c: shown.c, ...UNEDITED, ...shown.edits });
          // The case's explanation is drawn below the controls: bring it (and what it moved) into view.
          const note = ctx.output.querySelector(".checker-case");
          if (note) note.scrollIntoView({ block: "nearest" });
        });
      }
      // A link, Back or Forward changes the state through the runtime (its listener runs first),
      // and so does the link the lab starts from, once this setup is done. A link is a state of
      // its own: the reader's state from before a case is forgotten.
      ctx.on(window, "hashchange", () => {
        if (ctx.local.mine) ctx.show({ mine: null });
        sync();
      });
      queueMicrotask(sync);
    },
  });
})();
