/* sniff.js: what a file is, by its first bytes before its name (RAG.docs.sniff). A PDF, a DOCX (a
 * ZIP archive named .docx) or text go on to be read; an image, an old Office file, another archive
 * or a binary file is refused with a message that names what it is and what to do. A name that
 * promises a kind the bytes are not (a .pdf that is no PDF) is refused too. No window: a page, a
 * worker or Node.
 *
 *   RAG.docs.sniff(bytes, name) -> {kind: "pdf" | "docx" | "text"} or {refused: "why, and what to do"}
 *
 * Example: RAG.docs.sniff(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10]), "notes.md").refused
 *          -> "an image (PNG): it holds no text to read. A picture of text needs OCR first."
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  const ascii = (text) => Array.from(text, (ch) => ch.charCodeAt(0));
  const startsWith = (bytes, signature, at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  const ending = (name) => { const dot = name.lastIndexOf("."); return dot < 0 ? "" : name.slice(dot + 1).toLowerCase(); };

  /** A BMP's header names its own size and has four zero bytes after it (a text may start "BM"). */
  const isBmp = (bytes) => startsWith(bytes, ascii("BM")) && bytes.length >= 14 &&
    (bytes[2] | (bytes[3] << 8) | (bytes[4] << 16) | (bytes[5] << 24)) >>> 0 === bytes.length &&
    !bytes[6] && !bytes[7] && !bytes[8] && !bytes[9];

  const IMAGES = [
    ["PNG", (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ["JPEG", (b) => startsWith(b, [0xff, 0xd8, 0xff])],
    ["GIF", (b) => startsWith(b, ascii("GIF87a")) || startsWith(b, ascii("GIF89a"))],
    ["WebP", (b) => startsWith(b, ascii("RIFF")) && startsWith(b, ascii("WEBP"), 8)],
    ["TIFF", (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])],
    ["BMP", isBmp],
    ["ICO", (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length > 6],
    ["HEIC or AVIF", (b) => startsWith(b, ascii("ftyp"), 4) && ["heic", "heix", "hevc", "mif1", "avif", "avis"]
      .some((brand) => startsWith(b, ascii(brand), 8))],
  ];

  /** Where "%PDF-" starts within the first 1024 bytes (PDF readers allow junk before it), or -1. */
  function pdfHeader(bytes) {
    const end = Math.min(bytes.length - 5, 1024);
    for (let at = 0; at <= end; at++) if (startsWith(bytes, ascii("%PDF-"), at)) return at;
    return -1;
  }

  function svg(bytes) {
    const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 512)).replace(/^\ufeff/, "").trimStart();
    return /^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);
  }

  const OFFICE = { xlsx: "a spreadsheet (.xlsx)", pptx: "a presentation (.pptx)", odt: "an OpenDocument text (.odt)",
                   ods: "an OpenDocument spreadsheet (.ods)", odp: "an OpenDocument presentation (.odp)", epub: "an e-book (.epub)" };

  function zip(name) {
    const kind = ending(name);
    if (kind === "docx") return { kind: "docx" };
    if (OFFICE[kind]) return { refused: `${OFFICE[kind]}: only Word's .docx is read here. Save or export it as .docx, PDF or text.` };
    return { refused: "a ZIP archive: unzip it and choose the files inside." };
  }

  docs.sniff = (bytes, name) => {
    const kind = ending(name);
    if (pdfHeader(bytes) >= 0) return { kind: "pdf" };
    if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return zip(name);
    const image = IMAGES.find(([, test]) => test(bytes));
    if (image) return { refused: `an image (${image[0]}): it holds no text to read. A picture of text needs OCR first.` };
    if (kind === "svg" || svg(bytes)) return { refused: "an image (SVG): its text is drawing instructions, not prose to search." };
    if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
      return { refused: "an old Office file (.doc, .xls or .ppt): save it as .docx (File > Save as) and choose that." };
    }
    if (startsWith(bytes, ascii("{\\rtf"))) return { refused: "a Rich Text (.rtf) file: save it as .docx or as plain text." };
    if (kind === "pdf") return { refused: "named .pdf, but its bytes are not a PDF's (no %PDF- header in its first 1,024 bytes): it is damaged, or another kind of file renamed." };
    if (kind === "docx") return { refused: "named .docx, but it is not one (a .docx is a ZIP archive; this is not): it is damaged, or another kind of file renamed." };
    return { kind: "text" };
  };

  docs.pdfHeader = pdfHeader;
})();
