/* lab_views.js: every lab's view rendered to HTML in Node, from the very files the page ships.
 * builder/page/lab_views.py runs it once per build (when its cache misses):
 *
 *   node builder/page/lab_views.js < request.json > drawings.json
 *
 *   request   {schema, sources: [{name, code}], drawings: [{lab, state}]}
 *             sources are run in order in one sandbox, as the browser runs them: the runtime's
 *             isomorphic files (format.js, loader.js, page-data.js, views.js, corpus.js, kit.js),
 *             the shared scripts, then assets/data.js and
 *             assets/labs/<name>.js exactly as the build writes them
 *   drawings  {drawings: [{html, summary, outcome, state}]} in the request's order, or {error}; with
 *             "lenient": true, a drawing that fails is {html: "", summary: "", outcome: "", state, error}
 *
 * With --lines it answers one request per line of standard input (a JSON line each), for the
 * tests, which render thousands of states in one process; a request there without sources draws
 * in the sandbox of the last one that had them (the tests send the site's files once).
 *
 * Preact here is the package's CommonJS build, the same version as the UMD file the browser
 * loads (package-lock.json), so preact-render-to-string and the views share one Preact.
 */
"use strict";
const vm = require("node:vm");
const readline = require("node:readline");
const preact = require("preact");
const { render: renderToString } = require("preact-render-to-string");

/** A sandbox holding window.RAG, with the sources run in it, the way the page runs them. */
function sandbox(sources) {
  const context = { console, preact, URLSearchParams, RAG: {} };
  context.window = context;
  context.self = context;
  vm.createContext(context);
  for (const { name, code } of sources) vm.runInContext(code, context, { filename: name });
  return context;
}

/** The sandbox of a request's sources and the data it accepted. */
async function prepared(request) {
  const { RAG } = sandbox(request.sources);
  return { RAG, data: RAG.acceptData(await RAG.provided("data"), request.schema) };
}

async function drawAll(request, made) {
  const { RAG, data } = made || await prepared(request);
  const owns = new Map();
  return Promise.all(request.drawings.map(async ({ lab, state }) => {
    if (!request.lenient) return drawOne(lab, state);
    try {
      return await drawOne(lab, state);
    } catch (error) {
      return { html: "", summary: "", outcome: "", state, error: String(error && error.message ? error.message : error) };
    }
  }));

  async function drawOne(lab, state) {
    const spec = RAG.labSpec(lab);
    if (!spec) throw new Error(`site_src/labs/${lab}/lab.js did not define the lab "${lab}" (it must call RAG.lab("${lab}", {...}))`);
    if (!spec.view || !spec.props) {
      throw new Error(`site_src/labs/${lab}/lab.js defines no view: a lab draws with props(state, input) and ` +
        "view(props) (site_src/README.md, \"Labs: one folder, one drawing\")");
    }
    if (!owns.has(lab)) owns.set(lab, await RAG.provided(`lab:${lab}`));
    const input = RAG.inputFor(spec, data, owns.get(lab));
    const accepted = spec.accept({ ...state }, input);
    if (!accepted) {
      throw new Error(`site_src/labs/${lab}/lab.js: accept() refused the state ${JSON.stringify(state)} ` +
        `(fix STATE in site_src/labs/${lab}/data.py, or the options the prose gives to lab("${lab}", ...))`);
    }
    const { element, summary, outcome } = RAG.labDrawing(spec, accepted, input, {});
    return { html: renderToString(element), summary, outcome: outcome ? renderToString(outcome) : "", state: accepted };
  }
}

async function answer(request, made) {
  try {
    return { drawings: await drawAll(request, made) };
  } catch (error) {
    return { error: String(error && error.stack ? error.stack : error) };
  }
}

async function main() {
  if (process.argv.includes("--lines")) {
    const lines = readline.createInterface({ input: process.stdin });
    let kept = null;
    for await (const line of lines) {
      if (!line.trim()) continue;
      const request = JSON.parse(line);
      let answered;
      try {
        if (request.sources) kept = await prepared(request);
        if (!kept) throw new Error("the first request must carry the sources");
        answered = await answer(request, kept);
      } catch (error) {
        answered = { error: String(error && error.stack ? error.stack : error) };
      }
      process.stdout.write(JSON.stringify(answered) + "\n");
    }
    return;
  }
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  process.stdout.write(JSON.stringify(await answer(JSON.parse(text))));
}

if (require.main === module) main();

module.exports = { sandbox, drawAll };
