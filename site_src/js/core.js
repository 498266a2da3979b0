/* core.js: the shared runtime of the RAG explainer.
 *
 * A classic script (no modules: Chromium refuses ES modules on file://), concatenated first
 * into assets/app.js; each lab-*.js that follows calls RAG.registerLab(name, setup).
 * It never puts data into innerHTML: every node is built with RAG.el() and textContent.
 *
 * What it does on its own:
 *   - sets html.js so the stylesheet can show JS-only controls;
 *   - reads the build's data from <script id="rag-data"> and checks its schema;
 *   - marks the current section in the table of contents (aria-current="true");
 *   - turns glossary terms into popovers (hover, focus, tap; Escape closes);
 *   - runs the code-sample tabs (one language choice for every sample) and copy buttons;
 *   - restores lab state from links like #lab-chunking?setting=fixed-12&q=q1.
 */
(function () {
  "use strict";

  var root = document.documentElement;
  root.classList.add("js");

  var RAG = (window.RAG = window.RAG || {});
  var LANGUAGE_KEY = "rag-explainer.sample-language";
  var WIDE_QUERY = "(min-width: 64rem)";

  /* ------------------------------------------------------------ DOM builder */

  function appendChildren(node, children) {
    for (var i = 0; i < children.length; i++) {
      var child = children[i];
      if (child === null || child === undefined || child === false || child === true) continue;
      if (Array.isArray(child)) appendChildren(node, child);
      else if (child instanceof Node) node.appendChild(child);
      else node.appendChild(document.createTextNode(String(child)));
    }
  }

  var PROPERTIES = { value: true, checked: true, selected: true, disabled: true, indeterminate: true };

  function setAttributes(node, attrs) {
    if (!attrs) return;
    Object.keys(attrs).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined || value === false) {
        if (PROPERTIES[key] && key in node) node[key] = false;
        return;
      }
      if (key === "class" || key === "className") {
        node.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : String(value));
      } else if (key === "dataset") {
        Object.keys(value).forEach(function (name) { node.dataset[name] = String(value[name]); });
      } else if (key === "style") {
        // CSSOM, not the style attribute: the page's CSP forbids inline style attributes.
        Object.keys(value).forEach(function (name) {
          if (name.indexOf("--") === 0) node.style.setProperty(name, String(value[name]));
          else node.style[name] = String(value[name]);
        });
      } else if (key.slice(0, 2) === "on" && typeof value === "function") {
        node.addEventListener(key.slice(2).toLowerCase(), value);
      } else if (PROPERTIES[key] && key in node) {
        node[key] = value;
        if (value === true) node.setAttribute(key, "");
      } else {
        node.setAttribute(key, value === true ? "" : String(value));
      }
    });
  }

  /** RAG.el("li", {class: "result"}, RAG.el("code", null, id), " ", score): text is always text. */
  RAG.el = function (tag, attrs) {
    var node = document.createElement(tag);
    setAttributes(node, attrs);
    appendChildren(node, Array.prototype.slice.call(arguments, 2));
    return node;
  };

  /** RAG.svg("rect", {class: "bar", width: 40, height: 8}): the same, in the SVG namespace. */
  RAG.svg = function (tag, attrs) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    setAttributes(node, attrs);
    appendChildren(node, Array.prototype.slice.call(arguments, 2));
    return node;
  };

  /** Replace every child of `node` with `children` (nodes, strings, arrays). */
  RAG.replace = function (node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    appendChildren(node, Array.prototype.slice.call(arguments, 1));
    return node;
  };

  /**
   * Format like Python's f"{x:.{digits}f}", so a redrawn number is byte-identical to the
   * build's. Example: RAG.fixed(0.125, 2) -> "0.12" (JS's toFixed gives "0.13").
   */
  RAG.fixed = function (x, digits) {
    digits = digits === undefined ? 3 : digits;
    if (!isFinite(x)) return x > 0 ? "inf" : x < 0 ? "-inf" : "nan";
    var text = x.toFixed(digits);
    // toFixed rounds exact halves up (away from zero); Python rounds them to even.
    var exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
    var tail = exact.slice(exact.indexOf(".") + 1 + digits);
    if (/^50*$/.test(tail)) {
      var down = (x < 0 ? "-" : "") + exact.slice(0, exact.indexOf(".") + 1 + digits).replace(/\.$/, "");
      var last = down.charAt(down.length - 1);
      if (/[02468]/.test(last)) text = down;
    }
    return text;
  };

  /** Say something to screen readers (polite): "Copied", "12 results". */
  RAG.announce = function (message) {
    var region = document.getElementById("rag-status");
    if (!region) {
      region = RAG.el("div", { id: "rag-status", class: "visually-hidden", "aria-live": "polite", role: "status" });
      document.body.appendChild(region);
    }
    region.textContent = "";
    window.setTimeout(function () { region.textContent = message; }, 30);
  };

  /* ------------------------------------------------------------------ data */

  RAG.data = null;
  RAG.dataError = null;

  function loadData() {
    var script = document.getElementById("rag-data");
    if (!script) {
      RAG.dataError = "The page has no data (no <script id=\"rag-data\">). Rebuild the site.";
      return;
    }
    var parsed;
    try {
      parsed = JSON.parse(script.textContent);
    } catch (err) {
      RAG.dataError = "The page's data could not be read (" + err.message + "). Rebuild the site.";
      return;
    }
    var expected = root.dataset.schema;
    var found = parsed && typeof parsed === "object" ? parsed.schema : undefined;
    if (expected === undefined) {
      RAG.dataError = "The page does not say which data schema it expects (no data-schema on <html>).";
    } else if (String(found) !== String(expected)) {
      RAG.dataError = "The page's data has schema " + String(found) + " but this page expects schema " +
        expected + ". Rebuild the site (python build.py) so they match.";
    } else {
      RAG.data = expandRuns(parsed);
    }
  }

  /* The build ships each ranked list as [passage index, score] pairs (builder/render_page.py
     compact_runs), which downloads smaller; the labs read [passage id, score], as in rag.json. */
  function expandRuns(data) {
    if (data.runs_format !== "passage-index") return data;
    var ids = data.passages.map(function (p) { return p.id; });
    Object.keys(data.runs).forEach(function (question) {
      var run = data.runs[question];
      Object.keys(run).forEach(function (retriever) {
        run[retriever] = run[retriever].map(function (pair) { return [ids[pair[0]], pair[1]]; });
      });
    });
    delete data.runs_format;
    return data;
  }

  /** Show a visible alert inside a lab: div.lab-error[role=alert], created if missing. */
  RAG.showLabError = function (lab, message) {
    if (!lab) return null;
    var box = lab.querySelector(".lab-error");
    if (!box) {
      box = RAG.el("div", { class: "lab-error", role: "alert" });
      var output = lab.querySelector(".lab-output");
      if (output && output.parentNode) output.parentNode.insertBefore(box, output);
      else lab.appendChild(box);
    }
    box.setAttribute("role", "alert");
    RAG.replace(box, RAG.el("strong", null, "This lab can\u2019t run. "), String(message),
      " What you see is the build\u2019s default state.");
    box.hidden = false;
    lab.dataset.labState = "error";
    return box;
  };

  /* ------------------------------------------------------------------- labs */

  var registered = [];
  var started = false;

  function runLab(name, setup) {
    var labs = document.querySelectorAll("section.lab[data-lab]");
    Array.prototype.forEach.call(labs, function (lab) {
      if (lab.getAttribute("data-lab") !== name) return;
      if (RAG.dataError) return; // start() has already put the message in every lab
      try {
        setup(lab, RAG.data);
        lab.dataset.labState = "ready";
      } catch (err) {
        console.error("[RAG] lab " + name + " failed:", err);
        RAG.showLabError(lab, "Its script failed (" + (err && err.message ? err.message : err) + ").");
      }
    });
  }

  /** Register a lab: setup(sectionElement, data) runs for each section.lab[data-lab=name]. */
  RAG.registerLab = function (name, setup) {
    registered.push({ name: name, setup: setup });
    if (started) runLab(name, setup);
  };

  /* ------------------------------------------------------------- hash state */

  function parseHash(hash) {
    var raw = (hash || "").replace(/^#/, "");
    var cut = raw.indexOf("?");
    var id = cut < 0 ? raw : raw.slice(0, cut);
    try { id = decodeURIComponent(id); } catch (err) { /* keep it raw */ }
    return { id: id, query: cut < 0 ? null : raw.slice(cut + 1) };
  }

  /** {setting: "fixed-12", q: "q1"} from "#lab-chunking?setting=fixed-12&q=q1"; {} otherwise. */
  RAG.readHashState = function (labName) {
    var parts = parseHash(window.location.hash);
    var state = {};
    if (parts.id !== "lab-" + labName || !parts.query) return state;
    new URLSearchParams(parts.query).forEach(function (value, key) { state[key] = value; });
    return state;
  };

  /** Put a lab's state in the address bar (replaceState: no new history entry). */
  RAG.writeHashState = function (labName, state) {
    var params = new URLSearchParams();
    Object.keys(state || {}).forEach(function (key) {
      var value = state[key];
      if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
    });
    var query = params.toString();
    var hash = "#lab-" + labName + (query ? "?" + query : "");
    if (window.location.hash === hash) return hash;
    try {
      window.history.replaceState(window.history.state, "", hash);
    } catch (err) {
      // Some browsers refuse replaceState on file:// URLs; the state just isn't shareable then.
    }
    return hash;
  };

  function scrollToHashTarget() {
    var parts = parseHash(window.location.hash);
    if (!parts.id || parts.query === null) return; // plain #section hashes: the browser does it
    var target = document.getElementById(parts.id);
    if (target) target.scrollIntoView({ block: "start", behavior: "instant" });
  }

  function onHashChange() {
    var parts = parseHash(window.location.hash);
    if (parts.query === null || parts.id.indexOf("lab-") !== 0) return;
    var lab = document.getElementById(parts.id);
    if (!lab) return;
    var name = parts.id.slice(4);
    lab.dispatchEvent(new CustomEvent("rag:hashstate", { detail: RAG.readHashState(name) }));
    lab.scrollIntoView({ block: "start" });
  }

  /* ------------------------------------------------------ table of contents */

  function setupToc() {
    var toc = document.querySelector("nav.toc");
    if (!toc) return;
    var details = toc.querySelector("details");
    var currentLabel = toc.querySelector(".toc-current");
    var wide = window.matchMedia ? window.matchMedia(WIDE_QUERY) : { matches: true };

    var entries = [];
    Array.prototype.forEach.call(toc.querySelectorAll('a[href^="#"]'), function (link) {
      var id = parseHash(link.getAttribute("href")).id;
      var target = id && document.getElementById(id);
      if (target) entries.push({ link: link, target: target });
    });
    if (!entries.length) return;

    if (details) {
      // Open on wide screens (a rail), closed on narrow ones (a bar); open without JS.
      var summary = details.querySelector("summary");
      var fit = function () {
        details.open = !!wide.matches;
        // On a wide screen the summary is only a heading: keep it out of the tab order.
        if (summary) summary.tabIndex = wide.matches ? -1 : 0;
      };
      fit();
      if (wide.addEventListener) wide.addEventListener("change", fit);
      details.addEventListener("toggle", function () {
        if (wide.matches && !details.open) details.open = true;
      });
      toc.addEventListener("click", function (event) {
        if (!wide.matches && event.target.closest && event.target.closest("a")) details.open = false;
      });
      toc.addEventListener("keydown", function (event) {
        if (event.key === "Escape" && !wide.matches && details.open) {
          details.open = false;
          if (summary) summary.focus();
        }
      });
    }

    function linkLabel(link) {
      var parts = [];
      Array.prototype.forEach.call(link.childNodes, function (node) { parts.push(node.textContent); });
      return parts.join(" ").replace(/\s+/g, " ").trim();
    }

    var current = null;
    function update() {
      var line = window.innerHeight * 0.3;
      var found = null;
      for (var i = 0; i < entries.length; i++) {
        if (entries[i].target.getBoundingClientRect().top <= line) found = entries[i];
      }
      var scroller = document.scrollingElement || root;
      if (scroller.scrollTop + window.innerHeight >= scroller.scrollHeight - 2 && scroller.scrollTop > 0) {
        found = entries[entries.length - 1];
      }
      if (found === current) return;
      if (current) current.link.removeAttribute("aria-current");
      current = found;
      if (currentLabel) currentLabel.textContent = current ? linkLabel(current.link) : "";
      if (!current) return;
      current.link.setAttribute("aria-current", "true");
      // Keep the marked link in view inside the rail, without scrolling the page.
      if (wide.matches && toc.scrollHeight > toc.clientHeight) {
        var linkBox = current.link.getBoundingClientRect();
        var tocBox = toc.getBoundingClientRect();
        if (linkBox.top < tocBox.top + 40 || linkBox.bottom > tocBox.bottom - 40) {
          toc.scrollTop += linkBox.top - tocBox.top - toc.clientHeight / 3;
        }
      }
    }

    var pending = false;
    function schedule() {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; update(); });
    }

    if ("IntersectionObserver" in window) {
      // The root is the top 30% of the viewport: a section entering or leaving it is the
      // moment the current section can change.
      var observer = new IntersectionObserver(schedule, { rootMargin: "0px 0px -70% 0px", threshold: [0, 1] });
      entries.forEach(function (entry) { observer.observe(entry.target); });
    }
    // Also on scroll (cheap, once a frame): catches the end of the page, where the last,
    // short section never reaches the line.
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    update();
  }

  /* ------------------------------------------------------- glossary terms */

  function setupTerms() {
    var links = document.querySelectorAll("a.term[data-term]");
    if (!links.length) return;

    var popups = {};          // slug -> popup element
    var openLink = null;
    var hideTimer = null;
    var dismissed = null;     // the link whose popup Escape closed: stays closed until left
    var lastPointer = "mouse";
    var tapWasOpen = false;

    function popupFor(slug) {
      if (popups[slug]) return popups[slug];
      var dt = document.getElementById("term-" + slug);
      if (!dt) return null;
      var dd = dt.nextElementSibling;
      while (dd && dd.tagName !== "DD") dd = dd.nextElementSibling;
      if (!dd) return null;
      var popup = RAG.el("div", { class: "term-popup", id: "term-popup-" + slug, role: "tooltip", hidden: true },
        RAG.el("span", { class: "term-popup-term" }, dt.textContent.trim()),
        RAG.el("span", { class: "term-popup-text" }, dd.textContent.replace(/\s+/g, " ").trim()));
      popup.addEventListener("mouseenter", cancelHide);
      popup.addEventListener("mouseleave", function () { scheduleHide(250); });
      document.body.appendChild(popup);
      popups[slug] = popup;
      return popup;
    }

    function place(popup, link) {
      popup.style.left = "0px";
      popup.style.top = "0px";
      var rects = link.getClientRects();
      var box = rects.length ? rects[0] : link.getBoundingClientRect();
      var viewWidth = root.clientWidth;
      var width = popup.offsetWidth;
      var height = popup.offsetHeight;
      var left = Math.max(8, Math.min(box.left, viewWidth - width - 8));
      var top = box.bottom + 6;
      if (top + height > window.innerHeight - 8 && box.top - height - 6 > 8) top = box.top - height - 6;
      popup.style.left = Math.round(left + window.pageXOffset) + "px";
      popup.style.top = Math.round(top + window.pageYOffset) + "px";
    }

    function show(link) {
      cancelHide();
      if (dismissed === link) return;
      var popup = popupFor(link.dataset.term);
      if (!popup) return;
      if (openLink && openLink !== link) hideNow();
      openLink = link;
      link.classList.add("is-open");
      popup.hidden = false;
      place(popup, link);
    }

    function hideNow() {
      cancelHide();
      if (!openLink) return;
      var popup = popups[openLink.dataset.term];
      if (popup) popup.hidden = true;
      openLink.classList.remove("is-open");
      openLink = null;
    }

    function scheduleHide(delay) {
      cancelHide();
      hideTimer = window.setTimeout(hideNow, delay);
    }

    function cancelHide() {
      if (hideTimer) window.clearTimeout(hideTimer);
      hideTimer = null;
    }

    Array.prototype.forEach.call(links, function (link) {
      var popup = popupFor(link.dataset.term);
      if (!popup) return;
      var described = (link.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean);
      if (described.indexOf(popup.id) < 0) described.push(popup.id);
      link.setAttribute("aria-describedby", described.join(" "));

      link.addEventListener("mouseenter", function () { if (lastPointer !== "touch") show(link); });
      link.addEventListener("mouseleave", function () {
        if (dismissed === link) dismissed = null;
        if (openLink === link && document.activeElement !== link) scheduleHide(250);
      });
      link.addEventListener("focus", function () { show(link); });
      link.addEventListener("blur", function () {
        if (dismissed === link) dismissed = null;
        if (openLink === link) scheduleHide(lastPointer === "touch" ? 0 : 120);
      });
      link.addEventListener("pointerdown", function (event) {
        lastPointer = event.pointerType || "mouse";
        tapWasOpen = openLink === link;
      });
      link.addEventListener("click", function (event) {
        // A tap opens the definition; a second tap follows the link to the glossary.
        if ((lastPointer === "touch" || lastPointer === "pen") && !tapWasOpen) {
          event.preventDefault();
          dismissed = null;
          show(link);
        }
      });
    });

    document.addEventListener("pointerdown", function (event) {
      lastPointer = event.pointerType || "mouse";
      if (!openLink) return;
      var target = event.target;
      if (target === openLink || (target.closest && (target.closest(".term-popup") || target.closest("a.term")))) return;
      hideNow();
    }, true);

    document.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !openLink) return;
      dismissed = openLink;   // focus stays where it is
      hideNow();
    });

    window.addEventListener("resize", function () {
      if (openLink) place(popups[openLink.dataset.term], openLink);
    });
  }

  /* ------------------------------------------------------------ code samples */

  function storageGet(key) {
    try { return window.localStorage.getItem(key); } catch (err) { return null; }
  }
  function storageSet(key, value) {
    try { window.localStorage.setItem(key, value); } catch (err) { /* private mode, file:// policies */ }
  }

  function languageOf(tab) {
    return (tab.dataset.lang || tab.textContent || "").trim().toLowerCase();
  }

  function panelOf(tab) {
    var id = tab.getAttribute("aria-controls");
    return id ? document.getElementById(id) : null;
  }

  function tabsOf(sample) {
    return Array.prototype.slice.call(sample.querySelectorAll('.sample-tabs [role="tab"]'));
  }

  function selectLanguage(sample, language) {
    var tabs = tabsOf(sample);
    var has = tabs.some(function (tab) { return languageOf(tab) === language; });
    if (!has) return false;
    tabs.forEach(function (tab) {
      var selected = languageOf(tab) === language;
      tab.setAttribute("aria-selected", selected ? "true" : "false");
      tab.tabIndex = selected ? 0 : -1;
      var panel = panelOf(tab);
      if (panel) panel.hidden = !selected;
    });
    return true;
  }

  function visibleCode(sample) {
    var tabs = tabsOf(sample);
    var panel = null;
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].getAttribute("aria-selected") === "true") panel = panelOf(tabs[i]);
    }
    if (!panel) panel = sample.querySelector(".sample-code:not([hidden])") || sample.querySelector(".sample-code");
    if (!panel) return "";
    var pre = panel.querySelector("pre") || panel;
    return pre.textContent.replace(/\n+$/, "") + "\n";
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(function () { return true; }, function () {
        return legacyCopy(text);
      });
    }
    return Promise.resolve(legacyCopy(text));
  }

  function legacyCopy(text) {
    var area = RAG.el("textarea", { readonly: true, "aria-hidden": "true", class: "visually-hidden" });
    area.value = text;
    var focused = document.activeElement;
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
    document.body.removeChild(area);
    if (focused && focused.focus) focused.focus();
    return ok;
  }

  function setupSamples() {
    var samples = Array.prototype.slice.call(document.querySelectorAll("figure.sample"));
    if (!samples.length) return;

    function chooseEverywhere(language, origin) {
      var before = origin ? origin.getBoundingClientRect().top : 0;
      samples.forEach(function (sample) { selectLanguage(sample, language); });
      if (origin) {
        // Samples above may change height; keep the one the reader used where it was.
        var after = origin.getBoundingClientRect().top;
        if (Math.abs(after - before) > 1) window.scrollBy(0, after - before);
      }
      storageSet(LANGUAGE_KEY, language);
    }

    samples.forEach(function (sample) {
      var tabs = tabsOf(sample);
      tabs.forEach(function (tab, index) {
        tab.tabIndex = tab.getAttribute("aria-selected") === "true" ? 0 : -1;
        tab.addEventListener("click", function () { chooseEverywhere(languageOf(tab), sample); });
        tab.addEventListener("keydown", function (event) {
          var next = null;
          if (event.key === "ArrowRight" || event.key === "ArrowDown") next = tabs[(index + 1) % tabs.length];
          else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = tabs[(index - 1 + tabs.length) % tabs.length];
          else if (event.key === "Home") next = tabs[0];
          else if (event.key === "End") next = tabs[tabs.length - 1];
          if (!next) return;
          event.preventDefault();
          chooseEverywhere(languageOf(next), sample);
          next.focus();
        });
      });

      var button = sample.querySelector("button.copy");
      if (!button) return;
      var label = button.textContent;
      var timer = null;
      button.addEventListener("click", function () {
        copyText(visibleCode(sample)).then(function (ok) {
          button.textContent = ok ? "Copied" : "Press Ctrl+C";
          button.classList.toggle("is-copied", !!ok);
          RAG.announce(ok ? "Code copied to the clipboard" : "Copying failed");
          if (timer) window.clearTimeout(timer);
          timer = window.setTimeout(function () {
            button.textContent = label;
            button.classList.remove("is-copied");
          }, 2000);
        });
      });
    });

    var saved = storageGet(LANGUAGE_KEY);
    if (saved) samples.forEach(function (sample) { selectLanguage(sample, saved); });
  }

  /* ---------------------------------------- keyboard access to scroll boxes */

  // A box that scrolls sideways (a wide table, code, a formula) must be reachable by
  // keyboard to be scrolled: give it tabindex=0 while it overflows.
  var SCROLLERS = ".table-scroll, pre, .figure-scroll, figure.figure, .math-block, math[display=block]";

  function markScrollers() {
    Array.prototype.forEach.call(document.querySelectorAll(SCROLLERS), function (box) {
      var overflows = box.scrollWidth > box.clientWidth + 1;
      if (overflows && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.ragScroller = "";
      } else if (!overflows && box.dataset.ragScroller !== undefined) {
        box.removeAttribute("tabindex");
        delete box.dataset.ragScroller;
      }
    });
  }

  /* ------------------------------------------------------------------ start */

  function start() {
    if (started) return;
    if (!RAG.data && !RAG.dataError) loadData();
    started = true;
    var steps = [setupToc, setupTerms, setupSamples, markScrollers];
    steps.forEach(function (step) {
      try { step(); } catch (err) { console.error("[RAG] " + (step.name || "setup") + " failed:", err); }
    });
    if (RAG.dataError) {
      console.warn("[RAG] " + RAG.dataError);
      Array.prototype.forEach.call(document.querySelectorAll("section.lab"), function (lab) {
        RAG.showLabError(lab, RAG.dataError);
      });
    }
    registered.forEach(function (lab) { runLab(lab.name, lab.setup); });
    scrollToHashTarget();
    window.addEventListener("hashchange", onHashChange);
    var resizeTimer = null;
    window.addEventListener("resize", function () {
      if (resizeTimer) window.clearTimeout(resizeTimer);
      resizeTimer = window.setTimeout(markScrollers, 200);
    });
  }

  if (document.getElementById("rag-data")) loadData();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else window.setTimeout(start, 0);
})();
