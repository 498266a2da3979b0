/* views.js: a lab's drawing, the same code in the reader's browser and in the build. A lab's
 * script (site_src/labs/<name>/lab.js) says what its state is and how to draw it:
 *
 *   RAG.lab("permissions", {
 *     accept(next, input)         a candidate state (defaults, a link, a control) -> the clean state, or null
 *     props(state, input, local)  what the view draws, gathered from the lab's input (pure)
 *     view(props)                 the drawing, made of RAG.h(...) elements (pure: no DOM, no globals)
 *     summary(props)              optional: one sentence for screen readers after a change
 *     outcome(props)              optional: one short line under the lab's controls, redrawn on
 *                                 every change (where the right passage is, the top 3): RAG.h
 *                                 children, the lab's own numbers only
 *     local: {...}                optional: the view's own state, kept out of the link (a pointed-at row)
 *     setup(ctx)                  optional, browser only: wire events; handlers call ctx.set / ctx.show
 *     sync(ctx)                   optional, browser only: after each drawing, keep in step the
 *                                 controls data-key cannot bind
 *   });
 *
 * or it shows a view (site_src/views/<view>.js, RAG.view: the same parts, drawn for any corpus
 * and as many times as a page wants), with the input it gives that view:
 *
 *   RAG.lab("hybrid", { shows: "hybrid", input: (lab) => ({ corpus: lab.corpus, sliders: lab.own.sliders, prefix: "hybrid" }) });
 *
 * A lab's input = RAG.labInput(data, own): {own (what builder's data step for this lab computed),
 *   data (the page's core data), corpus (the page's corpus, RAG.corpus.page), question(id) (a
 *   preset, or a question asked live)}; a lab that shows a view hands it input(labInput) instead.
 * A view draws inside its own root, div.view[data-view="<view>"], which its style is scoped to.
 *
 * The build runs accept, props and view in Node on the same files the browser loads and writes
 * the HTML into the page (builder/page/lab_views.py), for readers without JavaScript and the
 * first paint; the browser redraws with Preact (lab-context.js). One piece of code draws both, and a
 * test renders every preset state both ways.
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const specs = new Map();
  const views = new Map();

  /** A view: accept, props, view, summary, local, setup, as a lab's, over the input it is handed. */
  RAG.view = (name, spec) => {
    views.set(name, { ...spec, view: (props) => RAG.h("div", { class: "view", "data-view": name }, spec.view(props)) });
  };
  RAG.viewSpec = (name) => views.get(name) || null;

  RAG.lab = (name, spec) => {
    if (!spec.shows) return specs.set(name, spec);
    const shown = views.get(spec.shows);
    if (!shown) throw new Error(`the lab "${name}" shows the view "${spec.shows}", which is not loaded ` +
      `(fix: list it in VIEWS in site_src/labs/${name}/data.py)`);
    return specs.set(name, { ...shown, ...spec });
  };
  RAG.labSpec = (name) => specs.get(name) || null;

  const className = (value) => (Array.isArray(value) ? value.filter(Boolean).join(" ") || undefined : value);

  /**
   * An element of a drawing: RAG.h("li", {class: ["result", right && "is-answer"]}, "text", child).
   * Attributes are written as in HTML (class, data-pid, aria-label, tabindex); children may be
   * strings, numbers, elements, arrays of them, or null/false (nothing). Text is always text.
   */
  RAG.h = (tag, attrs, ...children) => {
    const props = attrs && attrs.class !== undefined ? { ...attrs, class: className(attrs.class) } : attrs;
    return window.preact.h(tag, props, ...joinedText(children, []));
  };

  /* Children flattened, with neighbouring strings and numbers joined into one text: the build's
     HTML has one text node where they meet, and the browser's redraw over it must find the same. */
  function joinedText(children, out) {
    for (const child of children) {
      if (child === null || child === undefined || child === false || child === true) continue;
      if (Array.isArray(child)) joinedText(child, out);
      else if (typeof child === "string" || typeof child === "number") {
        if (typeof out[out.length - 1] === "string") out[out.length - 1] += String(child);
        else out.push(String(child));
      } else out.push(child);
    }
    return out;
  }

  /**
   * The usual outcome line (a lab's outcome(props)): where each right passage stands, then the
   * first three of the list the lab changes. `rights`: [[pid, where]] ("rank 7", "not found");
   * `top`: ids best first (the first 3 are named); `named`: what the top list is.
   * Example: RAG.rankOutcome({rights: [["err-4021", "rank 2"]], top: ["a", "err-4021", "c", "d"]})
   *          -> "Right passage err-4021 rank 2 · Top 3 a, err-4021, c" (as elements)
   */
  RAG.rankOutcome = ({ rights = [], top = [], named = "Top 3", empty = "nothing ranked" }) => {
    const h = RAG.h;
    const ids = new Set(rights.map(([pid]) => pid));
    const key = (text) => h("span", { class: "outcome-key" }, text);
    const pid = (id) => h("code", { class: ids.has(id) ? "is-right" : null }, id);
    return [
      rights.length ? h("span", { class: "outcome-part" }, key(rights.length > 1 ? "Right passages" : "Right passage"),
        rights.map(([id, where], i) => [i ? "; " : "", pid(id), " ", where])) : null,
      rights.length ? " \u00b7 " : null,
      h("span", { class: "outcome-part" }, key(named),
        top.length ? top.slice(0, 3).map((id, i) => [i ? ", " : "", pid(id)]) : empty),
    ];
  };

  RAG.labInput = (data, own) => {
    const corpus = RAG.corpus.page(data);
    return { own, data, corpus, question: corpus.question };
  };

  /** What a lab's spec reads: the lab's input, or what it hands the view it shows. */
  RAG.inputFor = (spec, data, own) => (spec.input ? spec.input(RAG.labInput(data, own)) : RAG.labInput(data, own));

  /** {element, summary, outcome}: what the lab draws in `state`, as one element for the lab's
   *  output, and its one-line outcome (an element, or null for a lab without one). */
  RAG.labDrawing = (spec, state, input, local) => {
    const props = spec.props(state, input, { ...(spec.local || {}), ...(local || {}) });
    return {
      element: window.preact.h(window.preact.Fragment, null, spec.view(props)),
      summary: spec.summary ? spec.summary(props) : "",
      outcome: spec.outcome ? window.preact.h(window.preact.Fragment, null, spec.outcome(props)) : null,
    };
  };
})();
