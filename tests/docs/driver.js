/* The JavaScript half of tests/docs/node.py: one Node process that runs the engine's twins and the
 * documents' scripts (site_src/docs/) as the page joins them, then runs programs on them.
 *
 *   node tests/docs/driver.js
 *   first line in:  {scripts: [{name, code}]}     each run in this process, in order -> {ready: true}
 *   then per line:  {program, input}              `program` is the source of an async function
 *                                                 (RAG, input) => result; -> {result} or {error}
 * No window, no document: what runs here is what may run in a worker.
 */
"use strict";
const vm = require("node:vm");
const readline = require("node:readline");

const lines = readline.createInterface({ input: process.stdin });
const send = (value) => process.stdout.write(JSON.stringify(value) + "\n");
let ready = false;

lines.on("line", async (line) => {
  const request = JSON.parse(line);
  if (!ready) {
    for (const { name, code } of request.scripts) vm.runInThisContext(code, { filename: name });
    ready = true;
    return send({ ready: true });
  }
  try {
    const program = vm.runInThisContext(`(${request.program})`, { filename: "program.js" });
    send({ result: await program(globalThis.RAG, request.input) });
  } catch (error) {
    send({ error: `${error && error.name}: ${error && error.message}\n${error && error.stack}` });
  }
});
