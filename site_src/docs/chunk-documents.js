/* chunk-documents.js: the reader's documents cut into chunks by one chunker setting
 * (RAG.docs.chunk), with the engine's chunkers exactly as the chunking lab applies them to a page
 * (RAG.engine.chunkWith's rules, over a document's blocks instead of a Markdown page's), and each
 * chunk's metadata: its document, the headings above it, the page it starts and ends on (PDFs),
 * and the SHA-256 of its text (hash.js), by which the vector store, the marks and the export know it.
 * Past the chunk limit (limits.js) nothing is cut and the refusal says so. No window: a page, a
 * worker or Node.
 *
 *   settings: {chunker: "fixed", size, overlap}     windows of `size` words, `overlap` repeated
 *             {chunker: "sentences", limit, repeat} whole sentences up to `limit` words, the last `repeat` repeated
 *             {chunker: "headings"}                 one chunk per heading's section, its heading first
 *             {chunker: "sections", maxWords}       by heading, long sections cut into sentences of at
 *                                                   most maxWords (how build.py --corpus cuts a folder:
 *                                                   engine/folder_corpus.py, RAG.engine.documentPassages)
 *             {chunker: "page"}                     each document whole
 *   RAG.docs.chunk(documents, setting, {limits, signal}) -> Promise of {chunks, stopped: ""} or {chunks: [], stopped}
 *   a chunk: {id: "c1", hash, text, source, title, headings, page, lastPage}  (page null outside PDFs)
 *   RAG.docs.settingLabel(setting) -> "Fixed, 25 words, 10 overlap"
 *
 * Example: (await RAG.docs.chunk([doc], {chunker: "page"})).chunks[0].text -> "Restore\nBring back a single file."
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const E = () => RAG.engine;

  const whole = (n) => Number.isInteger(n) && n >= 0;
  function check(setting) {
    const { chunker } = setting || {};
    const problem = chunker === "fixed" ? (!whole(setting.size) || setting.size < 1 || !whole(setting.overlap) || setting.overlap >= setting.size) &&
        `fixed needs a whole size >= 1 and a whole overlap below it, not size=${setting.size}, overlap=${setting.overlap}`
      : chunker === "sentences" ? (!whole(setting.limit) || setting.limit < 1 || !whole(setting.repeat)) &&
        `sentences needs a whole limit >= 1 and a whole repeat >= 0, not limit=${setting.limit}, repeat=${setting.repeat}`
      : chunker === "sections" ? (!whole(setting.maxWords) || setting.maxWords < 1) && `sections needs a whole maxWords >= 1, not ${setting.maxWords}`
      : chunker === "headings" || chunker === "page" ? ""
      : `no chunker '${chunker}' (use fixed, sentences, headings, sections or page)`;
    if (problem) throw new RangeError(problem);
  }

  docs.settingLabel = (s) => ({
    fixed: () => `Fixed, ${s.size} words` + (s.overlap ? `, ${s.overlap} overlap` : ""),
    sentences: () => `Sentences, up to ${s.limit} words` + (s.repeat ? `, ${s.repeat} repeated` : ""),
    headings: () => "By heading",
    sections: () => `By heading, up to ${s.maxWords} words`,
    page: () => "Whole document",
  })[s.chunker]();

  /** A document's prose (its paragraphs' words, in order) with each word's block, and each block's heading path. */
  function layout(blocks) {
    const words = [];
    const wordBlock = [];
    const paths = [];
    const path = [];
    blocks.forEach((block, index) => {
      if (block.level) {
        while (path.length && path[path.length - 1][0] >= block.level) path.pop();
        path.push([block.level, block.text]);
      } else {
        for (const word of E().words(block.text)) { words.push(word); wordBlock.push(index); }
      }
      paths.push(path.map(([, text]) => text));
    });
    return { words, wordBlock, paths };
  }

  /** Where `chunkWords` starts in `words` at or after `from` (a chunk is a run of the prose's words), or -1. */
  function locate(words, chunkWords, from) {
    const first = chunkWords[0];
    for (let at = from; at + chunkWords.length <= words.length; at++) {
      if (words[at] !== first) continue;
      let k = 1;
      while (k < chunkWords.length && words[at + k] === chunkWords[k]) k++;
      if (k === chunkWords.length) return at;
    }
    return -1;
  }

  const pageOf = (blocks, index) => (index >= 0 && blocks[index] && blocks[index].page) || null;

  /** Chunks cut from the prose's words: each placed by where its words start and end. */
  function placedInProse(texts, doc, shape, from = (start) => start + 1) {
    let start = -1;
    return texts.map((text) => {
      const chunkWords = E().words(text);
      const at = chunkWords.length ? locate(shape.words, chunkWords, start < 0 ? 0 : from(start, chunkWords)) : -1;
      if (at >= 0) start = at;
      const firstBlock = at >= 0 ? shape.wordBlock[at] : -1;
      const lastBlock = at >= 0 ? shape.wordBlock[at + chunkWords.length - 1] : -1;
      return { text, headings: firstBlock >= 0 ? shape.paths[firstBlock] : [], page: pageOf(doc.blocks, firstBlock), lastPage: pageOf(doc.blocks, lastBlock) };
    });
  }

  const headingMarkdown = (blocks) => blocks.map((b) => (b.level ? "#".repeat(b.level) + " " : " ") + b.text).join("\n");

  /** chunkHeadings' sections, in its order: the text before the first heading (when there is any), then one per heading. */
  function sections(blocks) {
    const found = [];
    blocks.forEach((block, index) => {
      if (block.level) found.push({ first: index, last: index });
      else if (found.length) found[found.length - 1].last = index;
      else found.push({ first: index, last: index, preamble: true });
    });
    return found;
  }

  /** One document's chunks: {text, headings, page, lastPage}. */
  function cut(doc, setting) {
    const shape = layout(doc.blocks);
    const prose = doc.blocks.filter((b) => !b.level).map((b) => b.text).join(" ");
    const pages = doc.blocks.map((b) => b.page || null).filter(Boolean);
    switch (setting.chunker) {
      case "fixed":
        return placedInProse(E().chunkFixed(prose, setting.size, setting.overlap), doc, shape);
      case "sentences":
        return placedInProse(E().chunkSentences(E().splitSentences(prose), setting.limit, setting.repeat), doc, shape);
      case "sections": {
        const passages = E().documentPassages(doc, setting.maxWords);
        const placed = placedInProse(passages.map((p) => p.text), doc, shape, (start, words) => start + 1);
        return placed.map((chunk, i) => ({ ...chunk, headings: passages[i].headings }));
      }
      case "headings": {
        const texts = E().chunkHeadings(headingMarkdown(doc.blocks));
        const found = sections(doc.blocks);
        if (found.length !== texts.length) throw new Error(`${doc.source}: ${texts.length} sections cut, ${found.length} found`);
        return texts.map((text, i) => ({ text, headings: shape.paths[found[i].first], page: pageOf(doc.blocks, found[i].first),
                                         lastPage: pageOf(doc.blocks, found[i].last) }));
      }
      default:  // page
        return [{ text: doc.blocks.map((b) => b.text).join("\n"), headings: [], page: pages[0] || null, lastPage: pages[pages.length - 1] || null }];
    }
  }

  docs.chunk = async (documents, setting, { limits: override, signal } = {}) => {
    check(setting);
    const limits = docs.limits(override);
    const slice = docs.slicer(signal);
    const pieces = [];
    for (const doc of documents) {
      await slice();
      for (const piece of cut(doc, setting)) pieces.push({ ...piece, source: doc.source, title: doc.title });
      if (pieces.length > limits.chunks) {
        return { chunks: [], stopped: `${docs.settingLabel(setting)} cuts these documents into more than ${limits.chunks.toLocaleString("en")} chunks ` +
          `(${pieces.length.toLocaleString("en")} by ${doc.source}), more than this page holds, so none was kept. Choose larger chunks, or fewer documents.` };
      }
    }
    const hashes = await docs.textHashes(pieces.map((p) => p.text), signal);
    const chunks = pieces.map((p, i) => ({ id: `c${i + 1}`, hash: hashes[i], text: p.text, source: p.source, title: p.title,
                                           headings: p.headings, page: p.page, lastPage: p.lastPage }));
    return { chunks, stopped: "" };
  };

  docs.checkSetting = check;
})();
