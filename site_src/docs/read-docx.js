/* read-docx.js: a Word document's text through mammoth (RAG.docs.readDocx): the .docx turned into
 * HTML (headings from Word's heading styles), which the engine's HTML reader then reads as any
 * other HTML (RAG.engine.readDocument: text only). Images are left out unread (an empty <img>:
 * their bytes are never decoded). A damaged file is refused whole. A page only.
 *
 *   RAG.docs.readDocx(bytes) -> Promise of the HTML, or a RAG.docs.Refusal
 *
 * Example: await RAG.docs.readDocx(bytes) -> "<h1>Restoring</h1><p>Burrowkeep restores …</p>"
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});

  docs.readDocx = async (bytes) => {
    const mammoth = await docs.vendor.mammoth();
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    try {
      const result = await mammoth.convertToHtml({ arrayBuffer }, {
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: "" })),
      });
      return result.value;
    } catch (error) {
      throw new docs.Refusal(`is damaged or is not a Word document (${(error && error.message) || error}). ` +
        "Open it in Word or LibreOffice, save it again as .docx, and choose that.");
    }
  };
})();
