const crypto = require("crypto");

/** A short content hash: the same text always gives the same fingerprint. */
function fingerprint(text) {
  return crypto.createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12);
}

// What the index holds for one document: chunk id -> fingerprint of the embedded text.
const indexed = {
  "refunds#1": fingerprint("Paid plans can be refunded within 30 days of the payment."),
  "refunds#2": fingerprint("To ask for a refund, write to billing support."),
  "refunds#3": fingerprint("Refunds reach your card within 10 days."),
};

// The same document as it reads today, chunked the same way.
const today = {
  "refunds#1": "Paid plans are refundable within 14 days of the payment.",
  "refunds#2": "To ask for a refund, write to billing support.",
  "refunds#4": "After 14 days, cancelling stops future charges.",
};

/** What re-indexing must do, chunk by chunk: only changed text is embedded again. */
function plan(indexed, today) {
  const steps = [];
  for (const [chunkId, text] of Object.entries(today)) {
    const digest = fingerprint(text);
    if (!(chunkId in indexed)) steps.push(["embed", chunkId, digest]);
    else if (indexed[chunkId] !== digest) steps.push(["re-embed", chunkId, digest]);
    else steps.push(["keep", chunkId, digest]);
  }
  // A chunk the document no longer has must go, or search keeps finding it.
  for (const chunkId of Object.keys(indexed)) {
    if (!(chunkId in today)) steps.push(["delete", chunkId, indexed[chunkId]]);
  }
  return steps;
}

const steps = plan(indexed, today);
for (const [action, chunkId, digest] of steps) {
  console.log(`${action.padEnd(9)} ${chunkId.padEnd(10)} ${digest}`);
}
const embedded = steps.filter(([action]) => action === "embed" || action === "re-embed").length;
console.log(`${embedded} of ${Object.keys(today).length} chunks embedded; all steps in one transaction`);
