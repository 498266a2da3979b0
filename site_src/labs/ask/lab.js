/* Ask your own question (lab.html draws a preset). A preset question shows the build's numbers;
 * any other text is searched here: BM25 at once (RAG.engine), dense search and fusion once the
 * reader has loaded the build's embedding model (RAG.live). Every stage says where its numbers
 * come from. A question searched live is added to the other labs' pickers (RAG.questions.add).
 * State: {text}. */
RAG.lab("ask", {
  accept(next) {
    return { text: typeof next.text === "string" ? next.text.slice(0, 10000) : "" };
  },

  setup(ctx) {
    ctx.results = new Map();  // text -> what the live model found for it
    /** The preset question whose text this is, exactly, with the build's lists; or null. */
    ctx.preset = (text) => {
      const found = ctx.data.questions.find((q) => q.text === text);
      return found ? ctx.question(found.id) : null;
    };
    const input = ctx.find('input[name="ask-text"]');
    const load = ctx.find('button[name="ask-load"]');
    const cancel = ctx.find('button[name="ask-cancel"]');
    const progress = ctx.find("progress.live-progress");
    const note = ctx.find(".live-note");

    /** Search the current text live, once, when the model is ready and it is not a preset. */
    ctx.searchLive = () => {
      const text = ctx.state.text;
      if (RAG.live.state !== "ready" || !text.trim() || ctx.preset(text) || ctx.results.has(text)) return;
      ctx.results.set(text, null);  // asked; the answer follows
      RAG.live.search(text).then((found) => {
        ctx.results.set(text, found);
        RAG.questions.add({ id: "live", text, set: "live", answer: null, paraphrase: false, runs: found.runs, vector: found.vector });
        if (ctx.state.text === text) ctx.set({}, { link: false, announce: "now" });
      }).catch((error) => RAG.showLabError(ctx.root, `The model could not search (${error.message}).`));
    };
    ctx.on(input, "input", () => {
      ctx.set({ text: input.value }, { announce: "later" });
      ctx.searchLive();
    });

    const why = RAG.live.available();
    if (!load) return;
    if (why === "file") {
      load.disabled = true;
      RAG.replace(note, "The model loads only from a page served over http, not from a file. In the folder that " +
        "holds this page, run ", RAG.el("code", null, "python3 -m http.server"), " and open ",
        RAG.el("code", null, "http://localhost:8000/"), " (or run ", RAG.el("code", null, "make serve"),
        " in the project).");
      return;
    }
    if (why) {
      load.disabled = true;
      RAG.replace(note, `The model cannot run here: ${why}.`);
      return;
    }
    let controller = null;
    ctx.on(load, "click", () => {
      controller = new AbortController();
      load.hidden = true;
      cancel.hidden = false;
      progress.hidden = false;
      RAG.replace(note, "Downloading…");
      RAG.live.load({
        signal: controller.signal,
        onProgress: (received, total) => {
          progress.value = received;
          RAG.replace(note, `Downloading: ${RAG.fixed(received / 1e6, 1)} of ${RAG.fixed(total / 1e6, 1)} MB`);
        },
      }).then(() => {
        cancel.hidden = true;
        progress.hidden = true;
        const t = RAG.live.timings;
        RAG.replace(note, `The model is ready${t.cached ? ", from your browser's cache" : ""}: ` +
          `${RAG.fixed(t.downloadMs / 1000, 1)} s to ${t.cached ? "read" : "download"} and check, ` +
          `${RAG.fixed(t.readyMs / 1000, 1)} s to start. A question of your own is now searched by meaning too.`);
        ctx.set({}, { link: false, announce: false });
        ctx.searchLive();
      }, (error) => {
        cancel.hidden = true;
        progress.hidden = true;
        load.hidden = false;
        RAG.replace(note, controller.signal.aborted ? "Cancelled: nothing was kept. Load it again whenever you like."
          : `The model could not be loaded: ${error.message}`);
        ctx.set({}, { link: false, announce: false });
      });
      ctx.set({}, { link: false, announce: false });  // the status now says the model is on its way
    });
    ctx.on(cancel, "click", () => { if (controller) controller.abort(); });
  },

  draw(ctx) {
    const { data } = ctx;
    const text = ctx.state.text;
    const input = ctx.find('input[name="ask-text"]');
    if (input.value !== text) input.value = text;
    const el = RAG.el;
    const section = Object.fromEntries(data.passages.map((p) => [p.id, p]));
    const depth = 5;
    const reader = ctx.own.reader;
    const acl = Object.fromEntries(data.passages.map((p) => [p.id, p.acl]));
    const rules = data.prompt.rules.map((rule) => rule.text);

    const list = (pairs, digits) => el("ol", { class: "results ask-list" }, pairs.length
      ? pairs.slice(0, depth).map(([pid, value], i) => el("li", { class: "result", dataset: { pid } },
        el("span", { class: "rank" }, String(i + 1)),
        el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, section[pid].section)),
        el("span", { class: "score" }, RAG.fixed(value, digits))))
      : el("li", { class: "result is-muted" }, el("span", { class: "rank" }),
        el("span", { class: "pid" }, "No passage shares a word with the question."), el("span", { class: "score" })));
    const waiting = (what) => el("p", { class: "ask-waiting" }, what);
    const stage = (key, n, title, wide, ...body) => el("div", { class: ["ask-stage", wide ? "ask-wide" : ""], dataset: { stage: key } },
      el("h4", null, el("span", { class: "ask-num" }, String(n)), ` ${title}`), ...body);
    const source = (...parts) => el("p", { class: "ask-source" }, ...parts);

    const preset = ctx.preset(text);
    const found = preset ? null : ctx.results.get(text);
    const live = RAG.live.state;
    let status;
    let quoted = null;  // the status's question, drawn in <bdi> so nothing typed turns the sentence around
    let runs = null;
    let provenance;
    if (preset) {
      runs = preset.runs;
      provenance = "computed by the build";
      quoted = preset.text;
      status = " is a question the page follows: every number below was computed by the build.";
    } else if (!text.trim()) {
      status = "Type a question above.";
    } else if (found) {
      runs = found.runs;
      provenance = "computed live in your browser";
      quoted = text;
      status = ": every number below was computed live in your browser, by the build's own model and code.";
    } else {
      runs = { bm25: RAG.live.bm25Only(text), dense: null, hybrid: null };
      provenance = "computed live in your browser";
      quoted = text;
      status = ": BM25 alone, computed live in your browser. " + (live === "ready" ? "The model is searching…"
        : live === "downloading" || live === "loading" ? "Dense search and fusion follow once the model is ready."
          : "Dense search and fusion need the embedding model: load it above (search by meaning runs in your browser, never on a server).");
    }
    if (quoted !== null) {
      RAG.replace(ctx.find(".lab-status"), "“", el("bdi", null, quoted), `”${status}`);
      status = `“${quoted}”${status}`;
    } else RAG.replace(ctx.find(".lab-status"), status);

    // Without the model, the prompt is built from BM25's list alone.
    const fused = runs ? (runs.hybrid || runs.bm25).map(([pid]) => pid) : [];
    const sent = preset ? ctx.own.presets[preset.id].sent : RAG.engine.preFilter(fused, acl, reader.groups, data.settings.prompt_passages);
    const question = preset ? preset.text : text;
    const prompt = RAG.engine.buildPrompt(question, sent.map((pid) => ({
      id: pid, title: section[pid].title, date: section[pid].updated, text: section[pid].text })), rules);
    let size;
    if (preset) size = `${ctx.own.presets[preset.id].tokens} tokens (${data.tokens.tokenizer}), counted by the build.`;
    else if (RAG.live.state === "ready") {
      size = `${RAG.live.countWordpieces(prompt)} wordpieces in ${data.model.name}'s tokenizer, counted live in your ` +
        `browser (the build counts ${data.tokens.tokenizer} tokens, whose table this page does not download).`;
    } else size = "Its size is counted once the model's tokenizer is loaded.";

    const stages = ctx.find(".ask-stages");
    const note = found || preset ? [] : [waiting("Needs the model: load it above.")];
    RAG.replace(stages,
      stage("dense", 1, "Dense · cosine", false, source(runs && runs.dense ? provenance : "waiting for the model"),
        runs && runs.dense ? list(runs.dense, 3) : note),
      stage("bm25", 2, "BM25 · score", false, source(runs ? provenance : "waiting for a question"), runs ? list(runs.bm25, 3) : []),
      stage("fused", 3, "Fused · RRF", false, source(runs && runs.hybrid ? provenance : "waiting for the model"),
        runs && runs.hybrid ? list(runs.hybrid, 5) : note),
      stage("filter", 4, "Who may read it", false,
        source(`A ${reader.label.toLowerCase()} may read these ${sent.length} of the ${runs && (runs.hybrid || preset) ? "fused" : "BM25"} list's best; ` +
          `the filter runs before the top ${data.settings.prompt_passages} are taken.`),
        el("ol", { class: "results ask-list" }, sent.map((pid, i) => el("li", { class: "result", dataset: { pid } },
          el("span", { class: "rank" }, String(i + 1)),
          el("span", { class: "pid" }, el("code", null, pid), " ", el("span", { class: "title" }, section[pid].section)),
          el("span", { class: "score" }, section[pid].updated))))),
      stage("prompt", 5, "The prompt", true, source(size), el("pre", { class: "ask-prompt", tabindex: "0" }, prompt)),
      stage("answer", 6, "The answer", true, source("No language model runs on this page. A model would read the prompt above and answer from it, citing the passages by id.")),
      stage("check", 7, "The citation check", true, source("With no answer there is nothing to check here. Section 8 runs the check, real code, on the illustrative answers of the traced questions.")));
    return status;
  },
});
