/* The chunking lab: one help page cut by a chunker the reader sets (fixed size with overlap,
 * whole sentences up to a word limit, one chunk per heading, or the whole page). The view cuts
 * the page with the engine's JavaScript twin (RAG.engine.chunkWith), draws it whole with a
 * cut line where each chunk starts, each chunk underlined (the overlap carries two lines) and the
 * top chunk highlighted in place, then lists the chunks by rank, each with its real cosine to the question: the build embedded
 * every chunk the sliders can make and ships each one's cosines, keyed by a hash of its text
 * (engine/text_key.py, RAG.engine.textKey). What the lesson says is computed from what ranks first, for any setting.
 *
 * State: {chunker, size, overlap, limit, repeat, q}. A link may name one of the presets instead
 * (setting=fixed-25-overlap-10): its values replace the chunker's. A number is put on its
 * slider's range and steps (the overlap at most half the size); one that is not a number is the
 * page's own (own.start); an unknown chunker, preset or question is refused. */
(() => {
  const h = RAG.h;
  const LIST_MAX = 10;  // rows in the ranked list; every chunk is on the drawn page

  const maxOverlap = (size, grid) => Math.min(Math.floor(size / 2), grid.overlap[1]);
  /** A slider's setting onto its range (lab.html's sliders: whole words, steps of 1). */
  const onSlider = (value, [min, max], fallback) => RAG.kit.onSlider(value, { min, max, step: 1 }, fallback);

  /** A setting's name, as data.py names its presets ("Fixed, 25 words, 10 overlap"). */
  function labelOf(state) {
    const overlap = (n) => (n ? ", " + n + " overlap" : "");
    if (state.chunker === "fixed") return `Fixed, ${state.size} words${overlap(state.overlap)}`;
    if (state.chunker === "sentences") return `Sentences, up to ${state.limit} words${overlap(state.repeat)}`;
    return state.chunker === "headings" ? "By heading" : "Whole page";
  }

  /* ------------------------------------------------------------- the page, once per data */

  /** The page as engine/documents.py reads it (its twin: RAG.engine.markdownBlocks, proseOf,
   *  pageText), and as drawn: heading and paragraph blocks, each word with its place in the
   *  block's text, among the page's words and among the prose's. */
  function readPage(markdown) {
    const E = RAG.engine;
    const run = new RegExp("[^" + E.SPACE + "]+", "g");  // a word, as str.split() finds them
    const blocks = E.markdownBlocks(markdown).map((block) => ({ heading: block.level > 0, text: block.text }));
    const pageWords = [];
    const proseWords = [];
    blocks.forEach((block, b) => {
      block.words = [];
      run.lastIndex = 0;
      for (let match = run.exec(block.text); match; match = run.exec(block.text)) {
        const word = { block: b, start: match.index, end: match.index + match[0].length, text: match[0], page: pageWords.length };
        block.words.push(word);
        pageWords.push(word);
        if (!block.heading) { word.prose = proseWords.length; proseWords.push(word); }
      }
    });
    return { prose: E.proseOf(markdown), pageText: E.pageText(markdown), blocks, pageWords, proseWords };
  }

  /** The character spans of the fact phrases in a text, as data.py fact_segments finds them:
   *  any case, any run of white space between words; where two overlap, the first one wins. */
  function factSpans(text, patterns) {
    const spans = [];
    for (const [name, pattern] of patterns) {
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        spans.push([match.index, match.index + match[0].length, name]);
        if (!match[0]) pattern.lastIndex += 1;
      }
    }
    spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const kept = [];
    for (const span of spans) if (!kept.length || span[0] >= kept[kept.length - 1][1]) kept.push(span);
    return kept;
  }

  const models = new WeakMap();  // the lab's data -> what every state of it reads
  function modelOf(own) {
    if (!models.has(own)) {
      const escape = (word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const patterns = Object.entries(own.facts).map(([name, phrase]) => [name,
        new RegExp(RAG.engine.words(phrase).map(escape).join("\\s+"), "gi")]);
      const cosines = Object.values(own.scores);
      const page = readPage(own.markdown);
      // Where each fact stands in each block: the same for every state, so found once.
      page.blocks.forEach((block) => { block.factSpans = factSpans(block.text, patterns); });
      models.set(own, {
        page, patterns,
        facts: Object.entries(own.facts).map(([name, phrase]) => [name, RAG.engine.normalize(phrase)]),
        // The best cosine any chunk of any setting reaches, per question and over both.
        best: own.questions.map((q, column) => Math.max(...cosines.map((pair) => pair[column]))),
        top: Math.max(0, ...cosines.flat()),
      });
    }
    return models.get(own);
  }

  /* ---------------------------------------------------------------- one state */

  /** The page cut by the state's chunker (engine/documents.py chunk_with's twin), and the words
   *  its chunks are made of: the prose's for fixed and sentence chunks, the whole page's else. */
  function cut(state, own, page) {
    const texts = RAG.engine.chunkWith(state, own.markdown);
    return { texts, words: state.chunker === "fixed" || state.chunker === "sentences" ? page.proseWords : page.pageWords };
  }

  /** Where each chunk lies among `words`: its first word and its length, found in order. */
  function place(texts, words) {
    let from = 0;
    return texts.map((text, index) => {
      const wanted = RAG.engine.words(text);
      for (let start = from; start + wanted.length <= words.length; start += 1) {
        if (wanted.every((word, i) => words[start + i].text === word)) {
          from = start;
          return { start, length: wanted.length };
        }
      }
      throw new Error(`chunk ${index + 1} (“${text.slice(0, 40)}…”) is not on the page`);
    });
  }

  const pieces = (text, spans, from, to) => {
    const out = [];
    let at = from;
    for (const [start, end, name] of spans) {
      if (end <= at || start >= to) continue;
      if (start > at) out.push([text.slice(at, start), null]);
      out.push([text.slice(Math.max(start, at), Math.min(end, to)), name]);
      at = Math.min(end, to);
    }
    if (at < to) out.push([text.slice(at, to), null]);
    return out;
  };

  /** The page as drawn for one cut: per block, runs of words that belong to the same chunks. */
  function drawnPage(page, spans, placeWords, chunks, top) {
    const members = page.pageWords.map(() => []);
    const starts = new Map();
    spans.forEach(({ start, length }, index) => {
      for (let i = start; i < start + length; i += 1) members[placeWords[i].page].push(index);
      starts.set(placeWords[start].page, index);
    });
    return page.blocks.map((block) => {
      const facts = block.factSpans;
      const parts = [];
      let run = null;
      block.words.forEach((word, i) => {
        const inChunks = members[word.page];
        const key = inChunks.join(" ");
        if (run && run.key === key && !starts.has(word.page)) { run.end = word.end; return; }
        if (run) parts.push(run);
        if (i > 0) parts.push({ space: block.text.slice(block.words[i - 1].end, word.start) });
        if (starts.has(word.page)) parts.push({ cut: starts.get(word.page) });
        run = { key, chunks: inChunks, start: word.start, end: word.end };
      });
      if (run) parts.push(run);
      return {
        heading: block.heading,
        parts: parts.map((part) => (part.chunks ? { ...part, pieces: pieces(block.text, facts, part.start, part.end),
          top: part.chunks.includes(top) } : part)),
      };
    });
  }

  /** For each fact no chunk holds whole: the last words of the chunk that ends inside its first
   *  appearance, and the first words of the chunk that starts inside it. */
  function cutsInside(names, model, words, spans) {
    const placeOf = (word) => (words === model.page.proseWords ? word.prose : word.page);
    const found = [];
    for (const name of names) {
      const block = model.page.blocks.find((b) => b.factSpans.some((span) => span[2] === name));
      if (!block) continue;
      const [from, to] = block.factSpans.find((span) => span[2] === name);
      const inside = block.words.filter((word) => word.end > from && word.start < to).map(placeOf);
      const [first, last] = [inside[0], inside[inside.length - 1]];
      const ending = spans.find(({ start, length }) => start <= first && start + length - 1 >= first && start + length - 1 < last);
      const starting = spans.find(({ start }) => start > first && start <= last);
      if (first === undefined || !ending || !starting) continue;
      const end = ending.start + ending.length;
      const text = (at, n) => words.slice(at, at + n).map((word) => word.text).join(" ");
      found.push({ name, before: text(Math.max(ending.start, end - 4), end - Math.max(ending.start, end - 4)),
                   after: text(starting.start, Math.min(3, starting.length)).replace(/[.,;:!?]+$/, "") });
    }
    return found;
  }

  function outcome(chunks, order, factNames) {
    const rankOf = (test) => { const at = order.findIndex((i) => test(chunks[i])); return at < 0 ? null : at + 1; };
    return {
      answerRank: rankOf((chunk) => chunk.answers),
      factRanks: Object.fromEntries(factNames.map((name) => [name, rankOf((chunk) => chunk.facts.includes(name))])),
    };
  }

  /* ------------------------------------------------------------- the lesson */

  const quoted = (phrase) => `\u201c${phrase}\u201d`;
  const listed = (items) => (items.length < 3 ? items.join(" and ") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
  const whichFacts = (n) => (n === 1 ? "the fact the question needs" : n === 2 ? "both facts the question needs"
    : `all ${n} facts the question needs`);

  /** What the reader should see in this cut, from the numbers of this cut only. */
  function lessonOf(props) {
    const { facts, needs, top, second, answerRank, factRanks, best } = props;
    const phrases = (names) => listed(names.map((name) => quoted(facts[name])));
    const score = (x) => RAG.fixed(x, 3);
    const said = [];
    const tempting = (chunk) => "tempting" in facts && chunk.facts.includes("tempting");
    if (!needs.length) {
      said.push(`The top chunk is chunk ${top.index + 1}, with a score of ${score(top.score)}.`);
    } else if (answerRank === 1) {
      said.push(`The top chunk holds ${whichFacts(needs.length)}, ${phrases(needs)}.`);
      if (tempting(top)) said.push(`It also holds the tempting ${quoted(facts.tempting)}: a wrong number right next to the answer.`);
      said.push(top.score >= best
        ? `Its score, ${score(top.score)}, is the best any chunk in this lab reaches for this question.`
        : `Its score, ${score(top.score)}, is below the best any chunk in this lab reaches for this question (${score(best)}).`);
    } else {
      const held = needs.filter((name) => top.facts.includes(name));
      const missing = needs.filter((name) => !held.includes(name));
      if (held.length) said.push(`The top chunk holds ${phrases(held)} but not ${phrases(missing)}.`);
      else if (needs.length === 1) said.push(`The top chunk does not hold ${phrases(needs)}.`);
      else if (needs.length === 2) said.push(`The top chunk holds neither ${quoted(facts[needs[0]])} nor ${quoted(facts[needs[1]])}.`);
      else said.push(`The top chunk holds none of ${phrases(needs)}.`);
      if (tempting(top)) said.push(`It holds the tempting ${quoted(facts.tempting)}, a number a model could give as the answer.`);
      const cut = needs.map((name) => props.cuts.find((found) => found.name === name)).filter(Boolean);
      if (cut.length) {
        for (const { name, before, after } of cut) {
          said.push(`A cut falls inside ${quoted(facts[name])}: one chunk ends ${quoted("\u2026" + before)}, the next starts ${quoted(after + "\u2026")}.`);
        }
      } else if (answerRank) {
        said.push(`A chunk that holds ${needs.length === 1 ? "it" : needs.length === 2 ? "both" : "them all"} first appears at rank ${answerRank}.`);
      } else {
        const where = needs.map((name, i) => `${quoted(facts[name])} ${i ? "in the one" : "is first found in the chunk"} ranked ${factRanks[name]}`);
        said.push(`No chunk holds ${needs.length === 2 ? "both" : "them all"}: ${listed(where)}.`);
      }
    }
    if (second && !tempting(top) && tempting(second) && answerRank !== 2) {
      said.push(`The chunk ranked 2 holds the tempting ${quoted(facts.tempting)}.`);
    }
    return said.join(" ");
  }

  /* ------------------------------------------------------------- the drawing */

  function factBadges(chunk, facts) {
    const held = Object.keys(facts).filter((name) => chunk.facts.includes(name));
    if (!held.length) return h("span", { class: "badge badge-none" }, "no key fact");
    return held.map((name) => h("span", { class: ["badge", name === "tempting" ? "badge-warn" : "badge-fact"] },
      `${name === "tempting" ? "tempting: " : ""}${facts[name]}`));
  }

  const markOf = (name, needs) => ["fact", name === "tempting" ? "is-tempting" : needs.includes(name) && "is-needed"];
  const marked = (parts, needs) => parts.map(([text, name]) => (name ? h("mark", { class: markOf(name, needs) }, text) : text));

  function row(props, chunk) {
    const first = chunk.rank === 1;
    return h("li", { class: ["result", "chunk", first && "is-winner", chunk.answers && "is-answer"], "data-chunk": String(chunk.index) },
      h("span", { class: "rank" }, String(chunk.rank)),
      h("span", { class: "pid" }, h("code", null, `chunk ${chunk.index + 1} of ${props.chunks.length}`), " ",
        h("span", { class: "title" }, `${chunk.words} words`)),
      h("meter", { class: "score-bar", min: "0", max: String(props.barMax), value: String(Math.max(chunk.score, 0)), "aria-hidden": "true" }),
      h("span", { class: "score" }, RAG.fixed(chunk.score, 3)),
      h("span", { class: "badges" },
        first ? h("span", { class: "badge badge-top" }, "ranked first") : null,
        chunk.answers ? h("span", { class: "badge badge-ok" }, "answers it") : null,
        factBadges(chunk, props.facts)),
      h("p", { class: "snippet chunk-text" }, marked(chunk.pieces, props.needs)));
  }

  function figure(props) {
    const { page, top, chunks, prose, overlaps } = props;
    const caption = [`The page as written, cut into ${RAG.plural(chunks.length, "chunk")}; a bar and a number mark where each starts.`,
      prose ? " Headings are left out: this chunker reads the prose only." : "",
      " Each chunk is underlined in turn: a solid line low, a dashed line high",
      overlaps ? "; words in two chunks carry both lines: the overlap." : ".",
      ` Highlighted: chunk ${top.index + 1}, ranked first.`].join("");
    const part = (p) => {
      if (p.space !== undefined) return p.space;
      if (p.cut !== undefined) return h("span", { class: ["chunk-cut", p.cut === top.index && "is-top"], "data-n": String(p.cut + 1), "aria-hidden": "true" });
      // Chunks 1, 3, 5... are underlined low, 2, 4, 6... high: the words of two chunks carry both lines.
      return h("span", { class: ["chunk-run", !p.chunks.length && "is-outside", p.chunks.some((k) => k % 2 === 0) && "in-odd",
        p.chunks.some((k) => k % 2 === 1) && "in-even", p.chunks.length > 1 && "is-overlap", p.top && "is-top"],
      "data-chunks": p.chunks.length ? p.chunks.map((k) => k + 1).join(" ") : undefined }, marked(p.pieces, props.needs));
    };
    return h("figure", { class: "chunk-page-figure" },
      h("div", { class: "chunk-page" }, page.map((block) =>
        h("p", { class: block.heading ? "chunk-page-heading" : "chunk-page-para" }, block.parts.map(part)))),
      h("figcaption", { class: "chunk-page-caption" }, caption));
  }

  RAG.lab("chunking", {
    accept(next, input) {
      const own = input.own;
      let state = { ...next };
      if (state.setting !== undefined) {
        const preset = own.presets.find((p) => p.id === state.setting);
        if (!preset) return null;
        state = { ...state, ...preset.state };
      }
      if (!own.chunkers.some((c) => c.id === state.chunker) || !own.questions.some((q) => q.id === state.q)) return null;
      const { grid, start } = own;
      const size = onSlider(state.size, grid.size, start.size);
      return { chunker: state.chunker, size, overlap: onSlider(onSlider(state.overlap, grid.overlap, start.overlap), [grid.overlap[0], maxOverlap(size, grid)]),
               limit: onSlider(state.limit, grid.limit, start.limit), repeat: onSlider(state.repeat, grid.repeat, start.repeat), q: state.q };
    },

    props(state, input) {
      const own = input.own;
      const model = modelOf(own);
      const column = own.questions.findIndex((q) => q.id === state.q);
      const needs = own.needs[state.q] || [];
      const { texts, words } = cut(state, own, model.page);
      const spans = place(texts, words);
      const chunks = texts.map((text, index) => {
        const cosines = own.scores[RAG.engine.textKey(text)];
        if (!cosines) throw new Error(`no score for chunk “${text.slice(0, 40)}…” (the build embeds every chunk of the sliders' grid: rebuild)`);
        const folded = RAG.engine.normalize(text);
        const facts = model.facts.filter(([, phrase]) => folded.includes(phrase)).map(([name]) => name);
        return { index, text, words: spans[index].length, score: cosines[column], facts,
                 answers: needs.length > 0 && needs.every((name) => facts.includes(name)),
                 pieces: pieces(text, factSpans(text, model.patterns), 0, text.length) };
      });
      const order = RAG.engine.bestFirst(chunks.map((chunk) => chunk.score));  // ties in page order, as data.py ranks
      order.forEach((index, at) => { chunks[index].rank = at + 1; });
      const top = chunks[order[0]];
      const sizes = chunks.map((chunk) => chunk.words);
      const factNames = Object.keys(own.facts);
      const preset = own.presets.find((p) => Object.entries(p.state).every(([key, value]) => state[key] === value));
      return {
        question: own.questions[column], number: column + 1, label: preset ? preset.label : labelOf(state),
        facts: own.facts, needs, chunks, ranked: order.slice(0, LIST_MAX).map((index) => chunks[index]),
        top, second: order.length > 1 ? chunks[order[1]] : null,
        minWords: Math.min(...sizes), maxWords: Math.max(...sizes),
        cuts: cutsInside(factNames.filter((name) => !chunks.some((chunk) => chunk.facts.includes(name))),
          model, words, spans),
        ...outcome(chunks, order, factNames),
        best: model.best[column], barMax: model.top,
        prose: words === model.page.proseWords, overlaps: spans.some((span, i) => i > 0 && span.start < spans[i - 1].start + spans[i - 1].length),
        page: drawnPage(model.page, spans, words, chunks, top.index),
      };
    },

    view(props) {
      const n = props.chunks.length;
      const words = props.minWords === props.maxWords ? `${props.minWords}` : `${props.minWords} to ${props.maxWords}`;
      return [
        h("p", { class: "lab-question" }, h("span", { class: "lab-question-label" }, `Question ${props.number}`), " ",
          h("span", { class: "lab-question-text" }, props.question.text)),
        h("p", { class: "lab-status" }, `${props.label}: ${RAG.plural(n, "chunk")} of ${words} words, ranked by cosine similarity.`),
        h("p", { class: "lab-lesson" }, h("strong", null, "What it shows."), " ", lessonOf(props)),
        figure(props),
        h("ol", { class: "results chunk-results" }, props.ranked.map((chunk) => row(props, chunk))),
        n > props.ranked.length
          ? h("p", { class: "chunk-more" }, `The other ${n - props.ranked.length} chunks rank lower; the page above marks where each one starts.`)
          : null,
      ];
    },

    /** Under the controls: the top chunk, whether it answers, and where an answering chunk first ranks. */
    outcome(props) {
      const key = (text) => h("span", { class: "outcome-key" }, text);
      const name = (chunk) => `chunk ${chunk.index + 1}`;
      const answer = !props.needs.length ? null : props.answerRank === 1 ? "answers it"
        : props.answerRank ? `an answering chunk at rank ${props.answerRank}` : "no chunk holds the whole answer";
      return [h("span", { class: "outcome-part" }, key("Top chunk"), h("code", { class: props.top.answers ? "is-right" : null }, name(props.top)),
        ` of ${props.chunks.length}`, answer ? `: ${answer}` : null),
        " \u00b7 ", h("span", { class: "outcome-part" }, key("Top 3"),
          props.ranked.slice(0, 3).map((chunk, i) => [i ? ", " : "", h("code", { class: chunk.answers ? "is-right" : null }, name(chunk))]))];
    },

    summary(props) {
      const n = props.chunks.length;
      return `${props.label}: ${RAG.plural(n, "chunk")}. ${lessonOf(props)}`;
    },

    setup(ctx) {
      for (const button of ctx.findAll("button[data-preset]")) {
        ctx.on(button, "click", () => ctx.set({ setting: button.dataset.preset }));
      }
      // The overlap slider's range follows the size (at most half of it). The runtime moves the
      // bound controls first (its listeners are on the controls; this one hears the event after).
      const overlap = ctx.find('input[data-key="overlap"]');
      const fit = () => {
        const max = String(maxOverlap(ctx.state.size, ctx.input.own.grid));
        if (overlap.max !== max) overlap.max = max;
        if (overlap.value !== String(ctx.state.overlap)) overlap.value = String(ctx.state.overlap);
      };
      for (const type of ["input", "change", "click"]) ctx.on(ctx.root, type, fit);
      ctx.on(window, "hashchange", fit);
      Promise.resolve().then(fit);  // once the lab has drawn the state it starts on
    },
  });
})();
