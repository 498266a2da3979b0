/* Ask your own question: a typed question through every stage. A preset question's text shows
 * the build's numbers; any other text is searched here: BM25 at once, dense search and fusion once
 * the reader has loaded the build's embedding model (site_src/scripts/embedder.js, RAG.embedder,
 * which runs it in a worker; the search, site_src/scripts/live-search.js, RAG.liveSearch); then
 * the permission filter for a customer and the prompt, built by the engine's JavaScript twin.
 * Every stage says whether the build or the browser computed it. A question searched live is
 * added to the page's corpus, and so to the other labs' pickers (corpus.questions.add).
 *
 * State: {text}. Local (what the browser has learnt, never in the link): model, the model's
 * state as embedder.js reports it; found, the last live search ({text, runs, wordpieces: the
 * prompt's size in the model's tokenizer}). The view reads both only through props; BM25 before
 * the model comes from the page's corpus (corpus.search(text, null): its BM25 index, built once).
 * Each fused passage says which positions RRF read ("from dense 5 + BM25 1"); every row carries the
 * tracer's badges (right passage, outdated, forum post, staff only); the filter says what it
 * removed; and the top cosine is set against the build's floor (own.floor, builder/cosine_floor.py).
 * A question searched live is also drawn by the hybrid view (site_src/views/hybrid.js), in a panel
 * just after the lab, with its slope chart and sliders (sync, below). */
