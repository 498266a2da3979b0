/* The SQL file of 'Try it on your documents' (site_src/docs/pgvector-sql.js) loaded into PGlite, a
 * Postgres compiled to WebAssembly, with pgvector (@electric-sql/pglite-pgvector), then asked for
 * each question's top 5 with the file's own prepared query (rag_nearest), once as the planner
 * chooses and once with sequential scans off (the HNSW index), for tests/docs/test_pgvector_sql.py.
 *
 *   node tests/docs/pglite_rank.mjs documents.sql  -> prints {version, plan, nearest: {id: [[chunk, cosine]]}, indexed: {...}}
 */
import { readFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";

const sql = readFileSync(process.argv[2], "utf-8");
const db = await PGlite.create({ extensions: { vector } });
await db.exec(sql);
const version = (await db.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'")).rows[0].extversion;
const questions = (await db.query("SELECT id FROM rag_questions ORDER BY id")).rows.map((row) => row.id);

async function nearest() {
  const found = {};
  for (const id of questions) {
    const [{ embedding }] = (await db.query("SELECT embedding::text AS embedding FROM rag_questions WHERE id = $1", [id])).rows;
    const rows = (await db.query(`EXECUTE rag_nearest('${embedding}')`)).rows;  // digits, dots, commas: a literal as it is
    found[id] = rows.map((row) => [row.id, row.cosine]);
  }
  return found;
}

const planned = await nearest();
await db.exec("SET enable_seqscan = off; DISCARD PLANS");  // the prepared query planned again, without a table scan
const [{ embedding: first }] = (await db.query("SELECT embedding::text AS embedding FROM rag_questions LIMIT 1")).rows;
const plan = (await db.query(`EXPLAIN EXECUTE rag_nearest('${first}')`)).rows.map((row) => row["QUERY PLAN"]).join("\n");
const indexed = await nearest();
process.stdout.write(JSON.stringify({ version, plan, nearest: planned, indexed }));
await db.close();
