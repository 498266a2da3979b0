/* Try it on your documents: the reader's files (or the sample set) through every stage, in this
 * browser. The engine room is site_src/docs/ (RAG.docs: reading, chunking, the vector store,
 * recall on the reader's marks, the downloads), loaded only once the reader brings documents;
 * the model runs in RAG.embedder's workers, one per core the browser offers (at most 4); the
 * search is the page's corpus over the reader's chunks (RAG.corpus.fromChunks), drawn by the
 * hybrid and map views (RAG.mountView, under the prefixes "docs-hybrid" and "docs-map").
 *
 * State: none (nothing of the reader's goes into a link). Local: what the reader has brought and
 * what the browser computed of it, set by setup's handlers only (ctx.show). The build draws the
 * empty lab; the view reads only props.
 *
 * Example: RAG.labContext("docs-try").local.chunks.length -> the chunks of the setting shown */
(() => {
  const h = RAG.h;
  const SHOWN_CHUNKS = 60; // chunks drawn on one document (the rest are counted)
  const TOP = 5;
  const count = (n, word, plural) => `${Number(n).toLocaleString("en")} ${n === 1 ? word : plural || word + "s"}`;
  const excerpt = (text, n = 180) => (text.length > n ? text.slice(0, n - 1) + "\u2026" : text);

  /* ------------------------------------------------------------ pure helpers (the view's) */

  /** A recall cell: "4/6" (or "3–4/6" where a tie straddles k) and its Wilson interval. */
  function recallCell(cell) {
    const [low, high] = cell.hits;
    const [wl] = cell.wilson[0];
    const [, wh] = cell.wilson[1];
    const hits = low === high ? `${low}` : `${low}\u2013${high}`;
    return `${hits}/${cell.n} (${RAG.fixed(wl * 100, 0)}\u2013${RAG.fixed(wh * 100, 0)}%)`;
  }

  /** A recall cell drawn with its interval on a line of its own, never broken inside, so the
   * tables fit a phone's width: "1/6 (3–56%)" -> 1/6, then (3–56%). */
  function cellView(text) {
    const at = text.indexOf(" (");
    return at < 0 ? text : [text.slice(0, at + 1), h("span", { class: "docs-interval" }, text.slice(at + 1))];
  }

  function recallTable(measured, retrievers, label) {
    return h("table", { class: "docs-recall" },
      h("caption", null, label),
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Retriever"), [1, 3, 5].map((k) => h("th", { scope: "col", key: k }, `recall@${k}`)))),
      h("tbody", null, retrievers.map((r) => h("tr", { key: r, "data-retriever": r },
        h("th", { scope: "row" }, r === "bm25" ? "BM25" : r),
        [1, 3, 5].map((k) => h("td", { key: k, "data-k": k }, cellView(recallCell(measured.recall[r][k]))))))));
  }

  function neededLine(measured) {
    const pair = measured.pairs.find((p) => p.k === 5 && p.a === "bm25" && p.b === "hybrid") ||
      measured.pairs.find((p) => p.k === 5) || null;
    return pair ? RAG.docs.pairInWords(pair) : "";
  }

  function chunkView(chunk, wordpieces, windowSize) {
    const pieces = wordpieces[chunk.hash];
    const over = pieces > windowSize ? pieces - windowSize : 0;
    const words = RAG.engine.words(chunk.text).length;
    return h("li", { class: ["docs-chunk", over && "is-over"], key: chunk.id, "data-chunk": chunk.id },
      h("p", { class: "docs-chunk-head" }, h("code", null, chunk.id), ` \u00b7 ${count(words, "word")}`,
        pieces ? ` \u00b7 ${count(pieces, "wordpiece")}` : "", chunk.page ? ` \u00b7 p. ${chunk.page}` : "",
        over ? [" ", h("span", { class: "docs-over" }, `past the model's window: its last ${over} wordpieces ` +
          `(${RAG.fixed((over / pieces) * 100, 0)}%) are never read`)] : null),
      h("p", { class: "docs-chunk-text" }, chunk.text));
  }

  function problems(props) {
    const { read } = props;
    if (!read) return null;
    const items = [
      // A reason is a predicate ("is empty…") or, from sniff.js, what the file is ("an image…").
      ...read.refused.map((r) => [r.source, `${r.source} ${/^(an? |named )/.test(r.reason) ? "is " : ""}${r.reason}`]),
      ...read.duplicates.map((d) => [d.source, `${d.source} has the same bytes as ${d.sameAs}: read once.`]),
      ...read.notes.map((n) => [n.source, `${n.source}: ${n.note}.`]),
    ];
    return [
      read.stopped ? h("p", { class: "docs-stopped", role: "alert" }, read.stopped) : null,
      items.length ? h("ul", { class: "docs-problems" }, items.map(([source, text], i) => h("li", { key: `${source}-${i}` }, text))) : null,
    ];
  }

  const step = (n, title, ...body) => h("div", { class: "docs-step", "data-step": n }, h("h4", null, h("span", { class: "ask-num" }, String(n)), ` ${title}`), ...body);
  const button = (act, text, extra = {}) => h("button", { type: "button", class: ["btn", extra.primary && "btn-primary"], "data-act": act,
    disabled: extra.disabled || undefined }, text);

  RAG.lab("docs-try", {
    local: {
      busy: "", working: 0, read: null, documents: [], settingIndex: 0, chunks: [], chunkNote: "", lost: [], shown: "",
      wordpieces: {}, index: null, runtime: "", fileNote: "", q: "", questions: [], runs: null, prompt: "",
      promptPieces: null, marks: {}, measured: null, retrievers: ["bm25"], compare: null, compared: "", best: "", forgot: "", takeHome: "",
    },

    accept() { return {}; },

    props(state, input, local) {
      const { own } = input;
      const shown = local.shown || (local.documents[0] && local.documents[0].source) || "";
      const question = local.questions.find((q) => q.id === local.q) || null;
      const marked = new Set(question ? local.marks[question.id] || [] : []);
      return { ...local, shown, question, marked, chunkers: own.chunkers, promptPassages: input.data.settings.prompt_passages, window: own.window };
    },

    view(props) {
      const { documents, chunks, index } = props;
      const docChunks = chunks.filter((c) => c.source === props.shown);
      const byId = new Map(chunks.map((c) => [c.id, c]));
      const top = props.runs ? (props.runs.hybrid || props.runs.bm25).slice(0, TOP) : [];
      return [
        h("p", { class: "lab-status", "aria-live": "polite" }, props.busy || (documents.length
          ? `${count(documents.length, "document")}, ${count(chunks.length, "chunk")}.`
          : "No documents yet: load the sample set, or bring your own.")),
        step(1, "Bring documents",
          h("div", { class: "docs-bring" },
            button("sample", "Load the sample set", { primary: true }),
            h("label", { class: "btn docs-choose" }, "Choose files\u2026",
              h("input", { type: "file", name: "docs-files", multiple: true, class: "docs-file-input",
                accept: ".md,.markdown,.txt,.text,.html,.htm,.pdf,.docx,text/*" })),
            button("forget", "Forget my documents")),
          h("div", { class: "docs-drop", "data-drop": "" }, "\u2026or drop files here, or paste text:",
            h("textarea", { name: "docs-paste", rows: "3", "aria-label": "Text to add as a document", spellcheck: "false" }),
            button("paste", "Add the pasted text")),
          problems(props),
          props.forgot ? h("p", { class: "docs-forgot", role: "status" }, props.forgot) : null,
          documents.length ? h("ul", { class: "docs-documents" }, documents.map((d) => h("li", { key: d.source },
            h("bdi", null, d.source), ` \u00b7 ${d.kind}` + (d.pages ? ", " + count(d.pages, "page") : "") + (d.words ? ", " + count(d.words, "word") : "")))) : null),
        step(2, "Chunk",
          h("label", { class: "field" }, h("span", { class: "field-label" }, "Chunker"),
            h("select", { name: "docs-setting", value: String(props.settingIndex) },
              props.chunkers.map((s, i) => h("option", { value: String(i), key: i }, s.label)))),
          documents.length > 1 ? h("label", { class: "field" }, h("span", { class: "field-label" }, "Document shown"),
            h("select", { name: "docs-shown", value: props.shown }, documents.map((d) => h("option", { value: d.source, key: d.source }, d.source)))) : null,
          props.chunkNote ? h("p", { class: "docs-note" }, props.chunkNote) : null,
          props.lost.length ? h("p", { class: "docs-lost", role: "status" }, "Marks lost by this chunking (no chunk of it holds the text that was marked): " +
            props.lost.map((l) => `\u201c${l.text}\u201d`).join("; ") + ". These questions are left out of its recall.") : null,
          docChunks.length ? h("ol", { class: "docs-chunks", "aria-label": `Chunks of ${props.shown}` },
            docChunks.slice(0, SHOWN_CHUNKS).map((c) => chunkView(c, props.wordpieces, props.window))) : null,
          docChunks.length > SHOWN_CHUNKS ? h("p", { class: "docs-note" }, `And ${count(docChunks.length - SHOWN_CHUNKS, "more chunk")} of this document.`) : null),
        step(3, "Index",
          h("p", null, chunks.length ? `BM25: ${count(chunks.length, "chunk")} indexed at once.` : "BM25 indexes the chunks as soon as they are cut."),
          h("div", { class: "docs-bring" },
            button("embed", index && index.done === index.total && index.total ? "Embedded" : "Embed the chunks", { disabled: !chunks.length || Boolean(props.fileNote) || Boolean(index && index.running) }),
            index && index.running ? button("cancel", "Cancel") : null),
          index && index.running ? h("progress", { class: "docs-progress", max: String(index.total || 1), value: String(index.done), "aria-label": "Embedded" }) : null,
          index ? h("p", { class: "docs-index", role: "status" }, index.text) : null,
          props.fileNote ? h("p", { class: "docs-note docs-file" }, props.fileNote) : null,
          props.runtime ? h("p", { class: "docs-runtime" }, props.runtime) : null),
        step(4, "Ask",
          h("div", { class: "docs-bring" },
            h("label", { class: "field grow" }, h("span", { class: "field-label" }, "Question"),
              h("input", { type: "search", name: "docs-question", maxlength: "2000", autocomplete: "off", spellcheck: "false" })),
            button("ask", "Search", { disabled: !chunks.length })),
          props.questions.length ? h("label", { class: "field" }, h("span", { class: "field-label" }, "Your questions"),
            h("select", { name: "docs-q", value: props.q }, props.questions.map((q) => h("option", { value: q.id, key: q.id }, q.text)))) : null,
          props.question && props.runs ? [
            h("p", { class: "docs-note" }, props.runs.hybrid ? "Fused (RRF) top 5 of dense search and BM25; the hybrid view and the map below draw every list."
              : "BM25's top 5 (dense search and fusion follow once the chunks are embedded). Tick the chunk that answers the question: that is your mark."),
            h("ol", { class: "docs-top" }, top.length ? top.map(([id, score], i) => {
              const chunk = byId.get(id);
              return h("li", { key: id, class: ["docs-hit", props.marked.has(chunk.hash) && "is-answer"], "data-pid": id },
                // The id opens the passage card (runtime/kit.js: a click, a tap or Enter on button.pid-open).
                h("div", { class: "docs-mark" },
                  h("label", null, h("input", { type: "checkbox", "data-act": "mark", "data-hash": chunk.hash, checked: props.marked.has(chunk.hash),
                    "aria-label": `${id} answers the question` }), " ", h("span", { class: "docs-rank" }, String(i + 1))),
                  h("button", { type: "button", class: "pid-open" }, h("code", null, id)), ` ${chunk.title} \u00b7 ${RAG.fixed(score, 3)}`,
                  props.marked.has(chunk.hash) ? h("span", { class: "flag" }, " your mark") : null),
                h("p", { class: "docs-chunk-text" }, excerpt(chunk.text)));
            }) : h("li", { class: "docs-hit" }, "No chunk shares a word with the question.")),
            h("details", { class: "docs-prompt" }, h("summary", null, `The prompt from the top ${props.promptPassages}` +
              (props.promptPieces ? `: ${count(props.promptPieces, "wordpiece")} in the model's tokenizer` : "")),
            h("pre", { tabindex: "0" }, props.prompt))] : null),
        step(5, "Measure",
          props.measured ? [
            recallTable(props.measured, props.retrievers, `Recall on your ${count(props.measured.questions.length, "marked question")} ` +
              "(hits of n, with the Wilson 95% interval), chunker: " + props.chunkers[props.settingIndex].label),
            h("p", { class: "docs-note" }, neededLine(props.measured)),
            h("p", { class: "docs-note" }, `${count(props.measured.questions.length, "question")} ${props.measured.questions.length === 1 ? "is" : "are"} few: ` +
              "the intervals are wide, and two retrievers whose intervals overlap may not differ at all. A chunk marked after seeing " +
              "the results favours the retriever that showed it; mark from the documents. A tie that straddles k counts as a range."),
          ] : h("p", null, "Mark the chunk that answers each of a few questions (the sample set comes with its marks); recall@1, 3 and 5 appear here."),
          h("div", { class: "docs-bring" }, button("try-all", "Which way to split: try every chunker", { disabled: !documents.length || !props.measured })),
          props.compare ? h("table", { class: "docs-compare" },
            h("caption", null, `Every chunker tried, on the same marks (${props.compared === "hybrid" ? "hybrid" : "BM25"} recall@1, 3, 5)`),
            h("thead", null, h("tr", null, h("th", { scope: "col" }, "Chunker"), h("th", { scope: "col" }, "chunks"),
              [1, 3, 5].map((k) => h("th", { scope: "col", key: k }, `@${k}`)), h("th", { scope: "col" }, "questions left unmarked"))),
            h("tbody", null, props.compare.map((row) => h("tr", { key: row.label, class: row.label === props.best && "is-best", "data-setting": row.label },
              h("th", { scope: "row" }, row.label, row.label === props.best ? h("span", { class: "flag" }, " best") : null), h("td", { "data-label": "chunks" }, String(row.chunks)),
              [1, 3, 5].map((k) => h("td", { key: k, "data-label": `@${k}` }, cellView(row.cells[k]))), h("td", { "data-label": "left unmarked" }, String(row.lost)))))) : null,
          props.best ? h("p", { class: "docs-best", role: "status" }, `Best for these questions: ${props.best}.`) : null),
        step(6, "Take it home",
          h("div", { class: "docs-bring" },
            button("export", "Export JSON", { disabled: !chunks.length }),
            h("label", { class: "btn docs-choose" }, "Import JSON\u2026", h("input", { type: "file", name: "docs-import", accept: ".json,application/json", class: "docs-file-input" })),
            button("reproduce", "reproduce.py"),
            button("sql", "SQL for pgvector", { disabled: !chunks.length || !props.retrievers.includes("dense") })),
          props.takeHome ? h("p", { class: "docs-note", role: "status" }, props.takeHome) : null),
      ];
    },

    setup(ctx) {
      const { data, own } = ctx.input;
      const assets = RAG.assets();
      const session = {
        documents: [], sample: null, tried: new Map(), vectors: new Map(), pool: null, store: null, controller: null,
        corpus: null, embedding: false, imported: null, mounts: {}, indexes: new WeakMap(),
      };
      ctx.session = session;
      // The passage card reads the reader's chunks (the corpus of the last search) and its question.
      ctx.root.cardSource = () => (session.corpus ? { corpus: session.corpus, state: { q: ctx.local.q, ...data.settings.bm25 } } : null);
      // The views' places move out of the lab, into a section just after it (inside, the lab's own
      // controls and outputs, ctx.findAll, would include the views' and get the lab's empty state
      // written into them); moved when first needed, so the lab starts as the build drew it.
      let views = null;
      const viewsBox = () => {
        if (!views) {
          views = document.createElement("section");
          views.className = "lab docs-views";
          views.setAttribute("aria-label", "Your documents: the hybrid view and the map");
          views.hidden = true;
          views.append(...ctx.root.querySelectorAll("[data-mount]"));
          ctx.root.after(views);
        }
        return views;
      };
      const why = RAG.embedder.available(data.live);
      if (why === "file") {
        ctx.show({ fileNote: "Chunking, BM25 and BM25's recall work here. Embedding needs the page served over http, not opened " +
          "as a file: in the folder that holds this page, run python3 -m http.server and open http://localhost:8000/." });
      } else if (why) ctx.show({ fileNote: `Embedding cannot run here: ${why}.` });

      const fail = (error) => ctx.show({ busy: `Something went wrong: ${(error && error.message) || error}` });
      const loadDocs = async () => {
        if (!(globalThis.crypto && crypto.subtle)) await RAG.loadScript(assets.scripts["model-files"]);
        await RAG.loadScript(assets.scripts.docs);
      };
      const setting = () => own.chunkers[ctx.local.settingIndex].setting;
      const label = (s) => RAG.docs.settingLabel(s);

      /** The marks of the sample set for these chunks, added to the reader's. */
      const withQuoteMarks = (chunks) => {
        if (!session.sample) return ctx.local.marks;
        const found = RAG.docs.marks.fromQuotes(chunks, Object.fromEntries(session.sample.questions.map((q) => [q.id, q.answers])));
        const marks = { ...ctx.local.marks };
        for (const [q, hashes] of Object.entries(found)) marks[q] = [...new Set([...(marks[q] || []), ...hashes])];
        return marks;
      };

      /** The chunks' BM25, built in slices once per chunk list (one call over 2,000 chunks would freeze the page). */
      const indexOf = async (chunks) => {
        if (!session.indexes.has(chunks)) session.indexes.set(chunks, await RAG.docs.bm25(chunks.map((c) => c.text), data.settings.bm25));
        return session.indexes.get(chunks);
      };

      /** The reader's chunks as a corpus, each question searched between yields (over 2,000 chunks a search is some 15 ms). */
      const corpusOf = async (chunks, questions, marks) => {
        const index = await indexOf(chunks);
        const slice = RAG.docs.slicer();
        const embedded = chunks.every((c) => session.vectors.has(c.hash));
        let vectors = null;
        if (embedded && chunks.length) {
          vectors = [];
          for (const c of chunks) { await slice(); vectors.push(Array.from(session.vectors.get(c.hash))); }
        }
        const hashIds = new Map(chunks.map((c) => [c.hash, c.id]));
        const corpus = RAG.corpus.fromChunks(chunks.map((c) => ({ id: c.id, text: c.text, title: c.headings.length ? c.headings[c.headings.length - 1] : c.title, document: c.source })),
          // the browser's model: cosines within its tolerance of Python's are ties, shown as ties
          { settings: data.settings, vectors, index, denseTolerance: vectors && data.live ? data.live.cosine_tolerance : 0 });
        // Asked live (searched here, in this browser), so the views say so.
        for (const q of questions) {
          await slice();
          const vector = vectors && session.vectors.get(`q:${q.text}`);
          corpus.questions.add({ id: q.id, text: q.text, set: "live", vector: vector ? Array.from(vector) : undefined,
                                 answers: (marks[q.id] || []).map((hash) => hashIds.get(hash)).filter(Boolean) });
        }
        return corpus;
      };

      const runsOf = (corpus, questions) => Object.fromEntries(questions.map((q) => [q.id, corpus.question(q.id).runs]));
      const retrievers = (corpus) => (corpus.vectors && corpus.questions.live().every((q) => q.vector) ? ["dense", "bm25", "hybrid"] : ["bm25"]);

      /** Search, prompt, measure and the views again, from the chunks and questions in hand. */
      const refresh = async () => {
        const { chunks, questions, marks } = ctx.local;
        const turn = (session.turn = (session.turn || 0) + 1);
        const corpus = await corpusOf(chunks, questions, marks);
        if (turn !== session.turn) return;  // a later refresh began while this one was building: its lists win
        session.corpus = corpus;
        const question = questions.find((q) => q.id === ctx.local.q);
        const runs = question ? corpus.question(question.id).runs : null;
        let prompt = "";
        if (runs) {
          const sent = (runs.hybrid || runs.bm25).slice(0, data.settings.prompt_passages).map(([id]) => corpus.passage(id));
          prompt = RAG.engine.buildPrompt(question.text, sent.map((p) => ({ id: p.id, title: p.title, date: "", text: p.text })), data.prompt.rules.map((r) => r.text));
        }
        const marked = questions.filter((q) => (marks[q.id] || []).length);
        const measured = marked.length && chunks.length ? RAG.docs.measure({ chunks, runs: runsOf(corpus, marked), marks: Object.fromEntries(marked.map((q) => [q.id, marks[q.id]])), retrievers: retrievers(corpus), tolerances: { dense: corpus.denseTolerance } }) : null;
        ctx.show({ runs, prompt, promptPieces: null, measured: measured && measured.questions.length ? measured : null, retrievers: retrievers(corpus) });
        mountViews(corpus, question);
        if (prompt && session.pool) ctx.show({ promptPieces: (await session.pool.countWordpieces([prompt]))[0] });
      };

      /** The hybrid view and the map of the reader's chunks, drawn afresh into new elements. */
      const mountViews = (corpus, question) => {
        const views = viewsBox();
        for (const [name, input, state] of [
          ["hybrid", { corpus, sliders: own.sliders, prefix: "docs-hybrid" }, { q: question && question.id, k: data.settings.rrf_k, depth: data.settings.fusion_depth }],
          ["map", { corpus, nearest: own.nearest, dimensions: data.model.dimensions, prefix: "docs-map" }, { q: question && question.id }],
        ]) {
          const slot = views.querySelector(`[data-mount="${name}"]`);
          const ok = Boolean(question && corpus.vectors && corpus.question(question.id).runs.dense);
          slot.hidden = !ok;
          if (!ok) continue;
          const box = document.createElement("div");
          box.className = "docs-mounted";
          const template = views.querySelector(`template[data-controls="${name}"]`);
          if (template) box.append(template.content.cloneNode(true));
          const output = document.createElement("div");
          output.className = "lab-output";
          box.append(output);
          slot.querySelector(".docs-mounted") ? slot.querySelector(".docs-mounted").replaceWith(box) : slot.append(box);
          session.mounts[name] = RAG.mountView(box, name, input, state);
        }
        views.hidden = [...views.querySelectorAll("[data-mount]")].every((slot) => slot.hidden);
      };

      /** Wordpiece counts of the chunks the model has not counted yet. */
      const countPieces = async (chunks) => {
        if (!session.pool) return;
        const missing = chunks.filter((c) => ctx.local.wordpieces[c.hash] === undefined);
        if (!missing.length) return;
        const counts = await session.pool.countWordpieces(missing.map((c) => c.text));
        ctx.show({ wordpieces: { ...ctx.local.wordpieces, ...Object.fromEntries(missing.map((c, i) => [c.hash, counts[i]])) } });
      };

      /** Cut the documents with a setting (once per setting), keeping what the store already holds. */
      const cutWith = async (s) => {
        const key = label(s);
        if (session.tried.has(key)) return session.tried.get(key);
        const { chunks, stopped } = await RAG.docs.chunk(session.documents, s);
        if (stopped) return { stopped };
        session.tried.set(key, { setting: s, chunks });
        return session.tried.get(key);
      };

      const rechunk = async () => {
        if (!session.documents.length) return;
        const found = await cutWith(setting());
        if (found.stopped) return ctx.show({ chunkNote: found.stopped });
        const marks = withQuoteMarks(found.chunks);
        const split = RAG.docs.marks.split(marks, found.chunks);
        const lost = ctx.local.questions.filter((q) => (marks[q.id] || []).length && !split.present[q.id].length)
          .map((q) => ({ text: q.text, count: split.lost[q.id].length }));
        // The last search's lists name the old chunks: gone until refresh() searches the new ones.
        ctx.show({ chunks: found.chunks, chunkNote: `${label(setting())}: ${count(found.chunks.length, "chunk")}.`, lost, marks, runs: null, prompt: "", measured: null });
        await countPieces(found.chunks);
        if (session.embedding) await embedAll(found.chunks);
        else await lookUp(found.chunks);
        await refresh();
      };

      /** Documents brought: read (refusals kept with their reasons), added to those in hand, then cut. */
      const bring = async (files, { sample = null } = {}) => {
        await loadDocs();
        ctx.show({ busy: `Reading ${count(files.length, "file")}\u2026`, forgot: "" });
        const read = await RAG.docs.read(files, { onProgress: ({ done, total }) => ctx.show({ busy: `Reading: ${done} of ${total}\u2026` }) });
        ctx.show({ busy: "", read });
        if (read.stopped) return;
        if (sample) {
          session.documents = [];
          session.sample = sample;
          ctx.show({ questions: sample.questions.map((q) => ({ id: q.id, text: q.text })), q: sample.questions[0].id, marks: {} });
        }
        const known = new Set(session.documents.map((d) => d.sha256));
        session.documents = [...session.documents, ...read.documents.filter((d) => !known.has(d.sha256))];
        session.tried.clear();
        session.imported = null;
        ctx.show({ documents: session.documents.map((d) => ({ source: d.source, kind: d.kind, pages: d.pages || 0, words: RAG.engine.words(d.text).length })),
                   compare: null, best: "" });
        await rechunk();
      };

      const openPool = async (signal) => {
        if (session.pool) return session.pool;
        const workers = Math.min(4, Math.max(1, navigator.hardwareConcurrency || 1));
        ctx.show({ index: { running: true, done: 0, total: 1, text: "Loading the model\u2026" } });
        session.pool = await RAG.embedder.open(data.live, { workers, signal,
          onProgress: (received, total) => ctx.show({ index: { running: true, done: received, total, text: `Downloading the model: ${RAG.fixed(received / 1e6, 1)} of ${RAG.fixed(total / 1e6, 1)} MB` } }) });
        return session.pool;
      };
      const openStore = async () => {
        if (!session.store) session.store = await RAG.docs.store.open({ fingerprint: RAG.docs.store.fingerprint(data.live) });
        return session.store;
      };

      /** The vectors this browser's store already holds for these chunks and the questions (no model
       *  needed): after a reload, the documents brought before are searched by meaning at once. */
      const lookUp = async (chunks) => {
        if (!data.live || why) return;
        const store = await openStore();
        const texts = [...chunks.map((c) => c.text), ...ctx.local.questions.map((q) => q.text)];
        const found = await store.get(texts);
        chunks.forEach((c, i) => { if (found[i]) session.vectors.set(c.hash, found[i]); });
        ctx.local.questions.forEach((q, i) => { if (found[chunks.length + i]) session.vectors.set(`q:${q.text}`, found[chunks.length + i]); });
        const kept = found.filter(Boolean).length;
        if (!kept) return;
        ctx.show({ index: { running: false, done: kept, total: texts.length,
          text: kept === texts.length ? `All ${count(texts.length, "text")} (chunks and questions) found in this browser's store: nothing to embed.`
            : `${kept} of ${count(texts.length, "text")} found in this browser's store; Embed does the other ${texts.length - kept}.` } });
      };

      /** Embed what the store lacks of these chunks and the questions; say how much, and how fast. */
      const embedAll = async (chunks) => {
        const controller = (session.controller = new AbortController());
        const signal = controller.signal;
        try {
          const pool = await openPool(signal);
          const store = await openStore();
          const texts = [...chunks.map((c) => c.text), ...ctx.local.questions.map((q) => q.text)];
          const began = performance.now();
          const total = texts.length;
          ctx.show({ index: { running: true, done: 0, total, text: `Embedding ${count(total, "text")}\u2026` } });
          const got = await RAG.docs.vectorsFor(texts, { store, signal, embed: (missing, options) => pool.embed(missing, options).then((r) => r.vectors),
            onProgress: (done, all) => {
              const ms = performance.now() - began;
              const left = done ? (ms / done) * (all - done) / 1000 : 0;
              ctx.show({ index: { running: true, done, total: all, text: `Embedding: ${done} of ${all}, about ${RAG.fixed(left, 0)} s left` } });
            } });
          const ms = performance.now() - began;
          chunks.forEach((c, i) => session.vectors.set(c.hash, got.vectors[i]));
          ctx.local.questions.forEach((q, i) => session.vectors.set(`q:${q.text}`, got.vectors[chunks.length + i]));
          session.embedding = true;
          ctx.show({
            index: { running: false, done: total, total, embedded: got.embedded, reused: got.reused,
              text: `${count(got.embedded, "text")} embedded, ${got.reused} found in this browser's store (${store.where === "indexeddb" ? "IndexedDB" : "memory"}).${store.note ? " " + store.note : ""}` },
            runtime: `Runtime: WebAssembly (onnxruntime-web, one thread each) in ${count(pool.timings.workers, "worker")}` +
              (got.embedded ? `, ${RAG.fixed(ms / got.embedded, 1)} ms per text.` : "; nothing needed the model this time."),
          });
          await countPieces(chunks);
        } catch (error) {
          session.embedding = Boolean(session.pool);
          const cancelled = signal.aborted;
          ctx.show({ index: { running: false, done: 0, total: 0, text: cancelled ? "Cancelled: what was embedded is kept; press Embed to go on." : `The model could not embed: ${error.message}` } });
          if (!cancelled) throw error;
        }
      };

      const download = (name, text, type) => {
        const url = URL.createObjectURL(new Blob([text], { type }));
        const a = document.createElement("a");
        a.href = url;
        a.download = name;
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
        ctx.show({ takeHome: `Saved ${name} (${RAG.docs.megabytes(new Blob([text]).size)}).` });
      };

      const bundle = () => {
        const vectors = Object.fromEntries(ctx.local.chunks.filter((c) => session.vectors.has(c.hash)).map((c) => [c.hash, session.vectors.get(c.hash)]));
        return RAG.docs.exportBundle({ chunks: ctx.local.chunks, setting: session.imported ? session.imported.setting : setting(), vectors,
          marks: RAG.docs.marks.split(ctx.local.marks, ctx.local.chunks).present,  // the marks of these chunks: what the file can measure
          questions: ctx.local.questions.map((q) => ({ id: q.id, text: q.text, vector: session.vectors.get(`q:${q.text}`) })),
          fingerprint: data.live ? RAG.docs.store.fingerprint(data.live) : "none", settings: data.settings,
          denseTolerance: data.live ? data.live.cosine_tolerance : 0 });
      };

      /** Every chunker setting, side by side on the same marks: only chunks the store lacks are embedded.
       *  Dense and hybrid need every setting's vectors; until then the table compares BM25. */
      const tryAll = async () => {
        const tried = [];
        for (const { setting: s } of own.chunkers) {
          const found = await cutWith(s);
          if (found.stopped) { tried.push({ label: label(s), stopped: found.stopped }); continue; }
          if (session.embedding) await embedAll(found.chunks);
          else await lookUp(found.chunks);
          const marks = withQuoteMarks(found.chunks);
          ctx.show({ marks });
          const corpus = await corpusOf(found.chunks, ctx.local.questions, marks);
          const marked = ctx.local.questions.filter((q) => (marks[q.id] || []).length);
          const measured = RAG.docs.measure({ chunks: found.chunks, runs: runsOf(corpus, marked), marks: Object.fromEntries(marked.map((q) => [q.id, marks[q.id]])), retrievers: retrievers(corpus), tolerances: { dense: corpus.denseTolerance } });
          const lost = marked.filter((q) => !measured.questions.includes(q.id)).length;
          tried.push({ label: label(s), chunks: found.chunks.length, lost, measured });
        }
        const r = tried.every((t) => t.stopped || t.measured.recall.hybrid) ? "hybrid" : "bm25";
        const rows = tried.map((t) => (t.stopped ? { label: t.label, chunks: 0, cells: { 1: "\u2014", 3: "\u2014", 5: "\u2014" }, lost: "\u2014", score: [-1, -1, -1] }
          : { label: t.label, chunks: t.chunks, lost: t.lost, cells: Object.fromEntries([1, 3, 5].map((k) => [k, recallCell(t.measured.recall[r][k])])),
              score: [5, 3, 1].map((k) => t.measured.recall[r][k].hits[0]) }));
        const better = (a, b) => a.score.findIndex((v, i) => v !== b.score[i]);
        const best = rows.reduce((a, b) => { const at = better(a, b); return at >= 0 && b.score[at] > a.score[at] ? b : a; });
        ctx.show({ compare: rows, compared: r, best: best.label });
        await rechunk();
      };

      const forget = async () => {
        await loadDocs();
        const said = [];
        if (data.live && why !== "file") {
          const gone = await (await openStore()).forget();
          said.push(`${count(gone.vectors, "vector")} (${RAG.docs.megabytes(gone.bytes)}, ${count(gone.models, "model")}) deleted from ${gone.where === "indexeddb" ? "IndexedDB" : "memory"}`);
        }
        said.push(`${count(session.documents.length || ctx.local.chunks.length && 1, "document")}, ${count(ctx.local.chunks.length, "chunk")}, ${count(ctx.local.questions.length, "question")} and their marks cleared from this page`);
        session.documents = [];
        session.tried.clear();
        session.vectors.clear();
        session.sample = null;
        session.imported = null;
        session.embedding = false;
        ctx.show({ ...RAG.labSpec("docs-try").local, working: ctx.local.working, fileNote: ctx.local.fileNote, runtime: ctx.local.runtime,
                   forgot: `Forgotten: ${said.join("; ")}. The model's own files stay in the browser's cache.` });
        for (const slot of viewsBox().querySelectorAll("[data-mount]")) slot.hidden = true;
        viewsBox().hidden = true;
      };

      const importFile = async (file) => {
        await loadDocs();
        try {
          const found = await RAG.docs.importBundle(await file.text(), { fingerprint: data.live ? RAG.docs.store.fingerprint(data.live) : "none" });
          for (const [hash, vector] of Object.entries(found.vectors)) session.vectors.set(hash, vector);
          const store = data.live && why !== "file" ? await openStore() : null;
          const byHash = new Map(found.chunks.map((c) => [c.hash, c.text]));
          if (store) await store.put(Object.entries(found.vectors).map(([hash, v]) => [byHash.get(hash), v]));
          for (const q of found.questions) {
            const v = found.questionVectors[q.id];
            if (v) { session.vectors.set(`q:${q.text}`, v); if (store) await store.put([[q.text, v]]); }
          }
          session.documents = [];
          session.tried.clear();
          session.imported = { setting: found.setting };
          ctx.show({ documents: [...new Set(found.chunks.map((c) => c.source))].map((source) => ({ source, kind: "imported", pages: 0, words: 0 })),
            chunks: found.chunks, questions: found.questions, marks: found.marks, q: found.questions[0] ? found.questions[0].id : "",
            takeHome: `Imported ${count(found.chunks.length, "chunk")} and ${count(found.questions.length, "question")}; ` +
              `${count(found.toEmbed.length, "text")} left to embed.${found.dropped ? " " + found.dropped : ""}`, read: null });
          await refresh();
        } catch (error) {
          ctx.show({ takeHome: `Not imported: ${error.message}.` });
        }
      };

      const ask = async (text) => {
        if (!text.trim()) return;
        const existing = ctx.local.questions.find((q) => q.text === text);
        const id = existing ? existing.id : `mine-${ctx.local.questions.length + 1}`;
        if (!existing) ctx.show({ questions: [...ctx.local.questions, { id, text }] });
        ctx.show({ q: id });
        if (session.embedding && !session.vectors.has(`q:${text}`)) await embedAll(ctx.local.chunks);
        await refresh();
      };

      // Every handler counted while it runs (local.working), so the status can say so and a test can wait for quiet.
      const guarded = (fn) => (...args) => {
        ctx.show({ working: ctx.local.working + 1 });
        return Promise.resolve().then(() => fn(...args)).catch(fail).finally(() => ctx.show({ working: ctx.local.working - 1 }));
      };
      const acts = {
        sample: () => bring(own.sample.files.map(([name, text]) => ({ name, text })), { sample: own.sample }),
        paste: () => {
          const area = ctx.root.querySelector('textarea[name="docs-paste"]');
          if (!area.value.trim()) return;
          const n = session.documents.filter((d) => d.source.startsWith("pasted")).length + 1;
          return bring([{ name: `pasted-${n}.txt`, text: area.value }]).then(() => { area.value = ""; });
        },
        forget,
        embed: () => embedAll(ctx.local.chunks).then(refresh),
        cancel: () => session.controller && session.controller.abort(),
        ask: () => ask(ctx.root.querySelector('input[name="docs-question"]').value),
        "try-all": tryAll,
        export: () => download("documents.json", JSON.stringify(bundle()), "application/json"),
        reproduce: () => loadDocs().then(() => download("reproduce.py", own.reproduce, "text/x-python")),
        sql: () => download("documents.sql", RAG.docs.toSql(bundle()), "application/sql"),
        mark: (target) => {
          const q = ctx.local.q;
          ctx.show({ marks: RAG.docs.marks.toggle(ctx.local.marks, q, target.dataset.hash) });
          return refresh();
        },
      };
      /** The button a reader pressed stays where it was on the screen while its action redraws the
       *  steps above it (their nodes are replaced, and the browser's scroll anchoring, left with
       *  nothing to hold on to, scrolled "Which way to split" 1,000 px down the screen, its table
       *  off it). What it drew under it is then on the same screen. Left alone if the reader
       *  scrolled, typed or pressed anything meanwhile. Returns the call that puts it back (and the
       *  focus, where the button had it). */
      const holdInPlace = (target) => {
        const again = `[data-act="${target.dataset.act}"]` + (target.dataset.hash ? `[data-hash="${CSS.escape(target.dataset.hash)}"]` : "");
        const top = target.getBoundingClientRect().top;
        const focused = document.activeElement === target;
        let busy = false;
        const reader = () => { busy = true; };
        const moves = ["wheel", "touchmove", "keydown", "pointerdown"];
        moves.forEach((type) => window.addEventListener(type, reader, { capture: true, passive: true }));
        return () => {
          moves.forEach((type) => window.removeEventListener(type, reader, { capture: true }));
          const now = target.isConnected ? target : ctx.root.querySelector(again);
          if (busy || !now) return;
          const moved = now.getBoundingClientRect().top - top;
          if (Math.abs(moved) >= 1) window.scrollBy({ top: moved, behavior: "instant" });
          // A button disabled while its action ran lost the focus to the page: it gets it back.
          if (focused && (!document.activeElement || document.activeElement === document.body)) now.focus({ preventScroll: true });
        };
      };
      ctx.on(ctx.root, "click", (event) => {
        const target = event.target.closest("[data-act]");
        if (!target || !ctx.root.contains(target) || !acts[target.dataset.act]) return;
        if (target.dataset.act !== "mark") event.preventDefault();
        guarded(acts[target.dataset.act])(target).finally(holdInPlace(target));
      });
      ctx.on(ctx.root, "keydown", (event) => {
        if (event.key === "Enter" && event.target.name === "docs-question") guarded(acts.ask)();
      });
      ctx.on(ctx.root, "change", (event) => {
        const { name } = event.target;
        if (name === "docs-files" && event.target.files.length) guarded(bring)(Array.from(event.target.files)).then(() => { event.target.value = ""; });
        else if (name === "docs-import" && event.target.files.length) guarded(importFile)(event.target.files[0]).then(() => { event.target.value = ""; });
        else if (name === "docs-setting") { ctx.show({ settingIndex: Number(event.target.value) }); guarded(rechunk)(); }
        else if (name === "docs-shown") ctx.show({ shown: event.target.value });
        else if (name === "docs-q") { ctx.show({ q: event.target.value }); guarded(refresh)(); }
      });
      ctx.on(ctx.root, "dragover", (event) => { if (event.target.closest("[data-drop]")) event.preventDefault(); });
      ctx.on(ctx.root, "drop", (event) => {
        if (!event.target.closest("[data-drop]") || !event.dataTransfer) return;
        event.preventDefault();
        if (event.dataTransfer.files.length) guarded(bring)(Array.from(event.dataTransfer.files));
      });
    },
  });
})();
