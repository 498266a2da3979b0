/* The JavaScript half of tests/twins/: one Node process for the whole test session.
 *
 *   node tests/twins/driver.js    (tests/twins/node.py starts it and speaks to it, a JSON line each way)
 *
 * First line in:  {files: [{name, code}], joined: code}. Each file is run alone, in the join
 *                 order, in a fresh sandbox, to list what it adds to RAG.engine; then the joined
 *                 engine (what the page loads) is run in this process, and every call below goes
 *                 to it. Answer: {exports: {file: {functions, classes: {name: [methods]}, constants}}}
 * Then per line:  {js, objects, cases} -> {results}: `js` is a function of RAG.engine ("tokenize"),
 *                 a method ("BM25#scores", called on the case's first argument), or one of PROBES;
 *                 `objects` are built once ({name: {new: "BM25", args}}) and a case's argument
 *                 {"$ref": name} stands for one; each result is the return value, or {"$error":
 *                 message} when the call throws.
 * Numbers JSON cannot carry (-0, NaN, the infinities) travel as {"$number": "-0"} both ways.
 */
"use strict";
const vm = require("node:vm");
const readline = require("node:readline");

// Not twins: what the harness checks of the JavaScript side alone (each made from the engine).
const PROBES = {
  // live.js rounded so before ranking.js; test_twins.py shows it is not Python's round().
  "old round6": () => (x) => Math.round(x * 1e6) / 1e6,
  // Build an engine object the way a lab does, to see it refuse a setting left out.
  "new": (E) => (kind, ...args) => new E[kind](...args),
};

const SPECIAL = { "-0": -0, NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };
const revive = (key, value) => (value && typeof value === "object" && !Array.isArray(value) &&
  Object.keys(value).length === 1 && "$number" in value ? SPECIAL[value.$number] : value);
const replace = (key, value) => {
  if (value instanceof Map) return Object.fromEntries(value);  // an index's postings travel as an object
  if (typeof value !== "number" || (Number.isFinite(value) && !Object.is(value, -0))) return value;
  return { $number: Object.is(value, -0) ? "-0" : String(value) };
};

/** What each file adds to RAG.engine, running the files one after another in a fresh sandbox. */
function exportsByFile(files) {
  const sandbox = vm.createContext({});
  const found = {};
  let before = new Set();
  for (const { name, code } of files) {
    vm.runInContext(code, sandbox, { filename: name });
    const engine = sandbox.RAG.engine;
    const added = Object.keys(engine).filter((key) => !before.has(key));
    const kind = (key) => typeof engine[key] === "function" && Object.keys(engine[key].prototype || {}).length ? "class"
      : typeof engine[key] === "function" ? "function" : "constant";
    found[name] = {
      functions: added.filter((key) => kind(key) === "function"),
      classes: Object.fromEntries(added.filter((key) => kind(key) === "class").map((key) => [key, Object.keys(engine[key].prototype)])),
      constants: added.filter((key) => kind(key) === "constant"),
    };
    before = new Set(Object.keys(engine));
  }
  return found;
}

function callerOf(E, js) {
  if (PROBES[js]) return PROBES[js](E);
  const [name, method] = js.split("#");
  if (method) return (receiver, ...args) => receiver[method](...args);
  if (typeof E[name] !== "function") throw new Error(`RAG.engine has no function ${name}`);
  return E[name];
}

function answer(E, request) {
  const call = callerOf(E, request.js);
  const objects = {};
  for (const [name, spec] of Object.entries(request.objects || {})) objects[name] = new E[spec.new](...spec.args);
  const resolve = (arg) => (arg && typeof arg === "object" && !Array.isArray(arg) && "$ref" in arg ? objects[arg.$ref] : arg);
  return request.cases.map((args) => {
    try {
      return call(...args.map(resolve));
    } catch (error) {
      return { $error: String(error && error.message !== undefined ? error.message : error) };
    }
  });
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let E = null;
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      const request = line.includes('"$number"') ? JSON.parse(line, revive) : JSON.parse(line);
      if (!E) {
        reply = { exports: exportsByFile(request.files) };
        vm.runInThisContext(request.joined, { filename: "assets/scripts/engine.js" });
        E = globalThis.RAG.engine;
      } else {
        reply = { results: answer(E, request) };
      }
    } catch (error) {
      reply = { failed: String(error && error.stack ? error.stack : error) };
    }
    process.stdout.write(JSON.stringify(reply, replace) + "\n");
  }
}

main();
