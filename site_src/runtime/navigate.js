/* navigate.js: every jump inside the page puts its target at the top of the screen at once, and
 * keeps it there. That covers a shared link opened in a new tab, a click on any "#…" link (the
 * contents, cross-references, glossary terms, lab links such as #lab-x?key=value), Back and
 * Forward, a reload, and a hash changed by a script.
 *
 * Why it takes this much: sections far from the screen are not laid out until the reader nears
 * them (content-visibility: auto in layout.css, which keeps a phone's first load cheap). Until
 * then each has a guessed height, so a jump is aimed with guesses, and the sections drawn on the
 * way in take their real heights and push the target off the screen. Measured before this file
 * existed (Chromium, smooth scrolling): "Glossary" from the top of the page stopped 20,985 px
 * short at 1280 px. So:
 *   - A jump is instant, whatever the distance. A smooth scroll across skipped sections is aimed
 *     once, at the start, with the guesses, and cannot land (the stylesheet no longer asks for
 *     one, which also lets readers without JavaScript land: Chromium keeps an instantly reached
 *     target in place). Even a short glide is left out: Chromium's smooth scroll takes about
 *     280 ms for 200 px, so the target would still be moving when it should be in place
 *     (300 ms). No motion also respects prefers-reduced-motion without a second path.
 *   - After a jump the target is pinned: a ResizeObserver on the page's big blocks puts it back in
 *     place in the same frame whenever something above it changes height (a section drawn for
 *     the first time, a lab's controls put in), before anything is painted. The pin ends as soon
 *     as the reader scrolls, types, clicks or touches, when another script scrolls, and
 *     otherwise PIN_MS after the jump.
 *   - A link's target inside a closed <details> (an aside, an answer) opens it first, so it can
 *     be measured and seen.
 *   - Links still navigate the browser's own way (location.hash): a new history entry, :target,
 *     the keyboard's starting point and the hashchange event (labs.js applies a lab's state on
 *     it) are the browser's. Only the scrolling is this file's.
 *   - Back and Forward: the browser's own restoration is turned off (history.scrollRestoration =
 *     "manual"); it restores a pixel offset, which is wrong as soon as heights differ. Instead the
 *     reader's place is kept in the history entry (history.state.ragAnchor: the block at the top
 *     of the screen and its offset), written when scrolling pauses and just before a link is
 *     followed, and restored, then pinned, on popstate and on a reload.
 * The runtime is in the page's head, so the first landing happens while the page is still being
 * read: the moment the target and enough of the page below it to hold it at the top have arrived
 * (arrivedBelow), long before the rest of the page has. */
