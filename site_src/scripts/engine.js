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

  // citations.py: does the source exist, is the quote in it, are the claim's numbers quoted?
  function normalize(text) {
    return String(text).toLowerCase().replace(/\s+/g, " ").replace(/^ +| +$/g, "");
  }
  function wholeNumbers(text) {
    const found = String(text).match(/[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?/g) || [];
    return Array.from(new Set(found.map((n) => n.replace(/,/g, ""))));
  }
  function checkClaim(claim, sources) {
    if (!Object.prototype.hasOwnProperty.call(sources, claim.source_id)) {
      return { ok: false, problems: ["unknown source id '" + claim.source_id + "': it was not sent to the model"] };
    }
    const problems = [];
    const quote = normalize(claim.quote);
    if (!quote) problems.push("the quote is empty");
    else if (!normalize(sources[claim.source_id]).includes(quote)) {
      problems.push("quote not found in source '" + claim.source_id + "'");
    }
    const quoted = new Set(wholeNumbers(claim.quote));
    for (const number of wholeNumbers(claim.text)) {
      if (!quoted.has(number)) problems.push("number " + number + " in the claim is not in the quote");
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
    buildPrompt: buildPrompt, normalize: normalize, wholeNumbers: wholeNumbers, checkClaim: checkClaim,
    checkCitations: checkCitations, hostOf: hostOf, checkOutput: checkOutput,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else (root.RAG = root.RAG || {}).engine = api;
})(typeof window !== "undefined" ? window : this);
