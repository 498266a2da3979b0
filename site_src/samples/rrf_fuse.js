// Reciprocal rank fusion of the real result lists for "Getting QB-4021 when uploading".
const K = 60;

function rrf(rankedLists, k = K) {
  // Fused [id, score, parts] best first; equal scores keep first-seen order.
  const scores = new Map();
  const parts = new Map();
  for (const ranked of rankedLists) {
    ranked.forEach((pid, i) => {
      const rank = i + 1;
      scores.set(pid, (scores.get(pid) || 0) + 1 / (k + rank));
      if (!parts.has(pid)) parts.set(pid, []);
      parts.get(pid).push(`1/(${k}+${rank})`);
    });
  }
  const fused = [...scores].sort((x, y) => y[1] - x[1]); // a stable sort
  return fused.map(([pid, score]) => [pid, score, parts.get(pid).join(" + ")]);
}

function show(title, lists, lines) {
  console.log(title);
  rrf(lists).slice(0, lines).forEach(([pid, score, parts], i) => {
    console.log(`  ${i + 1}. ${pid.padEnd(14)} ${score.toFixed(6)} = ${parts}`);
  });
}

// Each retriever's top 8, best first.
const dense = ["err-4290", "err-4011", "err-4031", "rb-4031",
               "err-4090", "api-limits", "err-4021", "sync-stuck"];
const bm25 = ["err-4021", "bill-payment", "err-4090", "mobile-notify",
              "export-workspace", "mobile-upload", "sync-offline", "err-4011"];

show("top 4 of each, dense list first:", [dense.slice(0, 4), bm25.slice(0, 4)], 8);
show("top 4 of each, BM25 list first:", [bm25.slice(0, 4), dense.slice(0, 4)], 2);
show("top 8 of each, dense list first:", [dense, bm25], 4);
