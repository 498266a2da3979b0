/* site_src/engine/chunking.js: the twin of engine/chunking.py (words, split_sentences,
   chunk_fixed, chunk_sentences, chunk_headings) and of the str methods it relies on
   (str.isspace, str.strip, str.splitlines: isSpace, strip, splitLines), returning the very
   strings Python returns.

   What differs: white space. Python's str.split(), str.strip(), str.splitlines() and re's \s
   treat a few characters differently from JavaScript's \s (U+001C-U+001F and U+0085 are white
   space in Python, U+FEFF is not), so this file spells out Python's set (SPACE) and line breaks
   and never uses \s. A wrong setting throws a RangeError with Python's ValueError's message. */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const E = (RAG.engine = RAG.engine || {});

  // Python's white space, as the inside of a character class: [SPACE] matches what str.isspace() does.
  const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const ALL_SPACE = new RegExp("^[" + SPACE + "]+$");
  const RUN = new RegExp("[" + SPACE + "]+");
  const EDGES = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "g");
  const LINE_BREAK = /\r\n|[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/;
  const SENTENCE_END = new RegExp("(?<=[.!?])[" + SPACE + "]+");
  const HEADING = new RegExp("^#{1,6}[" + SPACE + "]+(.*)$");

  /** Python's text.isspace(): not empty, and white space only. */
  function isSpace(text) {
    return ALL_SPACE.test(String(text));
  }
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

  /** Example: splitSentences("One. Two!  Three?") -> ["One.", "Two!", "Three?"] */
  function splitSentences(text) {
    return words(text).join(" ").split(SENTENCE_END).filter((sentence) => sentence !== "");
  }

  /** Windows of `size` words starting every `size - overlap` words, until the text ends. */
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

  /** Whole sentences packed into chunks of at most `maxWords` words, the last `overlap` repeated. */
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

  /** One chunk per Markdown section: the heading's text on the first line, then the section's text. */
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

  Object.assign(E, { SPACE, isSpace, words, strip, splitLines, splitSentences, chunkFixed, chunkSentences, chunkHeadings });
})();
