/* documents.js: the browser's twin of engine/documents.py. Documents -> passages: a Markdown,
 * HTML or plain-text file read as headings and paragraphs, then cut into passages by heading;
 * the chunking lab's cuts of a Markdown page (proseOf, pageText, chunkWith). The rules are
 * engine/documents.py's docstring, followed character for character; tests/twins/test_documents.py
 * holds the two equal. A pure text transform: nothing is fetched, run or inserted as markup.
 *
 * A classic script, the twin of engine/documents.py, joined into the engine script after
 * chunking.js and citations.js (builder/page/assets.py ENGINE): it adds its functions to
 * globalThis.RAG.engine and reads the rest of the engine (words, strip, splitLines, SPACE,
 * decodeEntities, the chunkers) through that namespace when called, never when loaded. */
(() => {
  "use strict";
  const engine = ((globalThis.RAG = globalThis.RAG || {}).engine = globalThis.RAG.engine || {});

  const RAW = new Set(["script", "style", "title", "textarea", "xmp", "iframe", "noembed", "noframes"]);
  const HIDDEN = new Set(["template", "noscript", "svg", "math", "object", "canvas", "select"]);
  const HEADINGS = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
  const BLOCK = new Set([
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "html", "legend", "li", "main",
    "menu", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul",
  ]);
  const KINDS = { ".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html" };
  const CHUNKERS = ["fixed", "sentences", "headings", "page"];
  const own = (object, key) => Object.prototype.hasOwnProperty.call(object, key);
  const isHeading = (name) => own(HEADINGS, name);

  /* ------------------------------------------------------------ the patterns, made once */

  let patterns = null;
  function P() {
    if (patterns) return patterns;
    const S = engine.SPACE;  // Python's white space, as the inside of a character class
    const attribute = "(?:[ \\t\\n]+[A-Za-z_:][A-Za-z0-9_.:-]*" +
      "(?:[ \\t\\n]*=[ \\t\\n]*(?:[^ \\t\\n\"'=<>\\x60]+|'[^']*'|\"[^\"]*\"))?)";
    patterns = {
      endTag: /<\/([A-Za-z][A-Za-z0-9-]*)[^>]*>?/y,
      startTag: /<([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y,
      nameStart: /<\/?[A-Za-z]/y,
      rawEnd: /<\/([A-Za-z][A-Za-z0-9-]*)/g,
      mdStartTag: new RegExp("<([A-Za-z][A-Za-z0-9-]*)(" + attribute + "*[ \\t\\n]*/?)>", "y"),
      mdEndTag: /<\/([A-Za-z][A-Za-z0-9-]*)[ \t\n]*>/y,
      autolink: /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\x00-\x20]*|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+)>/y,
      mdDeclaration: /<![A-Za-z][^<>]*>/y,
      fence: new RegExp("^ {0,3}(\\x60{3,}|~{3,})"),
      quoteMarks: /^(?: {0,3}>[ \t]?)+/,
      atx: /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)/,
      atxClose: /(?:^|[ \t])#+$/,
      setext: new RegExp("^ {0,3}(=+|-+)[" + S + "]*$"),
      thematicBreak: /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/,
      reference: /^ {0,3}\[[^\]]+\]:/,
      delimiterRow: /^[|:\- \t]*$/,
      item: /^[ \t]*(?:[-*+]|[0-9]{1,9}[.)])[ \t]+/,
      title: /^title:(.*)$/,
      space: new RegExp("[" + S + "]"),
      nonSpace: new RegExp("[^" + S + "]"),
      inline: [
        [new RegExp("\\\\([!-/:-@\\[-\\x60{-~])", "g"), "$1"],
        [new RegExp("(?<!\\x60)(\\x60+)([^\\x60]+)\\1(?!\\x60)", "g"), "$2"],
        [/!\[([^[\]]*)\]\([^()]*\)/g, "$1"],
        [/\[([^[\]]*)\]\([^()]*\)/g, "$1"],
        [/\[([^[\]]+)\]\[[^[\]]*\]/g, "$1"],
        [new RegExp("\\*\\*(?![" + S + "])([^*]+?)(?<![" + S + "])\\*\\*", "g"), "$1"],
        [new RegExp("(?<![A-Za-z0-9])__(?![" + S + "])([^_]+?)(?<![" + S + "])__(?![A-Za-z0-9])", "g"), "$1"],
        [new RegExp("\\*(?![" + S + "])([^*]+?)(?<![" + S + "])\\*", "g"), "$1"],
        [new RegExp("(?<![A-Za-z0-9])_(?![" + S + "])([^_]+?)(?<![" + S + "])_(?![A-Za-z0-9])", "g"), "$1"],
      ],
    };
    return patterns;
  }

  /** A sticky pattern's match at `at`, or null (Python's pattern.match(text, at)). */
  function matchAt(pattern, text, at) {
    pattern.lastIndex = at;
    return pattern.exec(text);
  }

  /** Python's text.strip(), in linear time (engine.strip's [..]+$ is quadratic on a long inner run). */
  function strip(text) {
    const space = P().space;
    let start = 0;
    let end = text.length;
    while (start < end && space.test(text[start])) start += 1;
    while (end > start && space.test(text[end - 1])) end -= 1;
    return text.slice(start, end);
  }
  const blank = (text) => !P().nonSpace.test(text);  // Python's not text.strip()
  const collapse = (text) => engine.words(text).join(" ");
  const withoutBom = (text) => (text.startsWith("\ufeff") ? text.slice(1) : text);

  function documentKind(source) {
    const dot = source.lastIndexOf(".");
    const ending = dot >= 0 ? source.slice(dot).toLowerCase() : "";
    return own(KINDS, ending) ? KINDS[ending] : "text";
  }

  /* ------------------------------------------------------------ HTML tokens */

  /** Python's text.rstrip(chars), in linear time (a regular expression [..]+$ is quadratic on a long run). */
  function trimEnd(text, chars) {
    let end = text.length;
    while (end > 0 && chars.includes(text[end - 1])) end -= 1;
    return text.slice(0, end);
  }
  const closesItself = (attributes) => trimEnd(attributes, "\t\n\f\r ").endsWith("/");

  function afterRaw(text, start, name) {
    const rawEnd = P().rawEnd;
    rawEnd.lastIndex = start;
    for (let match = rawEnd.exec(text); match; match = rawEnd.exec(text)) {
      if (match[1].toLowerCase() === name) {
        const close = text.indexOf(">", match.index + match[0].length);
        return close < 0 ? text.length : close + 1;
      }
    }
    return text.length;
  }

  const SKIPPED = [["<!--", "-->"], ["<![CDATA[", "]]>"], ["<?", ">"], ["<!", ">"]];
  const MD_SKIPPED = [["<!--", "-->"], ["<![CDATA[", "]]>"], ["<?", "?>"]];

  /** documents.py html_tokens: [kind, value] pairs, RAW and HIDDEN elements left out. */
  function htmlTokens(text, markdown) {
    const p = P();
    const tokens = [];
    let hidden = "";
    let depth = 0;
    const unclosed = new Set();  // closings known to be absent from here on
    const emit = (kind, value) => { if (!hidden) tokens.push([kind, value]); };
    let at = 0;
    const size = text.length;
    while (at < size) {
      let lt = text.indexOf("<", at);
      if (lt < 0) lt = size;
      if (lt > at) emit("text", text.slice(at, lt));
      at = lt;
      if (at >= size) break;
      const skipped = (markdown ? MD_SKIPPED : SKIPPED).find(([opening]) => text.startsWith(opening, at));
      if (skipped) {
        // Once a closing is not found, it is not found further on either: not looked for again.
        const close = unclosed.has(skipped[1]) ? -1 : text.indexOf(skipped[1], at + skipped[0].length);
        if (close < 0) unclosed.add(skipped[1]);
        if (close >= 0) at = close + skipped[1].length;
        else if (markdown) { emit("text", "<"); at += 1; }
        else at = size;
        continue;
      }
      if (markdown) {
        const declaration = matchAt(p.mdDeclaration, text, at);
        if (declaration) { at += declaration[0].length; continue; }
        const link = matchAt(p.autolink, text, at);
        if (link) { emit("text", link[1]); at += link[0].length; continue; }
      }
      const closing = text.startsWith("</", at);
      if (!matchAt(p.nameStart, text, at)) {
        if (closing && !markdown) {
          const close = text.indexOf(">", at);
          at = close < 0 ? size : close + 1;
        } else {
          emit("text", "<");
          at += 1;
        }
        continue;
      }
      const tag = markdown ? (closing ? p.mdEndTag : p.mdStartTag) : (closing ? p.endTag : p.startTag);
      const match = matchAt(tag, text, at);
      if (!match) {
        if (!markdown) break;
        emit("text", "<");
        at += 1;
        continue;
      }
      const name = match[1].toLowerCase();
      at += match[0].length;
      if (closing) {
        if (!hidden) tokens.push(["end", name]);
        else if (name === hidden) {
          depth -= 1;
          if (!depth) hidden = "";
        }
      } else if (RAW.has(name)) {
        at = afterRaw(text, at, name);
      } else if (hidden) {
        if (name === hidden && !closesItself(match[2])) depth += 1;
      } else if (HIDDEN.has(name)) {
        if (!closesItself(match[2])) { hidden = name; depth = 1; }
      } else {
        tokens.push(["start", name]);
      }
    }
    return tokens;
  }

  const block = (level, text) => ({ level, text });

  /** documents.py html_blocks. */
  function htmlBlocks(html) {
    const blocks = [];
    let buffer = [];
    let level = 0;
    const flush = () => {
      const text = collapse(buffer.join(""));
      if (text) blocks.push(block(level, text));
      buffer = [];
    };
    for (const [kind, value] of htmlTokens(withoutBom(html), false)) {
      if (kind === "text") buffer.push(engine.decodeEntities(value));
      else if (isHeading(value)) { flush(); level = kind === "start" ? HEADINGS[value] : 0; }
      else if (BLOCK.has(value)) { flush(); level = 0; }
      else if (value === "br") buffer.push(" ");
    }
    flush();
    return blocks;
  }

  /** documents.py markdown_html. */
  function markdownHtml(text) {
    const out = [];
    for (const [kind, value] of htmlTokens(text, true)) {
      if (kind === "text") out.push(value);
      else if (isHeading(value)) out.push(kind === "start" ? "\n\n" + "#".repeat(HEADINGS[value]) + " " : "\n\n");
      else if (BLOCK.has(value)) out.push("\n\n");
      else if (value === "br") out.push(" ");
    }
    return out.join("");
  }

  /* ------------------------------------------------------------ Markdown */

  /** documents.py inline_text. */
  function inlineText(text) {
    for (const [pattern, replacement] of P().inline) text = text.replace(pattern, replacement);
    return collapse(engine.decodeEntities(text));
  }

  /** documents.py front_matter: [title or "", the index of the first line after it]. */
  function frontMatter(lines) {
    if (!lines.length || strip(lines[0]) !== "---") return ["", 0];
    for (let index = 1; index < lines.length; index += 1) {
      if (strip(lines[index]) === "---") {
        let title = "";
        for (const line of lines.slice(1, index)) {
          const found = P().title.exec(line);
          if (found) { title = strip(found[1]); break; }
        }
        if (title.length >= 2 && title[0] === title[title.length - 1] && (title[0] === '"' || title[0] === "'")) {
          title = title.slice(1, -1);
        }
        return [title, index + 1];
      }
    }
    return ["", 0];
  }

  function fenced(lines) {
    const runs = [];
    let fence = "";
    for (const line of lines) {
      if (fence) {
        const stripped = line.replace(/^ +/, "");
        const after = stripped.replace(new RegExp("^\\" + fence[0] + "+"), "");  // Python's lstrip(fence[0])
        if (line.length - stripped.length <= 3 && stripped.startsWith(fence) && blank(after)) {
          fence = "";
        } else {
          runs[runs.length - 1][1].push(line);
        }
        continue;
      }
      const opening = P().fence.exec(line);
      if (opening) {
        fence = opening[1];
        runs.push([true, []]);
      } else if (runs.length && !runs[runs.length - 1][0]) {
        runs[runs.length - 1][1].push(line);
      } else {
        runs.push([false, [line]]);
      }
    }
    return runs;
  }

  function lineBlocks(lines) {
    const p = P();
    const blocks = [];
    let paragraph = [];
    const flush = (level) => {
      if (!paragraph.length) return;
      const text = inlineText(paragraph.join(" "));
      if (text) blocks.push(block(level || 0, text));
      paragraph = [];
    };
    for (const raw of lines) {
      const line = raw.replace(p.quoteMarks, "");
      if (blank(line)) { flush(); continue; }
      const heading = p.atx.exec(line);
      if (heading) {
        flush();
        const text = inlineText(trimEnd(heading[2], " \t").replace(p.atxClose, ""));
        if (text) blocks.push(block(heading[1].length, text));
        continue;
      }
      const underline = p.setext.exec(line);
      if (underline && paragraph.length) { flush(underline[1][0] === "=" ? 1 : 2); continue; }
      if (p.thematicBreak.test(line)) { flush(); continue; }
      if (p.reference.test(line) || (line.includes("|") && line.includes("-") && p.delimiterRow.test(line))) continue;
      const item = p.item.exec(line);
      if (item) {
        flush();
        paragraph.push(line.slice(item[0].length));
        continue;
      }
      paragraph.push(line);
    }
    flush();
    return blocks;
  }

  function readMarkdown(markdown) {
    const lines = engine.splitLines(withoutBom(markdown));
    const [title, start] = frontMatter(lines);
    let blocks = [];
    for (const [code, run] of fenced(lines.slice(start))) {
      if (code) {
        const text = collapse(run.join(" "));
        if (text) blocks.push(block(0, text));
      } else {
        blocks = blocks.concat(lineBlocks(engine.splitLines(markdownHtml(run.join("\n")))));
      }
    }
    return [title, blocks];
  }

  let lastMarkdown = null;  // the chunking lab cuts one page for every state: read it once
  let lastBlocks = null;
  /** documents.py markdown_blocks: [{level, text}], front matter left out. */
  function markdownBlocks(markdown) {
    if (markdown !== lastMarkdown) {
      lastBlocks = readMarkdown(markdown)[1];
      lastMarkdown = markdown;
    }
    return lastBlocks.map((b) => block(b.level, b.text));
  }

  /** documents.py text_blocks. */
  function textBlocks(text) {
    const blocks = [];
    let paragraph = [];
    for (const line of engine.splitLines(withoutBom(text)).concat([""])) {
      if (!blank(line)) paragraph.push(line);
      else if (paragraph.length) {
        blocks.push(block(0, collapse(paragraph.join(" "))));
        paragraph = [];
      }
    }
    return blocks;
  }

  /** documents.py read_document: {source, kind, title, blocks}. */
  function readDocument(source, text, kind) {
    kind = kind || documentKind(source);
    let title = "";
    let blocks;
    if (kind === "markdown") [title, blocks] = readMarkdown(text);
    else if (kind === "html") blocks = htmlBlocks(text);
    else if (kind === "text") blocks = textBlocks(text);
    else throw new RangeError(`no kind of document '${kind}' (use markdown, html or text)`);
    const firstHeading = (blocks.find((b) => b.level) || { text: "" }).text;
    return { source, kind, title: title || firstHeading || source, blocks };
  }

  /** documents.py passages: [{title, headings, source, text}]. */
  function documentPassages(doc, maxWords) {
    const found = [];
    const path = [];
    let texts = [];
    const close = () => {
      if (texts.length) {
        const text = texts.join(" ");
        const pieces = !maxWords || engine.words(text).length <= maxWords ? [text]
          : engine.chunkSentences(engine.splitSentences(text), maxWords, 0);
        const headings = path.map(([, heading]) => heading);
        for (const piece of pieces) found.push({ title: doc.title, headings: headings.slice(), source: doc.source, text: piece });
      }
      texts = [];
    };
    for (const b of doc.blocks) {
      if (b.level) {
        close();
        while (path.length && path[path.length - 1][0] >= b.level) path.pop();
        path.push([b.level, b.text]);
      } else {
        texts.push(b.text);
      }
    }
    close();
    return found;
  }

  /* ------------------------------------------------------------ the chunking lab's cuts */

  const proseOf = (markdown) => markdownBlocks(markdown).filter((b) => !b.level).map((b) => b.text).join(" ");
  const pageText = (markdown) => markdownBlocks(markdown).map((b) => b.text).join("\n");
  const headingMarkdown = (markdown) => markdownBlocks(markdown)
    .map((b) => (b.level ? "#".repeat(b.level) + " " : " ") + b.text).join("\n");

  /** documents.py chunk_with. */
  function chunkWith(setting, markdown) {
    const chunker = setting.chunker;
    if (chunker === "fixed") return engine.chunkFixed(proseOf(markdown), setting.size, setting.overlap);
    if (chunker === "sentences") return engine.chunkSentences(engine.splitSentences(proseOf(markdown)), setting.limit, setting.repeat);
    if (chunker === "headings") return engine.chunkHeadings(headingMarkdown(markdown));
    if (chunker === "page") return [pageText(markdown)];
    throw new RangeError(`no chunker '${chunker}' (use one of ${CHUNKERS.join(", ")})`);
  }

  Object.assign(engine, {
    documentKind, htmlTokens, htmlBlocks, markdownHtml, inlineText, frontMatter, markdownBlocks, textBlocks,
    readDocument, documentPassages, proseOf, pageText, headingMarkdown, chunkWith,
  });
})();
