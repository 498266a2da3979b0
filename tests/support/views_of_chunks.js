/* views_of_chunks.js: a view (site_src/views/<view>.js) drawn over a corpus made of chunks, in
 * Node, from the built site's own files, for the tests:
 *
 *   node tests/support/views_of_chunks.js < request.json > answer.json
 *
 *   request  {schema, sources (as builder/page/lab_views.js), corpus: {chunks, settings, vectors,
 *            questions}, drawings: [{view, input, state}]}: `input` is the view's input without
 *            its corpus, which is RAG.corpus.fromChunks(corpus.chunks, corpus)
 *   answer   {drawings: [{html, summary, state, runs}]} (runs: the question's, as the corpus
 *            searched them), or {error}
 *
 * Each drawing also goes over the one before in a DOM (happy-dom), as the browser redraws, and
 * must leave the tree the HTML parses to (as tests/support/views_check.js proves for the labs).
 *
 * With --lines it answers one request per line (a JSON line each); a request there without
 * sources draws in the sandbox of the last one that had them, as a page draws views over
 * several corpora (tests/support/views.py sends the site's files once per set of files).
 */
"use strict";
const { Window } = require("happy-dom");
const preact = require("preact");
const { render: renderToString } = require("preact-render-to-string");
const { sandbox } = require("../../builder/page/lab_views.js");
const { drawingTree: tree } = require("./drawing_tree.js");

const window = new Window();
globalThis.document = window.document;

async function answer(request, made) {
  const { RAG } = made;  // the lab files define the views they show
  const corpus = RAG.corpus.fromChunks(request.corpus.chunks, request.corpus);
  const outputs = new Map();  // view -> the element it is redrawn in
  const drawings = request.drawings.map(({ view, input, state }) => {
    const spec = RAG.viewSpec(view);
    if (!spec) throw new Error(`no view "${view}" in the site's files`);
    const given = { ...input, corpus };
    const accepted = spec.accept({ ...state }, given);
    if (!accepted) throw new Error(`the ${view} view refused the state ${JSON.stringify(state)}`);
    const { element, summary } = RAG.labDrawing(spec, accepted, given, {});
    const html = renderToString(element);
    if (!outputs.has(view)) {
      outputs.set(view, document.createElement("div"));
      outputs.get(view).innerHTML = html;
    }
    preact.render(element, outputs.get(view));
    const built = document.createElement("div");
    built.innerHTML = html;
    const redrawn = JSON.stringify(tree(outputs.get(view))) === JSON.stringify(tree(built));
    const question = accepted.q ? corpus.question(accepted.q) : null;
    return { html, summary, state: accepted, redrawn, runs: question ? question.runs : null };
  });
  return { drawings };
}

async function answered(request, kept) {
  try {
    if (!kept) throw new Error("the first request must carry the sources");
    return await answer(request, kept);
  } catch (error) {
    return { error: String(error && error.stack ? error.stack : error) };
  }
}

(async () => {
  if (process.argv.includes("--lines")) {
    let kept = null;
    for await (const line of require("node:readline").createInterface({ input: process.stdin })) {
      if (!line.trim()) continue;
      const request = JSON.parse(line);
      if (request.sources) kept = sandbox(request.sources);
      process.stdout.write(JSON.stringify(await answered(request, kept)) + "\n");
    }
    return;
  }
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const request = JSON.parse(text);
  process.stdout.write(JSON.stringify(await answered(request, sandbox(request.sources))));
})();