(() => {
  const h = RAG.h;
  const kit = RAG.kit;
  const DEPTH = 5;  // rows shown per ranked list
  const STAGES = [["dense", "Dense \u00b7 cosine", 3], ["bm25", "BM25 \u00b7 score", 3], ["fused", "Fused \u00b7 RRF", 5]];
  const acls = new WeakMap();  // a corpus -> id -> its groups, as the engine's filter reads them

  /** The passages a customer's prompt carries: the fused list's best they may read. */
  function sentFor(fused, corpus, reader) {
    if (!acls.has(corpus)) acls.set(corpus, Object.fromEntries(corpus.passages.map((p) => [p.id, p.acl])));
    return RAG.engine.preFilter(fused, acls.get(corpus), reader.groups, corpus.settings.prompt_passages);
  }

  /** The prompt for `text` with these passages, as engine/prompt.py builds it. */
  function promptOf(text, sent, corpus, rules) {
    const sources = sent.map((pid) => corpus.passage(pid)).map((p) => ({ id: p.id, title: p.title, date: p.updated, text: p.text }));
    return RAG.engine.buildPrompt(text, sources, rules.map((rule) => rule.text));
  }

  /** The status line after the quoted question, for each kind of text. */
  function statusOf(props) {
    return {
      preset: " is a question the page follows: every number below was computed by the build.",
      live: ": every number below was computed live in your browser, by the build's own model and code.",
      bm25: `: BM25 alone, computed live in your browser. ${props.waiting}`,
    }[props.kind];
  }

  function waitingFor(model, hasModel) {
    if (!hasModel) return "Dense search and fusion need the embedding model, which this copy of the page does not include.";
    if (model === "ready") return "The model is searching\u2026";
    if (model === "downloading" || model === "loading") return "Dense search and fusion follow once the model is ready.";
    return "Dense search and fusion need the embedding model: load it above (search by meaning runs in your browser, never on a server).";
  }

  /** The tracer's badges for a passage (site_src/labs/tracer/lab.js): right passage, outdated, forum post, staff only. */
  function badges(p, rights) {
    const staff = p.acl.includes("staff");
    const right = rights.includes(p.id);
    if (!(right || p.superseded || p.kind === "forum" || staff)) return null;
    return h("span", { class: "badges" },
      right ? h("span", { class: "badge badge-ok" }, "right passage") : null,
      p.superseded ? h("span", { class: "badge badge-superseded" }, "outdated") : null,
      p.kind === "forum" ? h("span", { class: "badge badge-forum" }, "forum post") : null,
      staff ? h("span", { class: "badge badge-staff" }, "staff only") : null);
  }

  /** Where a fused passage came from: the positions RRF read in each list's top `depth`,
   *  "from dense 5 + BM25 1" (a position inside a tie says so: "BM25 2 (tied for 1st)"). */
  function originOf(runs, pid, depth) {
    const parts = [["dense", runs.dense], ["BM25", runs.bm25]].map(([name, list]) => {
      const rank = kit.rankOf(list.slice(0, depth), pid);
      if (!rank) return null;
      const place = kit.placeOf(list, pid);
      return `${name} ${rank}` + (place && place.last > place.first ? ` (tied for ${place.first})` : "");
    }).filter(Boolean);
    return `from ${parts.join(" + ")}`;
  }

  function list(pairs, digits, props, origin) {
    const places = kit.placesOf(pairs);
    return h("ol", { class: "results ask-list" }, pairs.length
      ? pairs.slice(0, DEPTH).map(([pid, value]) => kit.row({ id: pid, place: places.get(pid), title: props.sectionOf(pid),
        score: RAG.fixed(value, digits), attrs: { "data-pid": pid },
        classes: [props.rights.includes(pid) && "is-answer"],
        more: [badges(props.passageOf(pid), props.rights), origin ? h("p", { class: "detail ask-origin" }, origin(pid)) : null] }))
      : kit.emptyRow("No passage shares a word with the question."));
  }

  /** What the filter took out: the fused passages above the last one sent that the reader may not read. */
  function removedBy(fused, sent) {
    const last = sent.length ? fused.indexOf(sent[sent.length - 1]) : -1;
    return fused.slice(0, last + 1).filter((pid) => !sent.includes(pid));
  }

  const cosine = (x) => RAG.fixed(x, 3);

  /** Where the top cosine falls against the build's floor figures. Whether a floor separates
   *  answered from unanswerable questions is said once, by the prose before the lab (a checked
   *  claim); this line places the reader's question, under the dense list that gave the cosine. */
  function floorText(top, floor) {
    if (!floor || top === null) return null;
    const low = floor.answered.cosine;
    const high = floor.unanswerable.cosine;
    const said = `Top cosine ${cosine(top)}: `;
    if (floor.separates) {
      return said + (top < low
        ? `below ${cosine(low)}, the lowest top cosine of a golden question answered at rank 1: the help center may not answer this.`
        : `at or above ${cosine(low)}, where the golden questions answered at rank 1 start; questions the help center cannot answer stay below ${cosine(high)}.`);
    }
    if (top < low) return said + `below every golden question answered at rank 1 (they start at ${cosine(low)}): the help center may not answer this.`;
    if (top > high) return said + `above every question the help center cannot answer (they reach ${cosine(high)}).`;
    return said + `between ${cosine(low)} and ${cosine(high)}, where answered and unanswerable questions both fall.`;
  }

  const stage = (key, n, title, wide, ...body) => h("div", { class: ["ask-stage", wide && "ask-wide"], "data-stage": key },
    h("h4", null, h("span", { class: "ask-num" }, String(n)), ` ${title}`), ...body);
  const source = (...parts) => h("p", { class: "ask-source" }, ...parts);

  RAG.lab("ask", {
    local: { model: "idle", found: null },

    accept(next) {
      return { text: typeof next.text === "string" ? next.text.slice(0, 10000) : "" };
    },

    props(state, input, local) {
      const { data, own, corpus } = input;
      const text = state.text;
      const preset = corpus.questions.presets().find((q) => q.text === text) || null;
      const found = !preset && local.found && local.found.text === text ? local.found : null;
      let runs = null;
      let kind;  // "preset" | "live" | "bm25" | "empty"
      if (preset) [runs, kind] = [preset.runs, "preset"];
      else if (!text.trim()) kind = "empty";
      else if (found) [runs, kind] = [found.runs, "live"];
      else [runs, kind] = [corpus.search(text, null), "bm25"];
      // Without the model, the prompt is built from BM25's list alone.
      const fused = runs ? (runs.hybrid || runs.bm25).map(([pid]) => pid) : [];
      const sent = preset ? own.presets[preset.id].sent : sentFor(fused, corpus, own.reader);
      let size;
      if (preset) size = `${own.presets[preset.id].tokens} tokens (${data.tokens.tokenizer}), counted by the build.`;
      else if (found) {
        size = `${found.wordpieces} wordpieces in ${data.model.name}'s tokenizer, counted live in your browser (the build ` +
          `counts ${data.tokens.tokenizer} tokens, whose table this page does not download).`;
      } else size = local.model === "ready" ? "Its size is counted once the model has searched." : "Its size is counted once the model's tokenizer is loaded.";
      return {
        kind, text, runs, size, waiting: waitingFor(local.model, Boolean(data.live)),
        sent, prompt: promptOf(text, sent, corpus, data.prompt.rules),
        fusedList: Boolean(runs && (runs.hybrid || preset)), readerLabel: own.reader.label.toLowerCase(),
        promptPassages: data.settings.prompt_passages, checkSection: own.check_section,
        sectionOf: (pid) => corpus.passage(pid).section, updatedOf: (pid) => corpus.passage(pid).updated,
        passageOf: (pid) => corpus.passage(pid), rights: preset ? corpus.rightPassages(preset) : [],
        depth: corpus.settings.fusion_depth, removed: removedBy(fused, sent),
        floor: runs && runs.dense && runs.dense.length ? floorText(runs.dense[0][1], own.floor) : null,
      };
    },

    view(props) {
      const { runs, kind } = props;
      const provenance = kind === "preset" ? "computed by the build" : "computed live in your browser";
      const needsModel = kind === "bm25" ? [h("p", { class: "ask-waiting" }, "Needs the model: load it above.")] : [];
      const ranked = (key, digits) => {
        const pairs = runs && runs[key === "fused" ? "hybrid" : key];
        const origin = key === "fused" ? (pid) => originOf(runs, pid, props.depth) : null;
        const floor = key === "dense" && props.floor ? h("p", { class: "ask-floor" }, props.floor) : null;
        if (pairs) return [source(provenance), list(pairs, digits, props, origin), floor];
        return [source(runs ? "waiting for the model" : "waiting for a question"), ...(runs ? needsModel : [])];
      };
      return [
        h("p", { class: "lab-status" }, kind === "empty" ? "Type a question above." : ["\u201c", h("bdi", null, props.text), `\u201d${statusOf(props)}`]),
        h("div", { class: "ask-stages" },
          STAGES.map(([key, title, digits], i) => stage(key, i + 1, title, false, ...ranked(key, digits))),
          stage("filter", 4, "Who may read it", false,
            source(`A ${props.readerLabel} may read these ${props.sent.length} of the ${props.fusedList ? "fused" : "BM25"} list's best; ` +
              `the filter runs before the top ${props.promptPassages} are taken.`),
            h("p", { class: "ask-source ask-removed" }, props.removed.length
              ? [`It removed ${RAG.plural(props.removed.length, "passage")} a ${props.readerLabel} may not read: `,
                props.removed.map((pid, i) => [i ? ", " : "", h("code", null, pid),
                  ` (${props.passageOf(pid).acl.join(", ")} only)`]), "."]
              : `It removed nothing: a ${props.readerLabel} may read every passage above the last one sent.`),
            h("ol", { class: "results ask-list" }, props.sent.map((pid, i) => kit.row({
              id: pid, place: i + 1, title: props.sectionOf(pid), score: props.updatedOf(pid), attrs: { "data-pid": pid },
              more: badges(props.passageOf(pid), props.rights) })))),
          stage("prompt", 5, "The prompt", true, source(props.size), h("pre", { class: "ask-prompt", tabindex: "0" }, props.prompt)),
          stage("answer", 6, "The answer", true, source("No language model runs on this page. A model would read the prompt " +
            "above and answer from it, citing the passages by id.")),
          stage("check", 7, "The citation check", true, source(["With no answer there is nothing to check here. ",
            h("a", { href: `#${props.checkSection.slug}` }, `Section ${props.checkSection.number}`),
            " runs the check, real code, on the illustrative answers of the traced questions."]))),
      ];
    },

    summary(props) {
      if (props.kind === "empty") return "Type a question above.";
      return `\u201c${props.text}\u201d${statusOf(props)}` + (props.floor ? ` ${props.floor}` : "");
    },

    /** A question searched live is drawn by the hybrid view too, just after the lab: its chart and
     *  sliders show what fusion does with this question's two lists. Mounted once (the frame's
     *  slot moves out of the lab, into a panel of its own, so the lab's drawing stays the lab's),
     *  then redrawn for each new question at the reader's k and depth; hidden for a preset (the
     *  hybrid lab shows those) and for BM25 alone. */
    sync(ctx) {
      const { found } = ctx.local;
      const live = found && found.text === ctx.state.text ? found : null;
      if (ctx.fusion) ctx.fusion.panel.hidden = !live;
      if (!live || (ctx.fusion && ctx.fusion.found === live)) return;
      if (ctx.fusion) {
        ctx.fusion.found = live;
        ctx.fusion.view.show({ linked: null, stops: {} });
        ctx.fusion.view.set({ q: "live" });
        return;
      }
      const slot = ctx.find('[data-mount="hybrid"]');
      if (!slot) return;
      const panel = RAG.el("section", { class: "lab ask-fusion", "aria-label": "Fusion, for your question: the hybrid view" });
      const box = RAG.el("div", { class: "ask-fusion-view" });
      box.append(slot.querySelector("template[data-controls]").content.cloneNode(true), RAG.el("div", { class: "lab-output" }));
      slot.append(box);
      slot.hidden = false;
      panel.append(slot);
      ctx.root.after(panel);
      const { corpus, data, own } = ctx.input;
      const input = { corpus, sliders: own.sliders, prefix: "ask-hybrid" };
      ctx.fusion = { panel, found: live,
        view: RAG.mountView(box, "hybrid", input, { q: "live", k: data.settings.rrf_k, depth: data.settings.fusion_depth }) };
    },

    setup(ctx) {
      const { data, corpus } = ctx.input;
      const field = ctx.find('input[name="ask-text"]');
      const load = ctx.find('button[name="ask-load"]');
      const cancel = ctx.find('button[name="ask-cancel"]');
      const progress = ctx.find("progress.live-progress");
      const note = ctx.find(".live-note");
      const results = new Map();  // text -> what the live model found for it (null while it searches)
      const isPreset = (text) => data.questions.some((q) => q.text === text);
      let model = null;  // the page's embedder once loaded: RAG.embedder.pool

      /** The text through the model (in its worker) and the search, then the prompt's size. */
      const search = async (text) => {
        const { vectors: [vector] } = await model.embed([text]);
        const runs = RAG.liveSearch.runs(text, vector, model.passageVectors, corpus);
        const sent = sentFor(runs.hybrid.map(([pid]) => pid), corpus, ctx.input.own.reader);
        const [wordpieces] = await model.countWordpieces([promptOf(text, sent, corpus, data.prompt.rules)]);
        return { text, runs, vector, wordpieces };
      };

      /** Search the current text live, once per text, when the model is ready and it is not a preset. */
      const searchLive = () => {
        const text = ctx.state.text;
        if (!model || !text.trim() || isPreset(text)) return;
        // The page's question asked live is the one shown (the other labs and the hybrid view read it).
        const ask = ({ runs, vector }) => ctx.input.corpus.questions.add({ id: "live", text, set: "live", answer: null, paraphrase: false, runs, vector });
        if (results.has(text)) {
          if (results.get(text)) {
            ask(results.get(text));
            ctx.show({ found: results.get(text) });
          }
          return;
        }
        results.set(text, null);  // asked; the answer follows
        search(text).then(({ runs, vector, wordpieces }) => {
          const found = { text, runs, wordpieces, vector };
          results.set(text, found);
          ask(found);
          if (ctx.state.text === text) {
            ctx.show({ found });
            RAG.announce(`\u201c${text}\u201d: every number below was computed live in your browser.`);
          }
        }).catch((error) => RAG.showLabError(ctx.root, `The model could not search (${error.message}).`));
      };
      // The runtime binds the field (data-key="text") on the field itself; this listens where the
      // event arrives after it, on the lab, so the state already holds the new text.
      ctx.on(ctx.root, "input", (event) => { if (event.target === field) searchLive(); });

      const why = RAG.embedder.available(data.live);
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
      const settled = (shown) => {
        cancel.hidden = true;
        progress.hidden = true;
        load.hidden = shown;
        ctx.show({ model: RAG.embedder.state });
      };
      ctx.on(load, "click", () => {
        controller = new AbortController();
        load.hidden = true;
        cancel.hidden = false;
        progress.hidden = false;
        RAG.replace(note, "Downloading\u2026");
        RAG.embedder.load(data.live, {
          signal: controller.signal,
          onProgress: (received, total) => {
            progress.value = received;
            RAG.replace(note, `Downloading: ${RAG.fixed(received / 1e6, 1)} of ${RAG.fixed(total / 1e6, 1)} MB`);
          },
          onPhase: () => ctx.show({ model: RAG.embedder.state }),
        }).then((pool) => {
          model = pool;
          const t = pool.timings;
          RAG.replace(note, `The model is ready${t.cached ? ", from your browser's cache" : ""}: ` +
            `${RAG.fixed(t.downloadMs / 1000, 1)} s to ${t.cached ? "read" : "download"} and check, ` +
            `${RAG.fixed(t.readyMs / 1000, 1)} s to start. A question of your own is now searched by meaning too.`);
          settled(true);
          searchLive();
        }, (error) => {
          RAG.replace(note, controller.signal.aborted ? "Cancelled: nothing was kept. Load it again whenever you like."
            : `The model could not be loaded: ${error.message}`);
          settled(false);
        });
        ctx.show({ model: RAG.embedder.state });  // the status now says the model is on its way
      });
      ctx.on(cancel, "click", () => { if (controller) controller.abort(); });
    },
  });
})();
