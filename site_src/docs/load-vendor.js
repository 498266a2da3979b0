/* load-vendor.js: PDF.js and mammoth, loaded only when a reader chooses a PDF or a DOCX
 * (RAG.docs.vendor), each checked against the hash the build wrote (RAG.docs.FILES, the header
 * of assets/scripts/docs.js): PDF.js's module by a <link rel="modulepreload" integrity> that
 * import() then finds in the module map (a module that fails its check is never run, and
 * import() is never called for it); mammoth's classic script by <script integrity>. PDF.js's
 * worker runs from checked bytes too (pdf-worker.js). Neither is part of any first download.
 * A page only (it adds elements to document.head); from file:// neither can load, and the
 * refusal says how to serve the page.
 *
 *   RAG.docs.vendor.pdfjs()    -> Promise of PDF.js's module (pdfjsLib)
 *   RAG.docs.vendor.mammoth()  -> Promise of mammoth
 *   RAG.docs.vendor.loaded()   -> the names loaded so far ("pdfjs", "mammoth")
 *
 * Example: (await RAG.docs.vendor.pdfjs()).version -> "6.5.438"
 */
(() => {
  "use strict";
  const RAG = (globalThis.RAG = globalThis.RAG || {});
  const docs = (RAG.docs = RAG.docs || {});
  const loading = new Map();  // name -> Promise

  const absolute = (url) => new URL(url, globalThis.document.baseURI).href;
  const fileName = (url) => url.split("?")[0].split("/").pop();

  function files() {
    if (!docs.FILES) throw new docs.Refusal("needs the page as the build wrote it (assets/scripts/docs.js names the files that read PDF and DOCX)");
    return docs.FILES;
  }

  function served(what) {
    if (globalThis.location && globalThis.location.protocol === "file:") {
      throw new docs.Refusal(`is a ${what}: reading one needs the page served, not opened as a file (browsers load no module or checked script from file://). ` +
        "Serve the folder that holds the page (python3 -m http.server, run in it) and open http://localhost:8000/.");
    }
  }

  /** Add `element` to the page's head and wait for it to load; `what` names it in the refusal. */
  const added = (element, what, file) => new Promise((resolve, reject) => {
    element.addEventListener("load", () => resolve(), { once: true });
    element.addEventListener("error", () => {
      reject(new docs.Refusal(`could not be read: ${what} (${fileName(file.url)}) did not arrive intact (its integrity check failed, or it could not be fetched), ` +
        "so it was not run. Reload the page to try again."));
    }, { once: true });
    globalThis.document.head.appendChild(element);
  });

  function once(name, load) {
    if (!loading.has(name)) {
      const promise = load();
      loading.set(name, promise);
      promise.catch(() => loading.delete(name));  // a failed load may be tried again
    }
    return loading.get(name);
  }

  const pdfjs = () => once("pdfjs", async () => {
    served("PDF");
    const file = files().pdfjs;
    const link = globalThis.document.createElement("link");
    link.rel = "modulepreload";
    link.integrity = file.integrity;
    link.href = absolute(file.url);
    await added(link, "PDF.js", file);
    return import(link.href);
  });

  const mammoth = () => once("mammoth", async () => {
    served("DOCX");
    const file = files().mammoth;
    const script = globalThis.document.createElement("script");
    script.integrity = file.integrity;
    script.src = absolute(file.url);
    await added(script, "mammoth", file);
    if (!globalThis.mammoth) throw new docs.Refusal("could not be read: mammoth loaded but did not start. Reload the page to try again.");
    return globalThis.mammoth;
  });

  docs.vendor = { pdfjs, mammoth, loaded: () => Array.from(loading.keys()) };
})();
