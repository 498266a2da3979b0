/* samples-ui.js: what the code samples' tabs and copy buttons do. The language tabs (Python /
 * JavaScript) switch every sample at once and the choice is remembered; the copy button copies
 * the code that is showing. The JavaScript twins are not in the HTML: their coloured code (token
 * lists from builder/page/highlight.py) is drawn the first time a reader picks JavaScript.
 * This file and the twins come in assets/samples.js, which runtime/samples.js loads the first
 * time a reader uses a tab or a copy button (or at once, for a reader who picked JavaScript
 * before); it hands them the events from then on, and the ones that came before it. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const LANGUAGE_KEY = "rag-explainer.sample-language";
  const MOVES = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

  function storageGet(key) {
    try { return window.localStorage.getItem(key); } catch (error) { return null; }
  }
  function storageSet(key, value) {
    try { window.localStorage.setItem(key, value); } catch (error) { /* private mode, file:// policies */ }
  }

  const languageOf = (tab) => (tab.dataset.lang || tab.textContent || "").trim().toLowerCase();
  const panelOf = (tab) => document.getElementById(tab.getAttribute("aria-controls") || "");
  const tabsOf = (sample) => [...sample.querySelectorAll('.sample-tabs [role="tab"]')];

  /** Draw the code of every panel of `language` that the page left empty. */
  let drawing = null;
  function fillPanels(language) {
    const empty = [...document.querySelectorAll(`.sample-code[data-lang="${language}"][data-sample]`)]
      .filter((panel) => !panel.querySelector("code").firstChild);
    if (!empty.length) return Promise.resolve();
    if (!drawing) drawing = RAG.need("samples", RAG.assets().samples);
    return drawing.then((twins) => {
      for (const panel of empty) {
        const pieces = twins[panel.dataset.sample] || [["", "(this sample's code is missing: rebuild the site)"]];
        RAG.replace(panel.querySelector("code"), pieces.map(([kind, text]) => (kind ? RAG.el(`t-${kind}`, null, text) : text)));
      }
    });
  }

  function selectLanguage(sample, language) {
    const tabs = tabsOf(sample);
    if (!tabs.some((tab) => languageOf(tab) === language)) return;
    for (const tab of tabs) {
      const selected = languageOf(tab) === language;
      tab.setAttribute("aria-selected", selected ? "true" : "false");
      tab.tabIndex = selected ? 0 : -1;
      const panel = panelOf(tab);
      if (panel) panel.hidden = !selected;
    }
  }

  function visibleCode(sample) {
    const selected = tabsOf(sample).find((tab) => tab.getAttribute("aria-selected") === "true");
    const panel = (selected && panelOf(selected)) || sample.querySelector(".sample-code:not([hidden])") ||
      sample.querySelector(".sample-code");
    if (!panel) return "";
    return (panel.querySelector("pre") || panel).textContent.replace(/\n+$/, "") + "\n";
  }

  function legacyCopy(text) {
    const area = RAG.el("textarea", { readonly: true, "aria-hidden": "true", class: "visually-hidden" });
    area.value = text;
    const focused = document.activeElement;
    document.body.appendChild(area);
    area.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (error) { ok = false; }
    area.remove();
    if (focused && focused.focus) focused.focus();
    return ok;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(() => true, () => legacyCopy(text));
    }
    return Promise.resolve(legacyCopy(text));
  }

  const everySample = () => [...document.querySelectorAll("figure.sample")];

  function chooseEverywhere(language, origin) {
    const before = origin.getBoundingClientRect().top;
    everySample().forEach((sample) => selectLanguage(sample, language));
    // Samples above may change height; keep the one the reader used where it was.
    const keep = () => {
      const after = origin.getBoundingClientRect().top;
      if (Math.abs(after - before) > 1) window.scrollBy(0, after - before);
    };
    keep();
    fillPanels(language).then(keep, (error) => console.error("[RAG] samples:", error));
    storageSet(LANGUAGE_KEY, language);
  }

  const labels = new WeakMap();  // copy button -> its own text and the timer that puts it back
  function copy(button, sample) {
    if (!labels.has(button)) labels.set(button, { text: button.textContent, timer: null });
    const label = labels.get(button);
    const shown = sample.querySelector('.sample-tabs [aria-selected="true"]');
    fillPanels(shown ? languageOf(shown) : "py").then(() => copyText(visibleCode(sample))).then((ok) => {
      button.textContent = ok ? "Copied" : "Press Ctrl+C";
      button.classList.toggle("is-copied", !!ok);
      RAG.announce(ok ? "Code copied to the clipboard" : "Copying failed");
      window.clearTimeout(label.timer);
      label.timer = window.setTimeout(() => {
        button.textContent = label.text;
        button.classList.remove("is-copied");
      }, 2000);
    });
  }

  /** A click or a key in a sample's bar: a tab picked, the arrow keys, Home and End moving
   *  between tabs (the ARIA tabs pattern), the copy button. */
  RAG.onSampleEvent = (event) => {
    const sample = event.target.closest && event.target.closest("figure.sample");
    if (!sample) return;
    const tab = event.target.closest('.sample-tabs [role="tab"]');
    if (tab && event.type === "click") chooseEverywhere(languageOf(tab), sample);
    if (tab && event.type === "keydown") {
      const tabs = tabsOf(sample);
      const index = tabs.indexOf(tab);
      const next = MOVES[event.key];
      const target = event.key === "Home" ? tabs[0] : event.key === "End" ? tabs[tabs.length - 1]
        : next ? tabs[(index + next + tabs.length) % tabs.length] : null;
      if (!target) return;
      event.preventDefault();
      chooseEverywhere(languageOf(target), sample);
      target.focus();
    }
    const button = event.type === "click" && event.target.closest("button.copy");
    if (button) copy(button, sample);
  };

  /** The language the reader picked on an earlier visit, on every sample. */
  RAG.restoreSampleLanguage = () => {
    const saved = storageGet(LANGUAGE_KEY);
    if (!saved) return;
    everySample().forEach((sample) => selectLanguage(sample, saved));
    fillPanels(saved).catch((error) => console.error("[RAG] samples:", error));
  };
})();
