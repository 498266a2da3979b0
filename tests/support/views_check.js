/* views_check.js: every state of a lab drawn both ways a reader gets it, in Node.
 *
 *   node tests/support/views_check.js < request.json > report.json
 *
 *   request  {schema, sources, labs: {name: [state, ...]}}  (sources as builder/page/lab_views.js)
 *   report   {checked: {name: n}, mismatches: [{lab, state, build, browser}], errors: [...]}
 *
 * For each lab, its states are drawn one after another into one element of a DOM (happy-dom), as
 * the browser's runtime redraws them with Preact; after each, that element must hold the same
 * tree as the build's HTML of the same state (preact-render-to-string), parsed. The first state is
 * drawn over the build's own HTML, as when a lab starts. So every state is proven equal between
 * the two drawings, including a redraw from the state before it. (A build's HTML met again, as
 * states that draw the same do, is parsed once: its tree is a function of the HTML alone.)
 */
"use strict";
const { Window } = require("happy-dom");
const preact = require("preact");
const { render: renderToString } = require("preact-render-to-string");
const { sandbox } = require("../../builder/page/lab_views.js");
const { drawingTree: tree } = require("./drawing_tree.js");

const window = new Window();
globalThis.document = window.document;  // Preact's DOM renderer creates nodes in this document

function parsed(html) {
  const box = document.createElement("div");
  box.innerHTML = html;
  return box;
}

/** JSON of the tree of a build's HTML, parsed; `seen` (html -> JSON) keeps those of one lab. */
function builtTree(html, seen) {
  if (!seen.has(html)) seen.set(html, JSON.stringify(tree(parsed(html))));
  return seen.get(html);
}

async function check(request) {
  const { RAG } = sandbox(request.sources);
  const data = RAG.acceptData(await RAG.provided("data"), request.schema);
  const report = { checked: {}, mismatches: [], errors: [] };
  for (const [lab, states] of Object.entries(request.labs)) {
    const spec = RAG.labSpec(lab);
    const input = RAG.inputFor(spec, data, await RAG.provided(`lab:${lab}`));
    const output = document.createElement("div");
    const seen = new Map();
    report.checked[lab] = 0;
    for (const [index, raw] of states.entries()) {
      try {
        const state = spec.accept({ ...raw }, input);
        if (!state) { report.errors.push({ lab, state: raw, error: "accept() refused a state its controls offer" }); continue; }
        const { element } = RAG.labDrawing(spec, state, input, {});
        const html = renderToString(element);
        if (index === 0) output.innerHTML = html;  // a lab starts over the build's drawing
        preact.render(element, output);
        const build = builtTree(html, seen);
        const browser = JSON.stringify(tree(output));
        report.checked[lab] += 1;
        if (build !== browser && report.mismatches.length < 20) report.mismatches.push({ lab, state, build, browser });
      } catch (error) {
        report.errors.push({ lab, state: raw, error: String(error && error.stack ? error.stack : error) });
      }
    }
  }
  return report;
}

(async () => {
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  process.stdout.write(JSON.stringify(await check(JSON.parse(text))));
})();
