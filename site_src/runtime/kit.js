/* kit.js: what the views repeat, written once (RAG.kit), for the page and for the build's Node
 * renderer (builder/page/lab_views.js runs it too).
 *
 *   onSlider(value, slider, fallback)  a slider's value from a link or a control, onto its range
 *                                      and steps; `fallback` (the page's setting) when it is not a number
 *   rankOf(ranking, id)                the 1-based position of a passage in a ranking (ids, or
 *                                      [id, score] pairs), null when the ranking does not hold it
 *   placesOf(ranking)                  id -> its place with ties: {first, last, label, tied}
 *   placeOf(ranking, id)               one of them, or null
 *   rank(place)                        a row's span.rank: "2", or "2=" titled "tied for 2nd with err-4290"
 *   row({...}), emptyRow(text)         a passage in a ranked list (li.result), a list with none
 *   spoken(parts)                      what a drawing's parts say, as one line for screen readers
 *   nearestDot(dots, event, reach)     the dot a tap or click meant: the nearest within a finger's width
 *   roveDots(ctx, selector, focused)   a drawing's dots as one tab stop: the arrow keys move between them
 *
 * And, in the page, the passage card's opener: a click, a tap or Enter on a passage id in any lab
 * (a row's button.pid-open, or a focusable [data-pid] such as the hybrid view's rows) loads
 * site_src/views/card.js once and opens that passage's card in place (RAG.card.open).
 *
 * Ties are the engine's (RAG.engine.places, rankLabel: site_src/engine/ranking.js): scores equal
 * to the build's 6 decimals share a place, whatever order the ranking put them in.
 */
