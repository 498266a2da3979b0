/* labs.js: the lab runtime in the browser. A lab's script says what its state is and how to
 * draw it (views.js: accept, props, view); this file does what every lab repeats:
 *   - lazy start: a lab's files load, and it starts, when it nears the viewport, when a link
 *     targets it, or when the reader reaches one of its controls; never all at load;
 *   - controls: the HTML keeps them inert in <template data-lab-controls> (without JavaScript they
 *     would do nothing); they go in when the lab starts. A control with data-key="k1" is bound
 *     to state.k1 both ways (radios, checkboxes, selects, ranges, text); an <output
 *     data-shows="k1"> shows it; <select data-picker="question"> lists the questions for state.q;
 *   - state <-> link: the state the build drew (data-state), then the link's, through accept();
 *     every change through ctx.set() is written back to the link;
 *   - drawing: Preact renders the lab's view into its .lab-output, over the build's HTML of the
 *     same view, so the first drawing changes nothing;
 *   - errors: anything a lab throws, at start or later in a handler registered with ctx.on,
 *     shows in that lab as an alert, over its default state.
 *
 * A lab may also define sync(ctx): called after every drawing, it keeps in step the controls
 * data-key cannot bind (their options or shown text depend on the state).
 *
 * ctx (what setup(ctx) and sync(ctx) get): name, root (the section), output (.lab-output), input (as the view's
 * props() gets it), defaults, state, local (the view's own state), set(patch, {announce, link,
 * replace}), show(patch) (local state: redraw, no link), on(target, type, handler), find(sel),
 * findAll(sel).
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const starts = new Map();     // section -> Promise of its context
  const contexts = new Map();   // lab name -> context, once started
  const pendingLinks = new Set(); // labs whose link waits for the reader to pause
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

  function fail(section, error) {
    console.error(`[RAG] lab ${section.dataset.lab} failed:`, error);
    RAG.showLabError(section, `Its script failed (${error && error.message ? error.message : error}).`);
  }

  /**
   * Put a lab's controls in place: the HTML keeps them inert in <template data-lab-controls>
   * (site_src/templates/_macros.html). True once the lab has all of them. A template the parser
   * has not finished (nothing after it yet) is left for later.
   */
  RAG.showControls = (section) => {
    for (const template of section.querySelectorAll("template[data-lab-controls]")) {
      if (!template.nextSibling && document.readyState === "loading") return false;
      template.replaceWith(template.content.cloneNode(true));
    }
    return true;
  };

  /**
   * A lab's bar (templates/_lab.html) sticks to the top of the screen only while it leaves most
   * of the screen to what it changes: a bar taller than TALL_BAR of the window (a lab with many
   * fields, on a phone) scrolls with the page (position: static, set on the bar itself: layout,
   * not part of the lab's drawing). Checked when the controls go in, whenever the window's
   * size changes, and whenever the bar's own size does.
   */
  const TALL_BAR = 0.45;
  function fitBar(section) {
    const bar = section.querySelector(":scope > .lab-bar");
    if (!bar) return;
    const fit = () => {
      bar.style.position = "";
      if (bar.getBoundingClientRect().height > TALL_BAR * window.innerHeight) bar.style.position = "static";
    };
    fit();
    window.addEventListener("resize", fit);
    // Its height changes with what it holds (a claim typed longer, a narrower layout settling
    // after the resize event): decide again once the bar's new size is laid out.
    if ("ResizeObserver" in window) new ResizeObserver(fit).observe(bar);
  }

  const sections = () => [...document.querySelectorAll("section.lab[data-lab]")];
  const sectionOf = (name) => document.querySelector(`section.lab[data-lab="${CSS.escape(name)}"]`);

  /* ----------------------------------------------------------- controls */

  const TYPED = new Set(["text", "search", "textarea"]);
  const kind = (control) => (control.tagName === "TEXTAREA" ? "textarea" : control.tagName === "SELECT" ? "select"
    : (control.type || "text"));
  const valueOf = (control) => {
    if (control.type === "checkbox") return control.checked;
    if (control.type === "range" || control.type === "number") return Number(control.value);
    return control.value;
  };

  /** Controls with data-key set the state; typing and dragging say the result when the reader pauses. */
  function bindControls(ctx) {
    for (const control of ctx.findAll("[data-key]")) {
      if (control.tagName === "OUTPUT") continue;
      const continuous = TYPED.has(kind(control)) || control.type === "range";
      ctx.on(control, continuous ? "input" : "change", () => {
        if (control.type === "radio" && !control.checked) return;
        ctx.set({ [control.dataset.key]: valueOf(control) }, { announce: continuous ? "later" : "now" });
      });
    }
  }

  /** Every bound control shows the state (a text field the reader is typing in is left alone). */
  function syncControls(ctx) {
    for (const control of ctx.findAll("[data-key]")) {
      const value = ctx.state[control.dataset.key];
      const text = value === undefined || value === null ? "" : String(value);
      if (control.tagName === "OUTPUT") continue;
      if (control.type === "radio") control.checked = control.value === text;
      else if (control.type === "checkbox") control.checked = Boolean(value);
      else if (control.value !== text && !(TYPED.has(kind(control)) && control === document.activeElement)) {
        control.value = text;
      }
    }
    for (const output of ctx.findAll("output[data-shows]")) {
      const value = ctx.state[output.dataset.shows];
      const digits = output.dataset.digits;
      output.textContent = digits === undefined ? String(value) : RAG.fixed(Number(value), Number(digits));
    }
    const picker = ctx.find('select[data-picker="question"]');
    if (picker && ctx.state.q !== undefined) picker.value = ctx.state.q;
  }

  /* -------------------------------------------------------------- state */

  function draw(ctx, spec, announce) {
    syncControls(ctx);
    const { element, summary, outcome } = RAG.labDrawing(spec, ctx.state, ctx.input, ctx.local);
    window.preact.render(element, ctx.output);
    // The line under the controls (the frame's p[data-outcome]), in step with the drawing.
    const line = outcome && ctx.find("[data-outcome]");
    if (line) window.preact.render(outcome, line);
    // Controls the runtime cannot bind by data-key (a list that depends on the state, a field
    // that shows a question's text) follow the state here, once per drawing.
    if (spec.sync) spec.sync(ctx);
    // A lab's drawing, told to the page (runtime/predict.js judges the predictions by it).
    if (ctx.name) document.dispatchEvent(new CustomEvent("rag:lab-drawn", { detail: { name: ctx.name, state: ctx.state } }));
    window.clearTimeout(ctx.announceTimer);
    // While the reader types or drags, say the result once they pause, not on every step.
    if (announce === "now" && summary) RAG.announce(summary);
    else if (announce === "later" && summary) ctx.announceTimer = window.setTimeout(() => RAG.announce(summary), 700);
  }

  /** A drawing's context: a lab's (`name`: its state goes into the link) or a view drawn into
   *  any element (no name: its state stays its own). */
  function context(section, spec, input, name, defaults) {
    const ctx = {
      name, root: section, output: section.querySelector(".lab-output"), input, defaults,
      state: { ...defaults },
      local: { ...(spec.local || {}) },
      find: (selector) => section.querySelector(selector),
      findAll: (selector) => [...section.querySelectorAll(selector)],
      /**
       * Change the state: accept(), redraw, write the link. False when accept() refused.
       * The patch goes over the current state, or over the defaults with {replace: true} (a link
       * names a whole state). The link is written just after the redraw, or, for a change the
       * reader makes continuously (typing, dragging: announce "later"), once they pause.
       */
      set(patch, { announce = "now", link = true, replace = false } = {}) {
        const before = ctx.state;
        if (replace) ctx.state = { ...ctx.defaults };  // accept() sees what it sees when the lab starts
        const next = spec.accept({ ...ctx.state, ...patch }, ctx.input);
        if (!next) {
          ctx.state = before;
          return false;
        }
        ctx.state = next;
        window.clearTimeout(ctx.linkTimer);
        pendingLinks.delete(name);
        if (link && name) {
          // After the redraw, out of the way of the next frame: replaceState is slow in Chromium.
          pendingLinks.add(name);
          ctx.linkTimer = window.setTimeout(() => { pendingLinks.delete(name); RAG.hash.write(name, ctx.state); },
            announce === "later" ? 250 : 0);
        }
        draw(ctx, spec, announce);
        return true;
      },
      /** Change the view's own state (what is pointed at, opened): redraw; the link stays. */
      show(patch) {
        ctx.local = { ...ctx.local, ...patch };
        draw(ctx, spec, false);
      },
      /** addEventListener, with anything the handler throws shown in the lab. */
      on(target, type, handler, options) {
        target.addEventListener(type, (event) => {
          try { handler(event); } catch (error) { fail(section, error); }
        }, options);
      },
    };
    return ctx;
  }

  /* -------------------------------------------------------------- start */

  /** How a preset question is named in a picker (site_src/templates/_macros.html, the same). */
  const questionLabel = (q) => (q.set === "golden" ? `${q.id} \u00b7 ${q.text}${q.paraphrase ? " (paraphrase)" : ""}` : q.text);

  /** The questions asked live in this browser (the "Ask your own question" lab) that a lab takes. */
  const askedFor = (ctx, spec) => ctx.input.corpus.questions.live().filter((q) => spec.accept({ ...ctx.state, q: q.id }, ctx.input));
  const askedGroup = (asked) => (asked.length ? RAG.el("optgroup", { label: "Asked here, searched live in your browser", dataset: { asked: "" } },
    asked.map((q) => RAG.el("option", { value: q.id }, q.text))) : null);

  /** Every preset question in a picker the HTML left holding only the question it shows, and
   *  the questions asked live that the lab takes. */
  function listPresets(picker, corpus, asked) {
    const option = (q) => RAG.el("option", { value: q.id }, questionLabel(q));
    const answeredOnly = picker.hasAttribute("data-answered-only");
    const group = (label, set) => {
      const listed = corpus.questions.presets().filter((q) => q.set === set && (!answeredOnly || q.answer));
      return listed.length ? RAG.el("optgroup", { label }, listed.map(option)) : null;
    };
    const own = picker.hasAttribute("data-own-words") ? RAG.el("option", { value: "" }, "Your own words (type below)") : null;
    const shown = picker.value;
    RAG.replace(picker, own, askedGroup(asked),
      group("Questions followed through the page", "tracer"), group("Golden set", "golden"),
      group("Questions the help center cannot answer", "unanswerable"));
    picker.value = shown;
  }

  /** A picker of the lab's own questions (its HTML lists them all) gains the questions asked live. */
  function listAsked(picker, asked) {
    const old = picker.querySelector("optgroup[data-asked]");
    if (old) old.remove();
    const group = askedGroup(asked);
    if (group) picker.prepend(group);
  }

  function bindPicker(ctx, spec) {
    const picker = ctx.find('select[data-picker="question"]');
    if (!picker) return;
    const list = () => (picker.dataset.options === "presets" ? listPresets(picker, ctx.input.corpus, askedFor(ctx, spec))
      : listAsked(picker, askedFor(ctx, spec)));
    list();
    ctx.on(document, "rag:questions", () => { list(); picker.value = ctx.state.q; });
    ctx.on(picker, "change", () => ctx.set({ q: picker.value }));
  }

  async function start(section) {
    const name = section.dataset.lab;
    const assets = RAG.assets();
    const url = assets.labs && assets.labs[name];
    if (!url) throw new Error(`the page lists no script for the lab "${name}"; rebuild the site`);
    // Preact and views.js draw every lab; the lab's own script and its shared scripts use them as they load.
    await RAG.loadScript(assets.scripts.views);
    const shared = (section.dataset.scripts || "").split(/\s+/).filter(Boolean)
      .map((script) => RAG.loadScript(assets.scripts[script]));
    const [data, own] = await Promise.all([RAG.loadData(), RAG.need(`lab:${name}`, url), ...shared]);
    const spec = RAG.labSpec(name);
    if (!spec) throw new Error(`${url.split("?")[0]} did not define the lab "${name}"`);
    RAG.showControls(section);
    fitBar(section);
    let defaults = {};
    try { defaults = JSON.parse(section.dataset.state || "{}"); } catch (error) { /* the template's fault: no state */ }
    const ctx = context(section, spec, RAG.inputFor(spec, data, own), name, defaults);
    const linked = RAG.hash.read(name);
    begin(ctx, spec, Object.keys(linked).length ? spec.accept({ ...defaults, ...linked }, ctx.input) : null);
    contexts.set(name, ctx);
    section.dataset.labState = "ready";
    return ctx;
  }

  /** Set up a context's events and controls, then draw its first state. */
  function begin(ctx, spec, first) {
    if (spec.setup) spec.setup(ctx);
    bindControls(ctx);
    bindPicker(ctx, spec);
    ctx.state = first || spec.accept({ ...ctx.defaults }, ctx.input) || { ...ctx.defaults };
    draw(ctx, spec, false);
  }

  /**
   * Draw a view (site_src/views/<view>.js) into any element, as many times as a page wants: the
   * element holds the view's controls (data-key, as a lab's frame) and a div.lab-output; each
   * drawing keeps its own state and events, and writes no link. The view's scripts must have
   * loaded (a lab that shows it has started). Returns its context.
   * Example: RAG.mountView(box, "hybrid", {corpus, sliders, prefix: "mine"}, {q: "q1"})
   */
  RAG.mountView = (root, view, input, state) => {
    const spec = RAG.viewSpec(view);
    if (!spec) throw new Error(`the view "${view}" is not loaded: start a lab that shows it first`);
    const ctx = context(root, spec, input, null, { ...state });
    begin(ctx, spec, null);
    return ctx;
  };

  /** Start a lab (once): load its files, set it up, draw its state. */
  RAG.startLab = (section) => {
    if (!starts.has(section)) {
      section.dataset.labState = "loading";
      starts.set(section, start(section).catch((error) => { fail(section, error); return null; }));
    }
    return starts.get(section);
  };

  /** Resolves once no lab waits to write its link (the reader paused): for tests and benchmarks. */
  RAG.linksSettled = () => new Promise((resolve) => {
    const check = () => (pendingLinks.size ? window.setTimeout(check, 10) : resolve());
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
