/* The browser's twins of engine/tokenize.py, bm25.py, fusion.py, access.py, prompt.py,
   citations.py and guardrail.py. Same rules, same order of arithmetic; tests/site/test_js_engine.py runs both
   languages on the same inputs and requires the same results. */
(function (root) {
  "use strict";

  // tokenize.py: lower-case, keep runs of letters and digits (any script).
  function tokenize(text) {
    return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) || [];
  }

  function uniqueTerms(query) {
    return Array.from(new Set(tokenize(query)));
  }

  // bm25.py: Lucene's BM25 over an inverted index.
  // k1 and b come from the build's data (data.settings.bm25), their one home being engine/settings.py.
  function BM25(texts, k1, b) {
    if (typeof k1 !== "number" || typeof b !== "number") throw new TypeError("BM25(texts, k1, b): give k1 and b from data.settings.bm25");
    this.k1 = k1;
    this.b = b;
    this.lengths = [];
    this.postings = new Map();
    texts.forEach((text, index) => {
      const terms = tokenize(text);
      this.lengths.push(terms.length);
      const counts = new Map();
      for (const term of terms) counts.set(term, (counts.get(term) || 0) + 1);
      for (const [term, count] of counts) {
        if (!this.postings.has(term)) this.postings.set(term, []);
        this.postings.get(term).push([index, count]);
      }
    });
    this.nDocs = texts.length;
    this.avgLen = this.nDocs ? this.lengths.reduce((a, n) => a + n, 0) / this.nDocs : 0;
  }
  BM25.prototype.docFreq = function (term) {
    return (this.postings.get(term) || []).length;
  };
  BM25.prototype.idf = function (term) {
    const n = this.docFreq(term);
    return Math.log(1 + (this.nDocs - n + 0.5) / (n + 0.5));
  };
  BM25.prototype.tfPart = function (tf, length) {
    const norm = this.k1 * (1 - this.b + this.b * length / this.avgLen);
    return tf * (this.k1 + 1) / (tf + norm);
  };
  BM25.prototype.scores = function (query) {
    const totals = new Array(this.nDocs).fill(0);
    for (const term of uniqueTerms(query)) {
      const idf = this.idf(term);
      for (const [index, tf] of this.postings.get(term) || []) {
        totals[index] += idf * this.tfPart(tf, this.lengths[index]);
      }
    }
    return totals;
  };
  BM25.prototype.explain = function (query, index) {
    return uniqueTerms(query).map((term) => {
      const hit = (this.postings.get(term) || []).find((p) => p[0] === index);
      const tf = hit ? hit[1] : 0;
      const idf = this.idf(term);
      const tfPart = tf ? this.tfPart(tf, this.lengths[index]) : 0;
      return { term: term, idf: idf, tf: tf, tfPart: tfPart, score: idf * tfPart };
    });
  };

  // fusion.py: reciprocal rank fusion; ties keep first-seen order.
  function rrf(rankedLists, k) {
    if (typeof k !== "number") throw new TypeError("rrf(lists, k): give k from data.settings.rrf_k");
    const terms = new Map();
    for (const ranked of rankedLists) {
      ranked.forEach((id, i) => {
        if (!terms.has(id)) terms.set(id, []);
        terms.get(id).push(1 / (k + i + 1));
      });
    }
    const fused = Array.from(terms, ([id, parts]) => [id, parts.slice().sort((a, b) => a - b).reduce((a, x) => a + x, 0)]);
    return fused.map((pair, i) => [pair, i]).sort((x, y) => (y[0][1] - x[0][1]) || (x[1] - y[1])).map((x) => x[0]);
  }

  // prompt.py: rules, tagged sources best first, the question last.
  function escapeText(text) {
    return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function sourceBlock(s) {
    return '<source id="' + escapeText(s.id) + '" title="' + escapeText(s.title) + '" date="' +
      escapeText(s.date) + '">\n' + escapeText(s.text) + "\n</source>";
  }
  function buildPrompt(question, sources, rules) {
    const ruleText = rules.map((rule, i) => (i + 1) + ". " + rule).join("\n");
    const blocks = sources.map(sourceBlock).join("\n\n");
    return "Rules:\n" + ruleText + "\n\nSources:\n\n" + blocks + "\n\nQuestion: " + escapeText(question) + "\n";
  }

  // citations.py: was the source sent, is the quote in it (as a whole or as its pieces in order),
  // is it long enough, are the claim's numbers (in digits or in words) in the quote?
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
  const NUMBER_WORDS = "(?:(?:" + TENS.join("|") + ")(?:[- ](?:" + UNITS.slice(1, 10).join("|") + "))?|" + UNITS.join("|") + ")";
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
    const parts = words.split(/[- ]/);
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
    const words = tokenize(rest).length;
    if (!words && !numbers.length) return "has no words";
    if (!words) return "is only a number";
    return words + numbers.length < 2 ? "is one word" : "";
  }
  function missingPiece(found, text) {
    let at = 0;
    for (let number = 0; number < found.length; number++) {
      const piece = found[number];
      const where = text.indexOf(piece, at);
      if (where < 0) {
        return number && text.includes(piece) ? `the piece "${piece}" does not come after "${found[number - 1]}"`
          : `the piece "${piece}" is not in it`;
      }
      at = where + piece.length;
    }
    return "";
  }
  function asQuoted(quote, text) {
    if (text.includes(quote)) return [pieces(quote).length ? [quote] : [], false];
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
    if (missing) problems.push(`quote not found in source '${sourceId}'` + (elided ? `: ${missing}` : ""));
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

  // guardrail.py: links that are not the help center's, e-mail addresses, requests for secrets.
  // `patterns` are engine/guardrail.py's PATTERNS, shipped in the page's data.
  const FINDING_LABELS = { link: "link to an outside site", email: "e-mail address", credentials: "asks for credentials" };
  function hostOf(url) {
    const rest = url.includes("://") ? url.split("://").slice(1).join("://") : url;
    const authority = rest.split(/[/?#]/)[0];
    return authority.split("@").pop().split(":")[0].toLowerCase();
  }
  function checkOutput(answer, patterns, allowedHosts) {
    const findings = [];
    for (const match of String(answer).matchAll(new RegExp(patterns.link, "gi"))) {
      const url = match[0].replace(/[.,;:!?]+$/, "");
      if (!allowedHosts.includes(hostOf(url))) findings.push({ kind: "link", match: url });
    }
    for (const match of String(answer).matchAll(new RegExp(patterns.email, "gi"))) {
      findings.push({ kind: "email", match: match[0] });
    }
    const negation = new RegExp(patterns.negation, "i");
    for (const match of String(answer).matchAll(new RegExp(patterns.credentials, "gi"))) {
      const before = String(answer).slice(Math.max(0, match.index - 30), match.index);
      if (!negation.test(before)) findings.push({ kind: "credentials", match: match[0] });
    }
    return findings.map((f) => ({ kind: f.kind, match: f.match, text: FINDING_LABELS[f.kind] + ": " + f.match }));
  }

  // access.py: who may read a passage, applied inside the search or after its top k.
  function canRead(passageGroups, readerGroups) {
    return passageGroups.some((group) => readerGroups.includes(group));
  }
  function preFilter(rankedIds, acl, readerGroups, k) {
    return rankedIds.filter((pid) => canRead(acl[pid], readerGroups)).slice(0, k);
  }
  function postFilter(rankedIds, acl, readerGroups, k) {
    return rankedIds.slice(0, k).filter((pid) => canRead(acl[pid], readerGroups));
  }

  const api = {
    tokenize: tokenize, uniqueTerms: uniqueTerms, BM25: BM25, rrf: rrf, escapeText: escapeText,
    canRead: canRead, preFilter: preFilter, postFilter: postFilter,
    buildPrompt: buildPrompt, decodeEntities: decodeEntities, normalize: normalize, numbersIn: numbersIn,
    quotePieces: quotePieces, quoteIn: quoteIn, checkClaim: checkClaim,
    checkCitations: checkCitations, hostOf: hostOf, checkOutput: checkOutput,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else {
    // Into the namespace other engine scripts (documents.js) may have made already: they load in any order.
    const rag = (root.RAG = root.RAG || {});
    rag.engine = Object.assign(rag.engine || {}, api);
  }
})(typeof window !== "undefined" ? window : this);

/* ---------------------------------------------------------------------------------------------
   chunking.py's twins: the chunkers, returning the very strings Python returns (the chunking lab
   and site_src/labs/chunking/test_chunking.py hold them equal over the lab's whole slider grid).
   Python's str.split(), str.strip() and str.splitlines() treat a few characters differently
   from JavaScript's \s (U+001C-U+001F and U+0085 are white space there, U+FEFF is not), so this
   part spells out Python's sets. Added to the same RAG.engine (or module.exports) as above. */
(function (engine) {
  "use strict";

  // Python's white space, as the inside of a character class: [SPACE] matches what str.isspace() does.
  const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const RUN = new RegExp("[" + SPACE + "]+");
  const EDGES = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");
  const LINE_BREAK = /\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/;
  const SENTENCE_END = new RegExp("(?<=[.!?])[" + SPACE + "]+");
  const HEADING = new RegExp("^#{1,6}[" + SPACE + "]+(.*)$");

  /** Python's text.split(): the words between runs of white space. */
  function words(text) {
    return String(text).split(RUN).filter((word) => word !== "");
  }
  /** Python's text.strip(). */
  function strip(text) {
    return String(text).replace(EDGES, "");
  }
  /** Python's text.splitlines(): no empty line after a final line break. */
  function splitLines(text) {
    const lines = String(text).split(LINE_BREAK);
    if (lines.length && lines[lines.length - 1] === "") lines.pop();
    return lines;
  }

  function splitSentences(text) {
    return words(text).join(" ").split(SENTENCE_END).filter((sentence) => sentence !== "");
  }

  function chunkFixed(text, size, overlap) {
    overlap = overlap || 0;
    if (!(size >= 1) || !(overlap >= 0 && overlap < size)) {
      throw new RangeError("need size >= 1 and 0 <= overlap < size, got size=" + size + ", overlap=" + overlap);
    }
    const all = words(text);
    const chunks = [];
    for (let start = 0; start < all.length; start += size - overlap) {
      chunks.push(all.slice(start, start + size).join(" "));
      if (start + size >= all.length) break;
    }
    return chunks;
  }

  function chunkSentences(sentences, maxWords, overlap) {
    overlap = overlap || 0;
    const chunks = [];
    let start = 0;
    while (start < sentences.length) {
      let end = start;
      let count = 0;
      while (end < sentences.length && (end === start || count + words(sentences[end]).length <= maxWords)) {
        count += words(sentences[end]).length;
        end += 1;
      }
      chunks.push(sentences.slice(start, end).join(" "));
      if (end >= sentences.length) break;
      start = Math.max(end - overlap, start + 1);
    }
    return chunks;
  }

  function chunkHeadings(markdown) {
    const chunks = [[]];
    for (const line of splitLines(markdown)) {
      const heading = HEADING.exec(line);
      if (heading) chunks.push([strip(heading[1])]);
      else if (strip(line)) chunks[chunks.length - 1].push(strip(line));
    }
    return chunks.filter((chunk) => chunk.length)
      .map((chunk) => chunk[0] + (chunk.length > 1 ? "\n" + chunk.slice(1).join(" ") : ""));
  }

  Object.assign(engine, {
    SPACE: SPACE, words: words, strip: strip, splitLines: splitLines, splitSentences: splitSentences,
    chunkFixed: chunkFixed, chunkSentences: chunkSentences, chunkHeadings: chunkHeadings,
  });
})(typeof module !== "undefined" && module.exports ? module.exports
  : (typeof window !== "undefined" ? window : this).RAG.engine);