(() => {
  "use strict";
  const RAG = window.RAG;
  const h = RAG.h;

  /** Decimal places a slider's number is written with. Example: decimals(0.05) -> 2 */
  const decimals = (x) => {
    const [digits, exponent] = String(x).split("e");
    const after = digits.includes(".") ? digits.length - digits.indexOf(".") - 1 : 0;
    return Math.max(0, after - Number(exponent || 0));
  };

  /**
   * A slider's value as its range input would hold it: a number (or the text of one) clamped to
   * [min, max] and moved to the nearest step from min; `fallback` when it is none (absent, empty,
   * not a number). Written to the step's decimals, so 0.1 * 3 is 0.3.
   * Example: onSlider("7.6", {min: 1, max: 100, step: 1}, 60) -> 8; onSlider("many", ..., 60) -> 60
   */
  function onSlider(value, slider, fallback) {
    const asked = typeof value === "number" ? value
      : typeof value === "string" && value.trim() ? Number(value) : NaN;
    if (!Number.isFinite(asked)) return fallback;
    const last = Math.round((slider.max - slider.min) / slider.step);
    const steps = Math.min(Math.max(Math.round((asked - slider.min) / slider.step), 0), last);
    const digits = slider.digits ?? Math.max(decimals(slider.min), decimals(slider.step));
    return Number((slider.min + steps * slider.step).toFixed(digits));
  }

  const idOf = (item) => (Array.isArray(item) ? item[0] : item);

  /** Example: rankOf([["a", 0.9], ["b", 0.5]], "b") -> 2; rankOf(["a"], "z") -> null */
  function rankOf(ranking, id) {
    if (!ranking || id === null || id === undefined) return null;
    const at = ranking.findIndex((item) => idOf(item) === id);
    return at < 0 ? null : at + 1;
  }

  /**
   * Each passage's place in a ranked [[id, score]] list: {first, last} (the ranks its tie
   * spans), label ("2" or "2="), tied (the other ids sharing it). Scores are compared as the
   * build keeps them (6 decimals), so a list fused live ties where the build's does; with a
   * tolerance (cosines of the browser's model, over the reader's documents), scores that close tie.
   * Example: placesOf([["a", .9], ["b", .5], ["c", .5]]).get("c") -> {first: 2, last: 3, label: "2=", tied: ["b"]}
   */
  function placesOf(ranking, tolerance = 0) {
    const E = RAG.engine;
    const kept = ranking.map(([id, score]) => [id, E.roundScore(score)]);
    const found = new Map();
    E.places(kept, tolerance).forEach(([first, last], i) => {
      const tied = kept.slice(first - 1, last).map(([id]) => id).filter((id) => id !== kept[i][0]);
      found.set(kept[i][0], { first, last, label: E.rankLabel([first, last]), tied });
    });
    return found;
  }

  const placeOf = (ranking, id) => (ranking ? placesOf(ranking).get(id) || null : null);

  /** "1st", "2nd", "3rd", "11th", "22nd". */
  function ordinal(n) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th";
    return `${n}${suffix}`;
  }

  /** "a", "a and b", "a, b and c". */
  const listed = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

  /** What a shared place says: "tied for 2nd with err-4290". */
  const tieText = (place) => `tied for ${ordinal(place.first)} with ${listed(place.tied)}`;

  /**
   * A row's rank: a number (a list without scores, a place of its own) or a place of placesOf.
   * A tie's span carries its title. Each kind has a key of its own ("tie", "own"): Preact then
   * replaces the span rather than leave title="" behind on a rank that stops being shared, or
   * hand the old rank's title to its unkeyed neighbour (site_src/README.md, "Keys and attributes").
   */
  function rank(place) {
    if (place === null || place === undefined) return h("span", { class: "rank", key: "own" });
    if (typeof place !== "object") return h("span", { class: "rank", key: "own" }, String(place));
    if (!place.tied.length) return h("span", { class: "rank", key: "own" }, place.label);
    return h("span", { class: "rank", key: "tie", title: tieText(place) }, place.label);
  }

  /**
   * A passage in a ranked list, as the stylesheet lays it out (site_src/README.md, "Labs"):
   *   li.result > span.rank, span.pid (code id, span.title), meter.score-bar, span.score, then `more`.
   * {id, place, title, name (the .pid's children instead of id and title), bar: {max, value},
   *  score (text, or an element that is the score), scoreTitle, more: [children after the
   *  score: flags, badges, details], classes, attrs (data-pid, key, tabindex…)}
   */
  function row({ id, place, title, name, bar, score, scoreTitle, more, classes, attrs }) {
    // A passage's row (data-pid) that is not itself a tab stop opens its card from a button on its id.
    const opens = attrs && attrs["data-pid"] && attrs.tabindex === undefined;
    const code = name ? null : h("code", null, id);
    const named = name || (opens ? code : [code, title === undefined ? null : [" ", h("span", { class: "title" }, title)]]);
    const pid = opens ? [h("button", { type: "button", class: "pid-open" }, named),
      name || title === undefined ? null : [" ", h("span", { class: "title" }, title)]] : named;
    return h("li", { class: ["result", ...(classes || [])], ...(attrs || {}) },
      rank(place),
      h("span", { class: "pid" }, pid),
      bar ? h("meter", { class: "score-bar", min: String(bar.min || 0), max: String(bar.max), value: String(bar.value),
                         "aria-hidden": "true" }) : null,
      score !== null && typeof score === "object" ? score
        : h("span", scoreTitle ? { class: "score", title: scoreTitle } : { class: "score" }, score === undefined ? null : score),
      more);
  }

  /** A list that has no passage to show: one muted row saying why. */
  const emptyRow = (text) => h("li", { class: "result is-muted empty-list" }, h("span", { class: "rank" }),
    h("span", { class: "pid" }, text), h("span", { class: "score" }));

  /** What a drawing's parts say, as text: strings as they are, elements by their text. */
  function spoken(parts) {
    if (parts === null || parts === undefined || parts === false || parts === true) return "";
    if (typeof parts === "string" || typeof parts === "number") return String(parts);
    if (Array.isArray(parts)) return parts.map(spoken).join("");
    return parts.props ? spoken(parts.props.children) : "";
  }

  /**
   * The dot a tap or a click meant (browser only: it measures the dots): of `dots`, the one whose
   * middle is nearest the event's point, within `reach` px (a finger's width: dots are small on
   * a phone); null when none is that near.
   * Example: nearestDot(svg.querySelectorAll("circle.map-passage"), event) -> the circle of err-4021, or null
   */
  function nearestDot(dots, { clientX, clientY }, reach = 22) {
    let best = null;
    for (const dot of dots) {
      const box = dot.getBoundingClientRect();
      const distance = Math.hypot(box.x + box.width / 2 - clientX, box.y + box.height / 2 - clientY);
      if (distance <= reach && (!best || distance < best.distance)) best = { dot, distance };
    }
    return best ? best.dot : null;
  }

  const MOVES = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

  /**
   * A drawing's dots as one tab stop (browser only): a dot of `selector` under the view's output
   * that takes the focus is handed to `focused(dot)` (the view names its passage or question and
   * moves the tab stop to it, so Tab comes back to it); the arrow keys move the focus to the next
   * or the previous dot in `order` (the drawing's, by default), Home and End to the first and last.
   * Example: roveDots(ctx, "svg.map circle.map-passage", (dot) => ctx.show({ picked: dot.dataset.pid, stop: dot.dataset.pid }))
   */
  function roveDots(ctx, selector, focused, order = (dots) => dots) {
    const dotOf = (target) => (target && target.closest ? target.closest(selector) : null);
    ctx.on(ctx.output, "focusin", (event) => {
      const dot = dotOf(event.target);
      if (dot) focused(dot);
    });
    ctx.on(ctx.output, "keydown", (event) => {
      const dot = dotOf(event.target);
      if (!dot) return;
      const all = order([...ctx.output.querySelectorAll(selector)]);
      const at = all.indexOf(dot);
      const next = event.key === "Home" ? all[0] : event.key === "End" ? all[all.length - 1] : all[at + (MOVES[event.key] || NaN)];
      if (!next) return;
      event.preventDefault();
      if (!next.hasAttribute("tabindex")) next.setAttribute("tabindex", "-1");  // focusable until the view moves its tab stop
      next.focus();
    });
  }

  RAG.kit = { onSlider, rankOf, placesOf, placeOf, rank, row, emptyRow, spoken, tieText, nearestDot, roveDots };

  /* The passage card's opener (browser only; the build's Node renderer has no document). */
  if (typeof document === "undefined" || !document.addEventListener) return;
  let loaded = null;
  const loadCard = () => {
    if (!loaded) {
      const assets = RAG.assets();
      const style = new Promise((resolve, reject) => {
        const link = RAG.el("link", { rel: "stylesheet", href: assets.styles.card });
        link.onload = resolve;
        link.onerror = () => reject(new Error("assets/card.css could not be loaded"));
        document.head.appendChild(link);
      });
      loaded = Promise.all([RAG.loadScript(assets.scripts.card), style]);
    }
    return loaded;
  };
  const openCard = (event, trigger, pid) => {
    const section = trigger.closest("section.lab[data-lab]");
    if (!section || !pid) return;
    event.preventDefault();
    Promise.all([RAG.startLab(section), loadCard()]).then(() => RAG.card.open(section, pid, trigger))
      .catch((error) => RAG.showLabError(section, `The passage card could not open (${error.message}).`));
  };
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.pid-open, [data-pid][tabindex] .pid code");
    if (button) openCard(event, button, button.closest("[data-pid]").dataset.pid);
  });
  document.addEventListener("keydown", (event) => {
    const item = event.target;
    if (event.key !== "Enter" || !item.matches || !item.matches("[data-pid][tabindex]:not(button)")) return;
    if (item.closest(".card-host")) return;
    openCard(event, item, item.dataset.pid);
  });
})();
