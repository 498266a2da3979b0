// Who may read what: each passage lists the groups allowed to read it.
const ACL = {
  "runbook-restore": ["staff"],
  "trash-workspace": ["public"],
  "runbook-unlock": ["staff"],
  "trash-business": ["public"],
  "refund-policy": ["public"],
  "export-workspace": ["public"],
};

// The search's ranking of every passage for one question, best first.
const RANKED = ["runbook-restore", "trash-workspace", "runbook-unlock",
  "trash-business", "refund-policy", "export-workspace"];

function canRead(passage, groups) {
  return ACL[passage].some((group) => groups.includes(group));
}

function preFilter(ranked, groups, k) {
  // Filter inside the search: only readable passages compete for the k places.
  return ranked.filter((p) => canRead(p, groups)).slice(0, k);
}

function postFilter(ranked, groups, k) {
  // Filter after the search: take the top k of everything, then drop what is hidden.
  return ranked.slice(0, k).filter((p) => canRead(p, groups));
}

for (const [reader, groups] of [["customer", ["public"]], ["staff", ["public", "staff"]]]) {
  for (const k of [1, 3]) {
    const pre = preFilter(RANKED, groups, k);
    const post = postFilter(RANKED, groups, k);
    console.log(`${reader.padEnd(8)} k=${k}  pre:  ${pre.length} ${pre.join(", ")}`);
    console.log(`${"".padEnd(8)} k=${k}  post: ${post.length} ${post.join(", ") || "(nothing)"}`);
  }
}
