// For each golden question, the rank at which a retriever returned the passage that
// answers it (null: it never returned that passage).
const RANKS = {
  keywords: [1, 4, null, 2, 1, 7],
  vectors: [2, 1, 1, 1, 3, null],
};

/** [hits, questions]: how many right passages are in the top k. */
function recallAtK(ranks, k) {
  const hits = ranks.filter((rank) => rank !== null && rank <= k).length;
  return [hits, ranks.length];
}

for (const [name, ranks] of Object.entries(RANKS)) {
  const cells = [];
  for (const k of [1, 3, 5]) {
    const [hits, total] = recallAtK(ranks, k);
    cells.push(`@${k}: ${hits}/${total} = ${(100 * hits / total).toFixed(1).padStart(5)}%`);
  }
  console.log(`${name.padEnd(9)} ` + cells.join("   "));
}

const total = RANKS.keywords.length;
console.log(`with ${total} questions, one question moves recall by ${(100 / total).toFixed(1)} points`);
