// Check a model's citations with code. Each claim names a source id and quotes it. Four checks
// run: was that source sent to the model; is the quote long enough to support anything (two words
// or more, not only a number); is it really in the source (ignoring case, spacing, typographic
// quotes and dashes, HTML entities, and words left out with "..."); and is every number of the
// claim, in digits or in words, also in the quote.
//
// Example: check({text: "three weeks", source_id: "refund-new",
//                 quote: "refundable within 14 days"}, SOURCES)
//          -> ['number 3 ("three") in the claim is not in the quote']

// The passages that were sent to the model, by id.
const SOURCES = {
  "refund-old": "Not happy with Quillbox? You can ask for a full refund within 30 days of your " +
                "payment and we will return the whole amount, no questions asked. To request a " +
                "refund, write to billing support from Settings, Billing.",
  "refund-new": "Paid plans are refundable within 14 days of the payment. After those 14 days, " +
                "cancelling stops all future charges, but the current billing period is not " +
                "refunded and the workspace keeps its paid features until the period ends.",
};

// Illustrative claims a model might return for "Can I get a refund after three weeks?"
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
    source_id: "refund-new",
    quote: "After those 14 days, cancelling stops all future charges" },
  // Real model output: an entity and a number in words; a number word that is wrong; a
  // one-word quote; a quote shortened with "…"; and a shortened quote that drops a "not".
  { text: "Paid plans can be refunded for fourteen days after paying.",
    source_id: "refund-new", quote: "refundable within 14&nbsp;days of the payment" },
  { text: "A refund is still possible within three weeks.",
    source_id: "refund-new", quote: "refundable within 14 days of the payment" },
  { text: "Paid plans can be refunded.",
    source_id: "refund-new", quote: "refundable" },
  { text: "After 14 days, cancelling stops future charges but not the current period's.",
    source_id: "refund-new",
    quote: "After those 14 days, cancelling stops all future charges\u2026 " +
           "the current billing period is not refunded" },
  { text: "The current billing period is refunded when you cancel.",
    source_id: "refund-new",
    quote: "the current billing period is \u2026 refunded and the workspace keeps " +
           "its paid features" },
  // A quote cut inside a number: "within 1" stands in the source only as part of "within 14".
  { text: "Paid plans are refundable within 1 day of the payment.",
    source_id: "refund-new", quote: "refundable within 1" },
];

// 1. Normalize both sides: HTML entities decoded once, typographic characters folded to ASCII,
//    lower-case, every run of white space one space.
const ENTITIES = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
                   lsquo: "\u2018", rsquo: "\u2019", sbquo: "\u201a", ldquo: "\u201c",
                   rdquo: "\u201d", bdquo: "\u201e", laquo: "\u00ab", raquo: "\u00bb",
                   hellip: "\u2026", ndash: "\u2013", mdash: "\u2014", hyphen: "\u2010",
                   minus: "\u2212", ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009",
                   shy: "\u00ad" };
const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]*));/g;
const each = (chars, to) => [...chars].map((ch) => [ch, to]);
const FOLDED = Object.fromEntries([...each("\u2018\u2019\u201a\u201b\u2032\u02bc\uff07", "'"),
  ...each("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\uff02", '"'),
  ...each("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
  ["\u2026", "..."], ...each("\u00ad\u200b\u2060", "")]);
const FOLD = new RegExp("[" + Object.keys(FOLDED).join("") + "]", "g");

function entity(whole, decimal, hexadecimal, name) {
  if (name !== undefined) return Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : whole;
  const code = decimal !== undefined ? parseInt(decimal, 10) : parseInt(hexadecimal, 16);
  const ok = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
  return ok ? String.fromCodePoint(code) : whole;
}

function normalize(text) {
  const folded = text.replace(ENTITY, entity).replace(FOLD, (ch) => FOLDED[ch]);
  return folded.toLowerCase().replace(/\s+/g, " ").replace(/^ +| +$/g, "");
}

// 2. Numbers in digits or in words, each read as its value: "twenty-one" -> "21".
const UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen " +
               "fourteen fifteen sixteen seventeen eighteen nineteen").split(" ");
const TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
const POWERS = { hundred: 2, thousand: 3, million: 6, billion: 9 };
const START = "(?<![a-z0-9])", END = "(?![a-z0-9])";
const ONES = UNITS.slice(1, 10).join("|");
const WORDS = `(?:(?:${TENS.join("|")})(?:[- ]?(?:${ONES}))?|${UNITS.join("|")})`;
const SCALE = `(?:[- ](${Object.keys(POWERS).join("|")})${END})?`;
const NUMBER = new RegExp(
  `${START}(?:the|this|that|which|each|every|any|no|other|another)[- ]one${END}` +  // pronoun
  `|${START}one(?= (?:of|another)${END})` +                  // "one of": a pronoun too
  `|([0-9]+(?:,[0-9]{3})*(?:\\.[0-9]+)?)${SCALE}` +         // 14, 20,000, 2.5 million
  `|${START}(${WORDS})${END}${SCALE}` +                       // three, twenty-one, two hundred
  `|${START}(?:a[- ])?(dozen|${Object.keys(POWERS).join("|")})${END}`, "g");  // a dozen, a hundred

// A decimal times 10**zeros, without needless zeros: ('2.50', 3) -> '2500'.
function shifted(digits, zeros) {
  const [whole, fraction = ""] = digits.split(".");
  const padded = fraction + "0".repeat(zeros);
  const left = (whole + padded.slice(0, zeros)).replace(/^0+/, "") || "0";
  const right = padded.slice(zeros).replace(/0+$/, "");
  return right ? left + "." + right : left;
}

function valueOf(match) {
  const [, digits, digitsScale, words, wordsScale, alone] = match;
  if (digits !== undefined) return shifted(digits.replaceAll(",", ""), POWERS[digitsScale] ?? 0);
  if (words !== undefined) {
    const parts = words.split(/[- ]|(?<=ty)(?=[a-z])/);
    const tens = TENS.includes(parts[0]) ? 10 * (TENS.indexOf(parts[0]) + 2) : 0;
    const units = UNITS.includes(parts.at(-1)) ? UNITS.indexOf(parts.at(-1)) : 0;
    return shifted(String(tens + units), POWERS[wordsScale] ?? 0);
  }
  if (alone !== undefined) return alone === "dozen" ? "12" : shifted("1", POWERS[alone]);
  return null;  // "one" as a pronoun
}

// [[value, as written]] of each number in normalized text, and the text without them.
function readNumbers(text) {
  const found = [];
  let rest = "", last = 0;
  for (const match of text.matchAll(NUMBER)) {
    const value = valueOf(match);
    if (value !== null) {
      found.push([value, match[0]]);
      rest += text.slice(last, match.index) + " ";
      last = match.index + match[0].length;
    }
  }
  return [found, rest + text.slice(last)];
}

// Each number once: 'three tries, 20,000 rows' -> [['3', 'three'], ['20000', '20,000']].
function numbers(text) {
  const first = new Map();
  for (const [value, written] of readNumbers(normalize(text))[0]) {
    if (!first.has(value)) first.set(value, written);
  }
  return [...first.entries()];
}

// 3. Quotes: long enough, and in the source whole or as pieces cut at "..." in their order,
//    each starting and ending on whole words ("within 1" is not a quote of "within 14 days").
const ELISION = / ?(?:\[\.{3,}\]|\(\.{3,}\)|\.{3,}) ?/;

