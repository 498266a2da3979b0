/* decode-text.js: a text file's bytes as text, only if they are UTF-8 (RAG.docs.decodeText).
 * Anything else is refused with the place and a likely cause, never guessed at: a NUL byte (a
 * binary file, or UTF-16 or UTF-32 without a byte-order mark), a UTF-16 or UTF-32 byte-order
 * mark, or bytes that are no UTF-8 (Latin-1, Windows-1252…). A UTF-8 byte-order mark is dropped.
 * No window: a page, a worker or Node.
 *
 *   RAG.docs.decodeText(bytes) -> {text} or {refused: "why, and what to do"}
 *
 * Example: RAG.docs.decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9])).refused
 *          -> "is not UTF-8: byte 4 (0xE9) starts no UTF-8 character (Latin-1 or Windows-1252?). Save it as UTF-8 and choose it again."
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const strict = new TextDecoder("utf-8", { fatal: true });
  const SAVE = "Save it as UTF-8 and choose it again.";

  /** The index of the first byte that is not part of a well-formed UTF-8 character (RFC 3629), or -1. */
  function firstInvalid(bytes) {
    let at = 0;
    while (at < bytes.length) {
      const lead = bytes[at];
      if (lead < 0x80) { at += 1; continue; }
      let need;
      let low = 0x80;
      let high = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) need = 1;
      else if (lead >= 0xe0 && lead <= 0xef) { need = 2; if (lead === 0xe0) low = 0xa0; if (lead === 0xed) high = 0x9f; }
      else if (lead >= 0xf0 && lead <= 0xf4) { need = 3; if (lead === 0xf0) low = 0x90; if (lead === 0xf4) high = 0x8f; }
      else return at;
      for (let k = 1; k <= need; k++) {
        const next = bytes[at + k];
        if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return at;
      }
      at += need + 1;
    }
    return -1;
  }

  const hexByte = (byte) => "0x" + byte.toString(16).toUpperCase().padStart(2, "0");
  const startsWith = (bytes, signature) => signature.every((byte, i) => bytes[i] === byte);

  docs.decodeText = (bytes) => {
    if (startsWith(bytes, [0x00, 0x00, 0xfe, 0xff]) || startsWith(bytes, [0xff, 0xfe, 0x00, 0x00])) {
      return { refused: `is UTF-32 text (it starts with a UTF-32 byte-order mark). ${SAVE}` };
    }
    if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
      return { refused: `is UTF-16 text (it starts with a UTF-16 byte-order mark). ${SAVE}` };
    }
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      return { refused: `holds a NUL byte (byte ${(nul + 1).toLocaleString("en")}): a binary file, or text in UTF-16 or UTF-32 without a byte-order mark. If it is text, save it as UTF-8.` };
    }
    try {
      return { text: strict.decode(bytes) };
    } catch (error) {
      const at = firstInvalid(bytes);
      const where = at < 0 ? "it ends inside a character" : `byte ${(at + 1).toLocaleString("en")} (${hexByte(bytes[at])}) starts no UTF-8 character`;
      return { refused: `is not UTF-8: ${where} (Latin-1 or Windows-1252?). ${SAVE}` };
    }
  };

  docs.firstInvalidUtf8 = firstInvalid;
})();
