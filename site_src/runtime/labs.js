/* labs.js: the lab runtime the page loads at once (the rest, lab-context.js, comes with the
 * first lab that starts, in assets/scripts/views.js). It does what every lab needs before it runs:
 *   - lazy start: a lab's files load, and it starts, when it nears the viewport, when a link
 *     targets it, or when the reader reaches one of its controls; never all at load;
 *   - controls: without JavaScript they would do nothing, so the HTML holds only an empty
 *     <template data-lab-controls> where each goes; their markup comes in assets/controls.js,
 *     fetched when the first lab starts (or a link lands on one), and goes in when the lab
 *     starts (or when the link lands);
 *   - errors: anything a lab throws, at start or later in a handler registered with ctx.on,
 *     shows in that lab as an alert, over its default state.
 * lab-context.js binds the controls to the lab's state, draws it and writes its link.
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const starts = new Map();     // section -> Promise of its context
  const contexts = new Map();   // lab name -> context, once started
  // Labs whose link waits for the reader to pause (lab-context.js adds and removes them).
  RAG.labLinksPending = new Set();
  const LAB_FILE = /assets\/labs\/([a-z0-9-]+)\.js/;

  /** Show a visible alert inside a lab (div.lab-error[role=alert]); its default state stays. */
  RAG.showLabError = (section, message) => {
    if (!section) return null;
    let box = section.querySelector(".lab-error");
    if (!box) {
      box = RAG.el("div", { class: "lab-error", role: "alert" });
      const output = section.querySelector(".lab-output");
      if (output) output.before(box);
      else section.appendChild(box);
    }
    RAG.replace(box, RAG.el("strong", null, "This lab can\u2019t run. "), String(message),
      " What you see is the build\u2019s default state.");
    box.hidden = false;
    section.dataset.labState = "error";
    return box;
  };

  /** A lab's script failed: said in the console and in the lab. */
  const fail = RAG.labFailed = (section, error) => {
    console.error(`[RAG] lab ${section.dataset.lab} failed:`, error);
    RAG.showLabError(section, `Its script failed (${error && error.message ? error.message : error}).`);
  };

  /** Fetch every lab's controls (assets/controls.js, builder/page/lab_controls.py), once. */
  let controls = null;  // {lab: [markup of each template]}, once fetched
  let asked = null;
  RAG.loadControls = () => asked || (asked = RAG.need("controls", RAG.assets().controls)
    .then((value) => { controls = value; return value; }));

  /**
   * Put a lab's controls in place: each waits in an empty <template data-lab-controls>
   * (site_src/templates/_macros.html) for its markup, fetched with the first lab that needs it.
   * True once the lab has all of them; false while the file is on its way (it is asked for) or
   * while the parser has not finished the template (nothing after it yet).
   */
  RAG.showControls = (section) => {
    const templates = section.querySelectorAll("template[data-lab-controls]");
    if (!templates.length) return true;
    if (!controls) {
      RAG.loadControls().catch(() => {});  // a failure shows in the lab when it starts
      return false;
    }
    for (const template of templates) {
      if (!template.nextSibling && document.readyState === "loading") return false;
      const view = template.dataset.controls;  // a view's controls the lab mounts: under "lab/view"
      const own = controls[view ? `${section.dataset.lab}/${view}` : section.dataset.lab] || [];
      const markup = own[Number(template.dataset.labControls)] || "";
      // A view's controls the lab mounts itself (data-controls) stay a template, to be cloned.
      if (!template.hasAttribute("data-controls")) {
        template.innerHTML = markup;
        template.replaceWith(template.content);
      } else if (!template.content.firstChild) {
        template.innerHTML = markup;
      }
    }
    return true;
  };

  const sections = () => [...document.querySelectorAll("section.lab[data-lab]")];
  const sectionOf = (name) => document.querySelector(`section.lab[data-lab="${CSS.escape(name)}"]`);

  /** Start a lab (once): load what draws every lab (Preact, the views' runtime, lab-context.js),
   *  then its own files; set it up, draw its state. */
  RAG.startLab = (section) => {
    if (!starts.has(section)) {
      section.dataset.labState = "loading";
      starts.set(section, RAG.loadScript(RAG.assets().scripts.views)
        .then(() => RAG.runLab(section))
        .then((ctx) => { contexts.set(section.dataset.lab, ctx); section.dataset.labState = "ready"; return ctx; })
        .catch((error) => { fail(section, error); return null; }));
    }
    return starts.get(section);
  };

  /** Resolves once no lab waits to write its link (the reader paused): for tests and benchmarks. */
  RAG.linksSettled = () => new Promise((resolve) => {
    const check = () => (RAG.labLinksPending.size ? window.setTimeout(check, 10) : resolve());
    check();
  });

  /** A started lab's context, for tests and benchmarks. */
  RAG.labContext = (name) => contexts.get(name) || null;

  /* --------------------------------------------------------- lazy start */

  function startWhenNear() {
    if (!("IntersectionObserver" in window)) {
      sections().forEach(RAG.startLab);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        RAG.startLab(entry.target);
      }
    }, { rootMargin: "75% 0px 75% 0px" });
    sections().forEach((section) => observer.observe(section));
    // A reader faster than the observer (a keyboard, a flick) starts the lab they reach.
    for (const type of ["focusin", "pointerdown"]) {
      document.addEventListener(type, (event) => {
        const section = event.target.closest && event.target.closest("section.lab[data-lab]");
        if (section) RAG.startLab(section);
      }, true);
    }
  }

  /** A link to a lab (#lab-x, or #lab-x?state) starts it at once (runtime/navigate.js puts it in view). */
  function followLink() {
    const name = RAG.hash.labOf(window.location.hash);
    const section = name && sectionOf(name);
    if (!section) return;
    const { query } = RAG.hash.parse(window.location.hash);
    const ctx = contexts.get(name);
    if (ctx && query !== null) ctx.set(RAG.hash.read(name), { link: false, replace: true });
    else RAG.startLab(section);
  }

  RAG.startLabs = () => {
    followLink();
    startWhenNear();
    window.addEventListener("hashchange", followLink);
    // Errors outside a lab's guarded handlers (a timer, a promise) still belong to its file.
    window.addEventListener("error", (event) => {
      const match = LAB_FILE.exec(event.filename || "");
      if (match && sectionOf(match[1])) fail(sectionOf(match[1]), event.error || event.message);
    });
  };
})();