(() => {
  "use strict";
  const RAG = window.RAG;
  const PIN_MS = 10000;        // how long a target is held without the reader doing anything
  const REMEMBER_AFTER_MS = 250; // the reader's place is written once scrolling pauses this long
  // The big blocks whose height decides where everything below them sits.
  const BLOCKS = "header.site-header, nav.toc, main > *, footer";

  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";

  const targetOf = (hash) => {
    const { id } = RAG.hash.parse(hash);
    return id ? document.getElementById(id) : null;
  };
  const marginOf = (el) => parseFloat(getComputedStyle(el).scrollMarginTop) || 0;

  /** Open every closed <details> around the target (and a lab's controls above it), so that what
   *  the target's place depends on is there before it is measured. A closed one's own summary is
   *  seen as it is: a reader's place kept on a closed deep dive's summary leaves it closed on a
   *  reload (opened, it pushed what followed it 1,929 px down on a phone). */
  function reveal(target) {
    for (let details = target.parentElement && target.parentElement.closest("details:not([open])"); details;
         details = details.parentElement && details.parentElement.closest("details:not([open])")) {
      const summary = details.querySelector(":scope > summary");
      if (!(summary && summary.contains(target))) details.open = true;
    }
    const lab = target.closest("section.lab");
    if (lab && RAG.showControls) RAG.showControls(lab);
  }

  /* ------------------------------------------------------------ the pin */

  let pin = null;  // {el, offset, placedAt, until}
  let sizes = null;

  function observeBlocks() {
    if (!sizes) return;
    sizes.observe(document.documentElement);
    document.querySelectorAll(BLOCKS).forEach((block) => sizes.observe(block));
  }

  function release() {
    pin = null;
  }

  /** Put the pinned element at its offset from the top of the screen (within a pixel). */
  function place() {
    if (!pin) return;
    if (performance.now() > pin.until || !pin.el.isConnected) {
      release();
      return;
    }
    const off = pin.el.getBoundingClientRect().top - pin.offset;
    if (Math.abs(off) > 1) window.scrollBy({ top: off, behavior: "instant" });
    pin.placedAt = window.scrollY;
  }

  /** Anything that moved the page since this file last placed it, other than the end of the
   *  page coming up to meet the screen (the page got shorter), was someone else: the reader, a
   *  screen reader, find-in-page, another script. */
  function movedByOthers() {
    if (!pin || pin.placedAt === null) return false;
    const y = window.scrollY;
    const bottom = document.documentElement.scrollHeight - window.innerHeight;
    return Math.abs(y - pin.placedAt) > 1 && !(y < pin.placedAt && y >= bottom - 1);
  }

  /** Whether enough of the page has arrived below `el` to hold it at the top of the screen: the
   *  block after the target's has arrived whole (the one after that has begun), or the footer
   *  has. A block still arriving has only part of its height, and a far one a guessed height
   *  that its real one replaces when it is drawn; landed before, the target would show lower
   *  down for a frame or two and jump (seen on a slow phone on a slow network). */
  function arrivedBelow(el) {
    if (document.querySelector("footer.site-footer")) return true;
    const blocks = [...document.querySelectorAll(BLOCKS)];
    const i = blocks.findIndex((block) => block.contains(el));
    return i >= 0 && i + 2 < blocks.length;
  }

  /** Land `el` at `offset` px from the top of the screen (its scroll-margin-top by default), at
   *  once, and hold it there. */
  function land(el, offset = marginOf(el)) {
    // scrollIntoView also tells Chromium to draw a skipped section the target is in at once.
    el.scrollIntoView({ block: "start", inline: "nearest", behavior: "instant" });
    pin = { el, offset, placedAt: null, until: performance.now() + PIN_MS };
    place();
    if (!sizes && window.ResizeObserver) sizes = new ResizeObserver(() => (movedByOthers() ? release() : place()));
    observeBlocks();
    performance.mark("rag:landed", { detail: el.id || null });  // for tests and the benchmark
  }

  /* ------------------------------------------------- the reader's place */

  /** Whether `node` is, or is inside, something stuck to the screen within `main` (a lab's control
   *  bar): where it shows says nothing about where the page is. */
  function onTheGlass(node, main) {
    for (let el = node; el && el !== main; el = el.parentElement) {
      const position = getComputedStyle(el).position;
      if (position === "sticky" || position === "fixed") return true;
    }
    return false;
  }

  /** The block at the top of the screen: the nearest element with an id around what is there
   *  (and which of its children), and how far from the top it is. Each of a few heights near the
   *  top is tried, below anything sticky (the contents bar on a phone, a lab's control bar), and
   *  the block whose top is nearest the top of the screen is kept: a tall one that began far above
   *  (a long section's end, a lab's output) would carry every change of height inside it, above
   *  the screen, into the place restored (seen on a phone: a place kept 12,143 px down the long
   *  section above "Try it on your documents", and Back 87 px off). Above the article (the header, whose height never
   *  depends on a skipped section), the scroll offset: {y}. */
  function anchorNow() {
    const main = document.querySelector("main");
    const above = { y: Math.round(window.scrollY) };
    if (!main || main.getBoundingClientRect().top > 160) return above;
    const box = main.getBoundingClientRect();
    const x = Math.min(Math.max(box.left + box.width / 2, 0), window.innerWidth - 1);
    let best = null;
    for (const y of [8, 48, 96, 160]) {
      const hit = document.elementsFromPoint(x, y)
        .find((node) => main.contains(node) && node !== main && !onTheGlass(node, main));
      if (!hit) continue;
      let holder = hit;
      let child = null;
      while (holder !== main && !holder.id) {
        child = holder;
        holder = holder.parentElement;
      }
      if (holder === main) continue;
      const index = child ? [...holder.children].indexOf(child) : -1;
      const offset = Math.round((child || holder).getBoundingClientRect().top);
      if (!best || Math.abs(offset) < Math.abs(best.offset)) best = { id: holder.id, index, offset };
    }
    return best || above;
  }

  /** The element an anchor names, or null while it is not there yet (the page still loading). */
  function anchored(anchor) {
    const holder = document.getElementById(anchor.id);
    if (!holder || anchor.index < 0) return holder;
    return holder.children[anchor.index] || (document.readyState === "loading" ? null : holder);
  }

  function remember() {
    const place = anchorNow();
    const state = window.history.state && typeof window.history.state === "object" ? window.history.state : {};
    try {
      window.history.replaceState({ ...state, ragAnchor: place }, "");
    } catch (error) {
      // Some browsers refuse replaceState on file:// URLs; Back then lands on the link's target.
    }
  }

  /** Go back to a remembered place. False when it names nothing on this page. */
  function restore(anchor) {
    if (anchor.y !== undefined) {
      release();
      window.scrollTo({ top: anchor.y, behavior: "instant" });
      return true;
    }
    const el = anchored(anchor);
    if (!el) return false;
    land(el, anchor.offset);
    return true;
  }

  /* ------------------------------------------------------------- events */

  let handledUrl = null;  // the URL this file has just landed for (its hashchange is not news)

  /** Follow a "#…" link the browser's way, then land on its target. */
  function follow(hash, target) {
    remember();
    reveal(target);
    window.location.hash = hash;  // history entry, :target, focus starting point, hashchange
    handledUrl = window.location.href;
    land(target);
  }

  function onClick(event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey
        || event.altKey) return;
    const link = event.target.closest && event.target.closest("a[href^='#']");
    if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
    const hash = link.getAttribute("href");
    const target = targetOf(hash);
    if (!target) return;
    event.preventDefault();
    follow(hash, target);
  }

  function onHashChange() {
    if (window.location.href === handledUrl) return;
    handledUrl = window.location.href;
    const target = targetOf(window.location.hash);
    if (!target) return;
    reveal(target);
    land(target);
  }

  function onPopState(event) {
    handledUrl = window.location.href;
    const anchor = event.state && event.state.ragAnchor;
    if (anchor && restore(anchor)) return;
    const target = targetOf(window.location.hash);
    if (target) {
      reveal(target);
      land(target);
    } else if (!window.location.hash) {
      restore({ y: 0 });
    }
  }

  let rememberTimer = null;
  function onScroll() {
    if (movedByOthers()) release();
    window.clearTimeout(rememberTimer);
    rememberTimer = window.setTimeout(remember, REMEMBER_AFTER_MS);
  }

  /* ---------------------------------------------------- the first load */

  /** A shared link (#section, #lab-x, #lab-x?state) or a reload (the place kept in the history
   *  entry): land as soon as the element and enough of the page below it have arrived, while the
   *  rest of the page is still arriving. */
  function landOnLoad() {
    const saved = window.history.state && window.history.state.ragAnchor;
    const hash = window.location.hash;
    if (!saved && !RAG.hash.parse(hash).id) return;
    let controlsShown = false;
    let landed = false;
    let parsing = null;
    let fetching = null;  // the lab's controls, asked for once (runtime/labs.js)
    const attempt = () => {
      if (saved && saved.y !== undefined) {
        // Above the article: once the page is long enough to scroll there.
        const short = document.documentElement.scrollHeight < saved.y + window.innerHeight;
        if (short && document.readyState === "loading") return false;
        window.scrollTo({ top: saved.y, behavior: "instant" });
        return true;
      }
      // The kept place, or the link's target when the place is gone (a rebuilt page).
      const kept = saved && anchored(saved);
      const el = kept || (saved && document.readyState === "loading" ? null : targetOf(hash));
      if (!el) return false;
      // A lab's controls go in before anything is painted below them, so its output does not
      // move down when the lab starts a moment later. A template the parser has not finished
      // is left for later, and so is a lab whose controls are still on their way.
      const lab = el.closest("section.lab");
      if (lab && !controlsShown) controlsShown = RAG.showControls(lab);
      if (lab && !controlsShown) {
        fetching = fetching || RAG.loadControls().then(tryLanding, () => {});
        return false;
      }
      reveal(el);
      if (document.readyState === "loading" && !arrivedBelow(el)) return false;
      land(el, kept ? saved.offset : undefined);
      return true;
    };
    const tryLanding = () => {
      if (landed || !attempt()) return;
      landed = true;
      if (parsing) parsing.disconnect();
    };
    // A link to a lab asks for its controls now, while the page arrives (once the rest of the
    // runtime, which fetches them, has run).
    if (!saved && RAG.hash.labOf(hash)) {
      queueMicrotask(() => { fetching = fetching || RAG.loadControls().then(tryLanding, () => {}); });
    }
    tryLanding();
    if (landed) return;
    parsing = new MutationObserver(tryLanding);
    parsing.observe(document.documentElement, { childList: true, subtree: true });
    document.addEventListener("DOMContentLoaded", () => {
      parsing.disconnect();
      if (!pin && attempt()) landed = true;
    }, { once: true });
  }

  landOnLoad();
  document.addEventListener("DOMContentLoaded", observeBlocks, { once: true });
  window.addEventListener("load", () => { if (pin) pin.until = Math.max(pin.until, performance.now() + PIN_MS); },
    { once: true });
  // Registered on the window, so it runs after the document's own click handlers (a glossary
  // term's first tap opens its definition and cancels the click).
  window.addEventListener("click", onClick);
  window.addEventListener("hashchange", onHashChange);
  window.addEventListener("popstate", onPopState);
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("pagehide", remember);
  for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) {
    window.addEventListener(type, release, { passive: true, capture: true });
  }
})();
