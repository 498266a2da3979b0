// Check a model's citations with code. Each claim names a source id and quotes it; three
// checks run: was that source sent to the model, is the quote really in it (ignoring case
// and spacing), and is every number of the claim also in the quote.
//
// Example: check({text: "21 days", source_id: "refund-new", quote: "14 days"}, SOURCES)
//          -> ["number 21 in the claim is not in the quote"]

// The passages that were sent to the model, by id.
const SOURCES = {
  "refund-old": "Not happy with Quillbox? You can ask for a full refund within 30 days of your " +
                "payment and we will return the whole amount, no questions asked. To request a " +
                "refund, write to billing support from Settings, Billing.",
  "refund-new": "Paid plans are refundable within 14 days of the payment. After those 14 days, " +
                "cancelling stops all future charges, but the current billing period is not " +
                "refunded and the workspace keeps its paid features until the period ends.",
};

// Five illustrative claims a model might return for "Can I get a refund after three weeks?"
const CLAIMS = [
  { text: "Paid plans are refundable within 14 days of the payment.",
    source_id: "refund-new", quote: "refundable within 14 days of the payment" },
  { text: "Annual plans can be refunded at any time.",
    source_id: "refund-annual", quote: "refunded at any time" },
  { text: "After 14 days there are no refunds at all.",
    source_id: "refund-new", quote: "no refunds after 14 days" },
  { text: "You can get your money back within 21 days of paying.",
    source_id: "refund-new", quote: "refundable within 14 days of the payment" },
  { text: "Cancelling after 14 days refunds the current billing period.",
    source_id: "refund-new", quote: "After those 14 days, cancelling stops all future charges" },
];

const NUMBER = /[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?/g;

// Lower-case, with every run of white space as one space.
function normalize(text) {
  return text.toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

// Each number once, in order, without thousands separators: '20,000 or 14' -> ['20000', '14'].
function numbers(text) {
  const found = [];
  for (const match of text.match(NUMBER) || []) {
    const number = match.replaceAll(",", "");
    if (!found.includes(number)) found.push(number);
  }
  return found;
}

// The problems with one claim's citation; an empty list means every check passed.
function check(claim, sources) {
  const sourceId = claim.source_id;
  if (!Object.hasOwn(sources, sourceId)) {
    return [`unknown source id '${sourceId}': it was not sent to the model`];
  }
  const problems = [];
  const quote = normalize(claim.quote);
  if (!quote) {
    problems.push("the quote is empty");
  } else if (!normalize(sources[sourceId]).includes(quote)) {
    problems.push(`quote not found in source '${sourceId}'`);
  }
  const quoted = numbers(claim.quote);
  for (const number of numbers(claim.text)) {
    if (!quoted.includes(number)) problems.push(`number ${number} in the claim is not in the quote`);
  }
  return problems;
}

console.log("Sources sent:", Object.keys(SOURCES).join(", "));
const passed = [];
CLAIMS.forEach((claim, i) => {
  const n = i + 1;
  const problems = check(claim, SOURCES);
  console.log();
  console.log(`${n}. "${claim.text}"`);
  console.log(`   cites ${claim.source_id}: "${claim.quote}"`);
  for (const problem of problems) console.log(`   FAIL  ${problem}`);
  if (problems.length === 0) {
    console.log("   ok    every check passed");
    passed.push(String(n));
  }
});
console.log();
console.log(`Passed every check: ${passed.length} of ${CLAIMS.length} (claims ${passed.join(", ")})`);
