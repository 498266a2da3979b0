/* The chunking lab (lab.html draws its default). One help page cut six ways, every chunk with
 * its real cosine score and rank for each of two questions, the facts it holds marked, and the
 * lesson of that cut (a checked claim of the prose, drawn by the template; shown here).
 * State: {setting, q}: a chunker id and a question id of the lab's own two questions. */
RAG.lab("chunking", {
  accept(next, ctx) {
    const { settings, questions } = ctx.own;
    if (!settings.some((s) => s.id === next.setting) || !questions.some((q) => q.id === next.q)) return null;
    return { setting: next.setting, q: next.q };
  },

  setup(ctx) {
    for (const radio of ctx.findAll('input[name="chunking-setting"]')) {
      ctx.on(radio, "change", () => { if (radio.checked) ctx.set({ setting: radio.value }); });
    }
    for (const radio of ctx.findAll('input[name="chunking-question"]')) {
      ctx.on(radio, "change", () => { if (radio.checked) ctx.set({ q: radio.value }); });
    }
  },

  draw(ctx) {
    const { settings, questions, facts, outcomes, segments } = ctx.own;
    const { q } = ctx.state;
    const setting = settings.find((s) => s.id === ctx.state.setting);
    const summary = outcomes[setting.id];
    const needs = summary[q].needs;
    const qIndex = questions.findIndex((question) => question.id === q);
    // Every bar on one scale: the best score of any chunk, any setting, either question.
    const top = Math.max(0, ...settings.flatMap((s) => s.chunks.flatMap((c) => questions.map((question) => c.scores[question.id]))));

    for (const radio of ctx.findAll('input[name="chunking-setting"]')) radio.checked = radio.value === setting.id;
    for (const radio of ctx.findAll('input[name="chunking-question"]')) radio.checked = radio.value === q;
    ctx.find(".lab-question-label").textContent = `Question ${qIndex + 1}`;
    ctx.find(".lab-question-text").textContent = questions[qIndex].text;
    const words = summary.min_words === summary.max_words ? `${summary.min_words}` : `${summary.min_words} to ${summary.max_words}`;
    const status = `${setting.label}: ${RAG.plural(summary.n_chunks, "chunk")} of ${words} words, ranked by cosine similarity.`;
    ctx.find(".lab-status").textContent = status;

    const item = (chunk, index) => {
      const first = chunk.ranks[q] === 1;
      const answers = needs.length > 0 && needs.every((f) => chunk.facts.includes(f));
      const held = Object.keys(facts).filter((name) => chunk.facts.includes(name));
      return RAG.el("li", { class: ["result", "chunk", first ? "is-winner" : "", answers ? "is-answer" : ""], dataset: { chunk: index } },
        RAG.el("span", { class: "rank" }, String(chunk.ranks[q])),
        RAG.el("span", { class: "pid" }, RAG.el("code", null, `chunk ${index + 1} of ${setting.chunks.length}`), " ",
          RAG.el("span", { class: "title" }, `${chunk.words} words`)),
        RAG.el("meter", { class: "score-bar", min: "0", max: String(top), value: String(Math.max(chunk.scores[q], 0)), "aria-hidden": "true" }),
        RAG.el("span", { class: "score" }, RAG.fixed(chunk.scores[q], 3)),
        RAG.el("span", { class: "badges" },
          first ? RAG.el("span", { class: "badge badge-top" }, "ranked first") : null,
          answers ? RAG.el("span", { class: "badge badge-ok" }, "answers it") : null,
          held.map((name) => RAG.el("span", { class: ["badge", name === "tempting" ? "badge-warn" : "badge-fact"] },
            `${name === "tempting" ? "tempting: " : ""}${facts[name]}`)),
          held.length ? null : RAG.el("span", { class: "badge badge-none" }, "no key fact")),
        RAG.el("p", { class: "snippet chunk-text" }, segments[setting.id][index].map(([piece, fact]) => (fact
          ? RAG.el("mark", { class: ["fact", fact === "tempting" ? "is-tempting" : ""] }, piece) : piece))));
    };
    const order = setting.chunks.map((chunk, index) => index).sort((a, b) => setting.chunks[a].ranks[q] - setting.chunks[b].ranks[q]);
    RAG.replace(ctx.find("ol.chunk-results"), order.map((index) => item(setting.chunks[index], index)));

    let lesson = "";
    for (const p of ctx.findAll(".lab-lesson[data-setting]")) {
      p.hidden = !(p.dataset.setting === setting.id && p.dataset.q === q);
      if (!p.hidden) lesson = p.textContent;
    }
    return `${status} ${lesson}`.trim();
  },
});
