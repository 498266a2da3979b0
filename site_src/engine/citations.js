/* site_src/engine/citations.js: the twin of engine/citations.py (decode_entities, normalize,
   numbers_in, quote_pieces, too_short, find_whole, quote_in, quote_problems, check_claim, check_citations,
   answer_sentences):
   was the source sent, is the quote in it (as a whole or as its pieces in order), is it long
   enough, are the claim's numbers, in digits or in words, in the quote? Uses tokenize.js.

   What differs: a claim is a plain object {text, source_id, quote} and a result {ok, problems}
   for Python's Claim and CitationResult, a sentence {text, claims} for AnswerSentence; the sources are an object whose own properties only
   count (so "__proto__" or "constructor" is an unknown id, as in Python's dict). White space is
   JavaScript's \s, which engine/citations.py spells out. No Unicode normalization form is
   applied on either side: Python and the browser may follow different Unicode versions. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  const ENTITIES = {
    amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0",
    lsquo: "\u2018", rsquo: "\u2019", sbquo: "\u201a", ldquo: "\u201c", rdquo: "\u201d",
    bdquo: "\u201e", laquo: "\u00ab", raquo: "\u00bb", hellip: "\u2026",
    ndash: "\u2013", mdash: "\u2014", hyphen: "\u2010", minus: "\u2212",
    ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009", shy: "\u00ad",
  };
  const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]*));/g;
  const FOLDED = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'", "\uff07": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\uff02": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\ufe58": "-", "\ufe63": "-", "\uff0d": "-",
    "\u2026": "...",
    "\u00ad": "", "\u200b": "", "\u2060": "",
  };
  const FOLD = new RegExp("[" + Object.keys(FOLDED).join("") + "]", "g");
  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);

  function decodeEntities(text) {
    return String(text).replace(ENTITY, (whole, decimal, hexadecimal, name) => {
      if (name !== undefined) return own(ENTITIES, name) ? ENTITIES[name] : whole;
      const code = decimal !== undefined ? parseInt(decimal, 10) : parseInt(hexadecimal, 16);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    });
  }
  function normalize(text) {
    const folded = decodeEntities(text).replace(FOLD, (ch) => FOLDED[ch]);
    return folded.toLowerCase().replace(/\s+/g, " ").replace(/^ +| +$/g, "");
  }

  const UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen " +
                 "fifteen sixteen seventeen eighteen nineteen").split(" ");
  const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
  const POWERS = { hundred: 2, thousand: 3, million: 6, billion: 9 };
  const PRONOUN_BEFORE = ["the", "this", "that", "which", "each", "every", "any", "no", "other", "another"];
  const START = "(?<![a-z0-9])", END = "(?![a-z0-9])";
  // "twenty-nine", "twenty nine" and "twentynine" are all 29 (a claim's number missed is a claim passed).
  const NUMBER_WORDS = "(?:(?:" + TENS.join("|") + ")(?:[- ]?(?:" + UNITS.slice(1, 10).join("|") + "))?|" + UNITS.join("|") + ")";
  const WORD_PARTS = /[- ]|(?<=ty)(?=[a-z])/;  // every tens word ends in "ty"
  const SCALE = "(?:[- ](" + Object.keys(POWERS).join("|") + ")" + END + ")?";
  const NUMBER = new RegExp(
    START + "(?:" + PRONOUN_BEFORE.join("|") + ")[- ]one" + END +
    "|" + START + "one(?= (?:of|another)" + END + ")" +
    "|([0-9]+(?:,[0-9]{3})*(?:\\.[0-9]+)?)" + SCALE +
    "|" + START + "(" + NUMBER_WORDS + ")" + END + SCALE +
    "|" + START + "(?:a[- ])?(dozen|" + Object.keys(POWERS).join("|") + ")" + END, "g");

  function shifted(digits, zeros) {
    const point = digits.indexOf(".");
    const whole = point < 0 ? digits : digits.slice(0, point);
    const fraction = (point < 0 ? "" : digits.slice(point + 1)) + "0".repeat(zeros);
    const left = (whole + fraction.slice(0, zeros)).replace(/^0+/, "") || "0";
    const right = fraction.slice(zeros).replace(/0+$/, "");
    return right ? left + "." + right : left;
  }
  function wordValue(words) {
    const parts = words.split(WORD_PARTS);
    const tens = TENS.includes(parts[0]) ? 10 * (TENS.indexOf(parts[0]) + 2) : 0;
    const last = parts[parts.length - 1];
    return UNITS.includes(last) ? tens + UNITS.indexOf(last) : tens;
  }
  function numberValue(match) {
    const [, digits, digitsScale, words, wordsScale, alone] = match;
    const zeros = (scale) => (scale === undefined ? 0 : POWERS[scale]);
    if (digits !== undefined) return shifted(digits.replace(/,/g, ""), zeros(digitsScale));
    if (words !== undefined) return shifted(String(wordValue(words)), zeros(wordsScale));
    if (alone !== undefined) return alone === "dozen" ? "12" : shifted("1", POWERS[alone]);
    return null;
  }
  function readNumbers(text) {
    const found = [];
    let rest = "", last = 0;
    for (const match of text.matchAll(NUMBER)) {
      const value = numberValue(match);
      if (value === null) continue;
      found.push([value, match[0]]);
      rest += text.slice(last, match.index) + " ";
      last = match.index + match[0].length;
    }
    return [found, rest + text.slice(last)];
  }
  function numbersIn(text) {
    const first = new Map();
    for (const [value, written] of readNumbers(normalize(text))[0]) if (!first.has(value)) first.set(value, written);
    return Array.from(first.entries());
  }

  const ELISION = / ?(?:\[\.{3,}\]|\(\.{3,}\)|\.{3,}) ?/;
  const pieces = (quote) => quote.split(ELISION).filter((piece) => piece);
  function quotePieces(quote) {
    return pieces(normalize(quote));
  }
  function tooShort(piece) {
    const [numbers, rest] = readNumbers(piece);
    const words = E.tokenize(rest).length;
    if (!words && !numbers.length) return "has no words";
    if (!words) return "is only a number";
    return words + numbers.length < 2 ? "is one word" : "";
  }
  // A letter or digit, as tokenize.js reads terms.
  const TERM_CHAR = /^[\p{L}\p{N}]$/u;
  const isSurrogate = (unit, low) => unit >= (low ? 0xdc00 : 0xd800) && unit <= (low ? 0xdfff : 0xdbff);
  /** The character (code point) that ends just before UTF-16 position `at`. */
  function charBefore(text, at) {
    const pair = at >= 2 && isSurrogate(text.charCodeAt(at - 1), true) && isSurrogate(text.charCodeAt(at - 2), false);
    return String.fromCodePoint(text.codePointAt(pair ? at - 2 : at - 1));
  }
  const digit = (char) => char >= "0" && char <= "9";  // as the number reader reads digits: 0-9 only
  /** Is position `at` inside a word or a number: between two letters or digits, or beside the
   *  separator of a number written with one ("20,000", "1.5")? */
  function insideATerm(text, at) {
    if (!(at > 0 && at < text.length)) return false;
    if (TERM_CHAR.test(charBefore(text, at)) && TERM_CHAR.test(String.fromCodePoint(text.codePointAt(at)))) return true;
    return (".,".includes(text[at]) && digit(text[at - 1]) && at + 1 < text.length && digit(text[at + 1]))
      || (".,".includes(text[at - 1]) && digit(text[at]) && at >= 2 && digit(text[at - 2]));
  }
  /** engine/citations.py find_whole: where `piece` first stands in `text` from `start`, beginning
   *  and ending on the edges of the text's terms, or -1. Positions are JavaScript's (UTF-16 code
   *  units), where Python's count code points: the same place in any text. */
  function findWhole(text, piece, start = 0) {
    if (!piece) return -1;
    let found = text.indexOf(piece, start);
    while (found >= 0) {
      if (!insideATerm(text, found) && !insideATerm(text, found + piece.length)) return found;
      found = text.indexOf(piece, found + 1);
    }
    return -1;
  }
  const PART_OF_A_WORD = "there only as part of a longer word or number (a quote starts and ends on whole words)";
  function missingPiece(found, text) {
    let at = 0;
    for (let number = 0; number < found.length; number++) {
      const piece = found[number];
      const where = findWhole(text, piece, at);
      if (where < 0) {
        if (number && findWhole(text, piece) >= 0) return `the piece "${piece}" does not come after "${found[number - 1]}"`;
        if (text.includes(piece)) return `the piece "${piece}" is ${PART_OF_A_WORD}`;
        return `the piece "${piece}" is not in it`;
      }
      at = where + piece.length;
    }
    return "";
  }
  function asQuoted(quote, text) {
    if (findWhole(text, quote) >= 0) return [pieces(quote).length ? [quote] : [], false];
    const cut = pieces(quote);
    return [cut, cut.length > 1 || cut[0] !== quote];
  }
  function quoteIn(quote, text) {
    const normalized = normalize(text);
    const [cut] = asQuoted(normalize(quote), normalized);
    return cut.length > 0 && !missingPiece(cut, normalized);
  }
  function quoteProblems(quote, text, sourceId) {
    const normalized = normalize(text);
    const [cut, elided] = asQuoted(normalize(quote), normalized);
    if (!cut.length) return ["the quote is empty"];
    const problems = [];
    for (const piece of cut) {
      const reason = tooShort(piece);
      if (reason) {
        problems.push(elided ? `the piece "${piece}" of the shortened quote ${reason}: too short to support a claim`
          : `the quote ${reason}: too short to support a claim`);
      }
    }
    const missing = missingPiece(cut, normalized);
    if (missing) {
      const detail = elided ? `: ${missing}` : normalized.includes(cut[0]) ? `: it is ${PART_OF_A_WORD}` : "";
      problems.push(`quote not found in source '${sourceId}'${detail}`);
    }
    return problems;
  }
  function checkClaim(claim, sources) {
    if (!own(sources, claim.source_id)) {
      return { ok: false, problems: ["unknown source id '" + claim.source_id + "': it was not sent to the model"] };
    }
    const problems = quoteProblems(claim.quote, sources[claim.source_id], claim.source_id);
    const quoted = new Set(numbersIn(claim.quote).map(([value]) => value));
    for (const [value, written] of numbersIn(claim.text)) {
      if (quoted.has(value)) continue;
      const shown = written.replace(/,/g, "") === value ? value : `${value} ("${written}")`;
      problems.push("number " + shown + " in the claim is not in the quote");
    }
    return { ok: problems.length === 0, problems: problems };
  }
  function checkCitations(claims, sources) {
    return claims.map((claim) => checkClaim(claim, sources));
  }

  /** engine/citations.py answer_sentences: the answer's sentences, each with the claims (counted
   *  from 0) whose span of the answer, `located[i]`, it holds, normalized and on whole words. */
  function answerSentences(answer, located) {
    const spans = located.map(normalize);
    return E.splitSentences(answer).map((text) => {
      const normal = normalize(text);
      const claims = [];
      spans.forEach((span, i) => { if (findWhole(normal, span) >= 0) claims.push(i); });
      return { text, claims };
    });
  }

  Object.assign(E, {
    answerSentences,
    decodeEntities, normalize, numbersIn, quotePieces, tooShort, findWhole, quoteIn, quoteProblems, checkClaim,
    checkCitations,
  });
})();