function tooShort(piece) {
  const [found, rest] = readNumbers(piece);
  const words = (rest.match(/[\p{L}\p{N}]+/gu) || []).length;
  if (!words) return found.length ? "is only a number" : "has no words";
  return words + found.length < 2 ? "is one word" : "";
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;  // a letter or a digit
const INSIDE = "there only as part of a longer word or number (a quote starts and ends on whole words)";

// Is position at inside a word or a number: between two letters or digits, or beside the
// separator of a number written with one ("20,000", "1.5")?
function cutsAWord(text, at) {
  if (at <= 0 || at >= text.length) return false;
  const before = [...text.slice(Math.max(0, at - 2), at)].pop();  // the last character, even outside the BMP
  if (WORD_CHAR.test(before) && WORD_CHAR.test(String.fromCodePoint(text.codePointAt(at)))) return true;
  const digit = (char) => char !== undefined && char >= "0" && char <= "9";
  return (".,".includes(text[at]) && digit(text[at - 1]) && digit(text[at + 1]))
    || (".,".includes(text[at - 1]) && digit(text[at]) && digit(text[at - 2]));
}

// Where piece stands in text from start on, beginning and ending on whole words; -1 if nowhere.
function findWhole(text, piece, start = 0) {
  let where = text.indexOf(piece, start);
  while (where >= 0 && (cutsAWord(text, where) || cutsAWord(text, where + piece.length))) {
    where = text.indexOf(piece, where + 1);
  }
  return where;
}

function missingPiece(pieces, text) {
  let at = 0;
  for (const [n, piece] of pieces.entries()) {
    const where = findWhole(text, piece, at);
    if (where < 0 && n && findWhole(text, piece) >= 0) {
      return `the piece "${piece}" does not come after "${pieces[n - 1]}"`;
    }
    if (where < 0) return text.includes(piece) ? `the piece "${piece}" is ${INSIDE}` : `the piece "${piece}" is not in it`;
    at = where + piece.length;
  }
  return "";
}

// The problems with one claim's citation; an empty list means every check passed.
function check(claim, sources) {
  const sourceId = claim.source_id;
  if (!Object.hasOwn(sources, sourceId)) {
    return [`unknown source id '${sourceId}': it was not sent to the model`];
  }
  const problems = [];
  const quote = normalize(claim.quote), text = normalize(sources[sourceId]);
  let pieces = quote.split(ELISION).filter((piece) => piece);
  const elided = findWhole(text, quote) < 0 && !(pieces.length === 1 && pieces[0] === quote);
  if (!elided && pieces.length) pieces = [quote];  // found as written, even with "..." in it
  if (!pieces.length) problems.push("the quote is empty");
  for (const piece of pieces) {
    const reason = tooShort(piece);
    if (reason) {
      const what = elided ? `the piece "${piece}" of the shortened quote` : "the quote";
      problems.push(`${what} ${reason}: too short to support a claim`);
    }
  }
  const missing = pieces.length ? missingPiece(pieces, text) : "";
  if (missing) {
    const where = `quote not found in source '${sourceId}'`;
    problems.push(elided ? `${where}: ${missing}` : text.includes(quote) ? `${where}: it is ${INSIDE}` : where);
  }
  const quoted = numbers(claim.quote).map(([value]) => value);
  for (const [value, written] of numbers(claim.text)) {
    if (!quoted.includes(value)) {
      const shown = written.replaceAll(",", "") === value ? value : `${value} ("${written}")`;
      problems.push(`number ${shown} in the claim is not in the quote`);
    }
  }
  return problems;
}

console.log("Sources sent:", Object.keys(SOURCES).join(", "));
const passed = [];
CLAIMS.forEach((claim, i) => {
  const n = i + 1;
  const problems = check(claim, SOURCES);
  console.log();
  console.log(`${String(n).padStart(2)}. "${claim.text}"`);
  console.log(`    cites ${claim.source_id}: "${claim.quote}"`);
  for (const problem of problems) console.log(`    FAIL  ${problem}`);
  if (problems.length === 0) {
    console.log("    ok    every check passed");
    passed.push(String(n));
  }
});
console.log();
const which = passed.join(", ");
console.log(`Passed every check: ${passed.length} of ${CLAIMS.length} (claims ${which})`);
