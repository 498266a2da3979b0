/* wordpiece.js: all-MiniLM-L6-v2's tokenizer in the browser, the twin of the tokenizer.json the
 * build embeds with (Hugging Face tokenizers: BertNormalizer, BertPreTokenizer, WordPiece, then
 * [CLS] … [SEP]). It runs in the model's worker (embed-worker.js) and works in a page too: it
 * reads only globalThis. site_src/labs/ask/test_ask.py requires the same ids as Python on hard strings.
 *
 * Three things differ from a naive port and matter:
 *   - lower-case one character at a time (a whole string would get the Greek final sigma);
 *   - a special token typed in the text ("[MASK]", "[CLS]") is that token, as in Python;
 *   - cut at the model's 256 wordpieces (sentence-transformers' max_seq_length), not the 128
 *     of tokenizer.json.
 *
 * Example: new RAG.WordPiece(vocabText).encode("QB-4021") -> [101, 26171, 1011, 28048, 2487, 102] ([CLS] qb - 402 ##1 [SEP])
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});

  const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];
  const MAX_WORD_CHARS = 100;
  const CONTROL = /\p{C}/u;           // Rust's char::is_other: Cc, Cf, Cs, Co, Cn
  const WHITESPACE = /\p{White_Space}/u;
  const NONSPACING_MARK = /\p{Mn}/u;
  const PUNCTUATION = /\p{P}/u;

  function isChinese(code) {
    return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) ||
      (code >= 0x20000 && code <= 0x2a6df) || (code >= 0x2a700 && code <= 0x2b73f) ||
      (code >= 0x2b740 && code <= 0x2b81f) || (code >= 0x2b920 && code <= 0x2ceaf) ||
      (code >= 0xf900 && code <= 0xfaff) || (code >= 0x2f800 && code <= 0x2fa1f);
  }

  const isAsciiPunctuation = (code) => (code >= 33 && code <= 47) || (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) || (code >= 123 && code <= 126);

  /** BertNormalizer: clean the text, space out CJK ideographs, strip accents, lower-case. */
  function normalize(text) {
    let cleaned = "";
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (ch === "\t" || ch === "\n" || ch === "\r") { cleaned += " "; continue; }
      if (code === 0 || code === 0xfffd || CONTROL.test(ch)) continue;
      cleaned += WHITESPACE.test(ch) ? " " : isChinese(code) ? ` ${ch} ` : ch;
    }
    let out = "";
    for (const ch of cleaned.normalize("NFD")) {
      if (!NONSPACING_MARK.test(ch)) out += ch.toLowerCase();  // one character at a time
    }
    return out;
  }

  /** BertPreTokenizer: split on white space, and every punctuation mark on its own. */
  function preTokenize(text) {
    const words = [];
    let word = "";
    for (const ch of text) {
      const code = ch.codePointAt(0);
      if (WHITESPACE.test(ch)) {
        if (word) words.push(word);
        word = "";
      } else if (isAsciiPunctuation(code) || PUNCTUATION.test(ch)) {
        if (word) words.push(word);
        words.push(ch);
        word = "";
      } else {
        word += ch;
      }
    }
    if (word) words.push(word);
    return words;
  }

  class WordPiece {
    /** `vocab`: vocab.txt, one token per line, its line number its id. */
    constructor(vocab, maxLength = 256) {
      this.ids = new Map();
      vocab.split("\n").forEach((token, id) => { if (token && !this.ids.has(token)) this.ids.set(token, id); });
      this.maxLength = maxLength;
      this.special = new RegExp(SPECIAL.map((t) => t.replace(/[[\]]/g, "\\$&")).join("|"), "g");
    }

    /** WordPiece: the longest piece of the vocabulary first, "##" before what continues a word. */
    pieces(word) {
      const chars = [...word];
      if (chars.length > MAX_WORD_CHARS) return [this.ids.get("[UNK]")];
      const found = [];
      let start = 0;
      while (start < chars.length) {
        let end = chars.length;
        let id;
        while (start < end) {
          const piece = (start > 0 ? "##" : "") + chars.slice(start, end).join("");
          id = this.ids.get(piece);
          if (id !== undefined) break;
          end -= 1;
        }
        if (id === undefined) return [this.ids.get("[UNK]")];
        found.push(id);
        start = end;
      }
      return found;
    }

    /** Token ids as the model reads them: [CLS], the text's pieces (cut to fit), [SEP]. */
    encode(text) {
      const ids = [];
      let at = 0;
      const add = (part) => { for (const word of preTokenize(normalize(part))) ids.push(...this.pieces(word)); };
      for (const match of String(text).matchAll(this.special)) {
        add(text.slice(at, match.index));
        ids.push(this.ids.get(match[0]));
        at = match.index + match[0].length;
      }
      add(String(text).slice(at));
      return [this.ids.get("[CLS]"), ...ids.slice(0, this.maxLength - 2), this.ids.get("[SEP]")];
    }
  }

  RAG.WordPiece = WordPiece;
})();
