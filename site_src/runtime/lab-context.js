/* lab-context.js: a started lab, in the browser (loaded with the first lab that starts, in
 * assets/scripts/views.js; runtime/labs.js starts labs and calls RAG.runLab). A lab's script says
 * what its state is and how to draw it (views.js: accept, props, view); this file does the rest:
 *   - controls: a control with data-key="k1" is bound to state.k1 both ways (radios, checkboxes,
 *     selects, ranges, text); an <output data-shows="k1"> shows it; <select data-picker="question">
 *     lists the questions for state.q;
 *   - state <-> link: the state the build drew (data-state), then the link's, through accept();
 *     every change through ctx.set() is written back to the link;
 *   - drawing: Preact renders the lab's view into its .lab-output, over the build's HTML of the
 *     same view, so the first drawing changes nothing.
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
        RAG.labLinksPending.delete(name);
        if (link && name) {
          // After the redraw, out of the way of the next frame: replaceState is slow in Chromium.
          RAG.labLinksPending.add(name);
          ctx.linkTimer = window.setTimeout(() => { RAG.labLinksPending.delete(name); RAG.hash.write(name, ctx.state); },
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
          try { handler(event); } catch (error) { RAG.labFailed(section, error); }
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

  /** Run a lab (runtime/labs.js calls it once, after this file has loaded): load its own files
   *  and the scripts it shares, put its controls in, draw its state. Resolves to its context
   *  (labs.js then marks the lab ready). */
  RAG.runLab = async (section) => {
    const name = section.dataset.lab;
    const assets = RAG.assets();
    const url = assets.labs && assets.labs[name];
    if (!url) throw new Error(`the page lists no script for the lab "${name}"; rebuild the site`);
    // The lab's own script and its shared scripts use Preact and the views' runtime, loaded before this file.
    const shared = (section.dataset.scripts || "").split(/\s+/).filter(Boolean)
      .map((script) => RAG.loadScript(assets.scripts[script]));
    const [data, own] = await Promise.all([RAG.loadData(), RAG.need(`lab:${name}`, url), RAG.loadControls(), ...shared]);
    const spec = RAG.labSpec(name);
    if (!spec) throw new Error(`${url.split("?")[0]} did not define the lab "${name}"`);
    RAG.showControls(section);
    fitBar(section);
    let defaults = {};
    try { defaults = JSON.parse(section.dataset.state || "{}"); } catch (error) { /* the template's fault: no state */ }
    const ctx = context(section, spec, RAG.inputFor(spec, data, own), name, defaults);
    const linked = RAG.hash.read(name);
    begin(ctx, spec, Object.keys(linked).length ? spec.accept({ ...defaults, ...linked }, ctx.input) : null);
    return ctx;
  };

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

})();
