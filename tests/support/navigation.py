"""What the navigation tests share (tests/page/test_navigation*.py): a reader on a slow device
who follows links while every painted frame is watched, and the scenario every run plays.
See tests/page/test_navigation.py for what is measured and why."""

import json
import random

import pytest
from playwright.sync_api import expect

from support.paths import ARTIFACTS

SLOWDOWN = 4         # Chromium's CPU throttling: a phone-like CPU
SETTLE_MS = 300      # by then the target is in place...
QUIET_MS = 500       # ...and it stays there until the page has had nothing left to do for this long
WATCH_MAX_MS = 10_000  # (the page's pin, PIN_MS in navigate.js: a page still busy then is judged as it is)
BAND = (0, 120)      # px from the top of the screen
STILL_PX = 2         # how much a landed target may move while it is watched
ATTEMPTS = 3         # runs on a fresh page, when a jump's frames were right but late (on_fresh_pages)
DEVICES = {
    1280: {"viewport": {"width": 1280, "height": 900}},
    390: {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
MOTIONS = {"smooth": "no-preference", "reduced": "reduce"}
TOC_PER_RUN = 6  # of the 15 entries, over the two runs: 12, in a shuffled order

# Samples what the reader sees: after each frame is painted (a task posted from the frame's
# requestAnimationFrame callback), the watched element's top. A click on a "#" link or a
# popstate starts the clock.
#
# And when the jump's late work is over, which ends the watch (__nav.finished()). The page
# works late after a jump: a section far away drawn for the first time, a lab reached and
# started (its scripts fetched, then drawn), the contents' current entry marked. Each of those
# is seen here: a change to the document (a MutationObserver), a change of height of the page
# or of one of its blocks (a ResizeObserver on the blocks runtime/navigate.js pins against), a
# file still loading (a script, stylesheet or image the page adds, a fetch), a timer, animation
# frame or idle callback the page has asked for and that has not run yet, and a CSS animation or
# transition still to run. The watch ends, at a frame, once no change has been seen for QUIET_MS,
# nothing is pending, and the screen has been watched for at least SETTLE_MS + QUIET_MS; or at
# WATCH_MAX_MS. (A long task of the page holds the frames back, so the check comes after it,
# and sees what it changed or scheduled. Workers, IndexedDB and messages are not watched: the
# page uses them only when the reader asks for the model or brings documents, never on a jump.) Installed before the page's own scripts
# run (reader_on_a_slow_device), so every timer the page ever sets is seen (a test's own timer,
# set through page.evaluate, too). The files the parser loads are left out: the page's load
# event, which the reader waits for, waits for them.
WATCHER_JS = r"""(() => {
  if (window.__nav) return;
  const raf = window.requestAnimationFrame.bind(window);
  const now = () => performance.now();
  const nav = window.__nav = { t0: null, el: null, samples: [], lastWork: 0, idleAt: null, workAfterIdle: [],
                               watchedAt: 0, pending: 0, loading: 0, ends: [] };
  const worked = (what) => {
    const t = now();
    nav.lastWork = t;
    if (nav.idleAt !== null && nav.t0 !== null) nav.workAfterIdle.push([Math.round(t - nav.t0), what]);
  };

  // The page's own timers, frames and idle callbacks: pending until they run or are cancelled.
  const KINDS = [["setTimeout", "clearTimeout"], ["setInterval", "clearInterval"],
                 ["requestAnimationFrame", "cancelAnimationFrame"], ["requestIdleCallback", "cancelIdleCallback"]];
  for (const [set, clear] of KINDS) {
    const original = window[set], cancel = window[clear];
    if (!original) continue;
    const live = new Map();  // id -> true while it is pending
    const repeats = set === "setInterval";
    window[set] = function (callback, ...rest) {
      if (typeof callback !== "function") return original.call(window, callback, ...rest);
      let id = null;
      const run = function (...args) {
        if (!repeats && live.delete(id)) nav.pending -= 1;
        worked(set);
        return callback.apply(this, args);
      };
      id = original.call(window, run, ...rest);
      live.set(id, true);
      nav.pending += 1;
      return id;
    };
    window[clear] = function (id) {
      if (live.delete(id)) nav.pending -= 1;
      return cancel.call(window, id);
    };
  }
  const fetchOriginal = window.fetch;
  if (fetchOriginal) {
    window.fetch = function (...args) {
      nav.loading += 1;
      worked("fetch");
      const settled = () => { nav.loading -= 1; worked("fetch done"); };
      const result = fetchOriginal.apply(this, args);
      result.then(settled, settled);
      return result;
    };
  }
  // Files the page adds: loading until their load or error event.
  const LOADS = "script[src], link[href][rel~=stylesheet], link[href][rel~=preload], link[href][rel~=modulepreload], img[src], iframe[src]";
  const loads = (node) => {
    if (node.nodeType !== 1 || document.readyState === "loading") return;
    for (const el of [node, ...node.querySelectorAll(LOADS)]) {
      if (!el.matches(LOADS) || el.__navSeen || (el.matches("img") && el.complete)) continue;
      el.__navSeen = true;
      nav.loading += 1;
      const done = () => { el.removeEventListener("load", done); el.removeEventListener("error", done); nav.loading -= 1; worked("loaded"); };
      el.addEventListener("load", done);
      el.addEventListener("error", done);
    }
  };
  new MutationObserver((records) => {
    worked("mutation");
    for (const record of records) record.addedNodes.forEach(loads);
  }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const sizes = new ResizeObserver(() => worked("resize"));
  nav.observeBlocks = () => {
    sizes.observe(document.documentElement);
    document.querySelectorAll("header.site-header, nav.toc, main > *, footer").forEach((block) => sizes.observe(block));
  };

  const channel = new MessageChannel();
  const animating = () => document.getAnimations().some((a) => a.playState === "running" || a.pending);
  channel.port1.onmessage = () => {
    const t = now();
    if (nav.t0 === null || !nav.el) {
      // An action that never started the clock: given up on, and reported, at the same limit.
      if (nav.el && nav.ends.length && t - nav.watchedAt >= %(max)d) nav.ends.splice(0).forEach((end) => end(null));
      return;
    }
    const since = t - nav.t0;
    nav.samples.push([since, nav.el.getBoundingClientRect().top]);
    const quiet = !nav.pending && !nav.loading && t - Math.max(nav.lastWork, nav.t0) >= %(quiet)d && !animating();
    if (quiet && nav.idleAt === null && since >= %(settle)d) nav.idleAt = since;
    if ((quiet && since >= %(settle)d + %(quiet)d) || since >= %(max)d) {
      nav.ends.splice(0).forEach((end) => end({ watched: since, idle: quiet }));
    }
  };
  const frame = () => { channel.port2.postMessage(0); raf(frame); };
  raf(frame);
  nav.start = () => { nav.t0 = now(); nav.samples = []; nav.idleAt = null; nav.workAfterIdle = []; };
  nav.watch = (el) => {
    nav.observeBlocks();
    nav.el = el; nav.t0 = null; nav.samples = []; nav.watchedAt = now(); nav.idleAt = null; nav.workAfterIdle = [];
  };
  nav.finished = () => new Promise((end) => nav.ends.push(end));
  addEventListener("click", (e) => { if (e.target.closest && e.target.closest("a[href^='#']")) nav.start(); }, true);
  addEventListener("popstate", () => nav.start(), true);
})();""" % {"quiet": QUIET_MS, "settle": SETTLE_MS, "max": WATCH_MAX_MS}

# A reader's scroll: the element to the middle of the screen (then a pause, as a reader reads).
TO_MIDDLE_JS = "el => el.scrollIntoView({block: 'center', behavior: 'instant'})"


class LateFrame(AssertionError):
    """A jump whose every frame was right, but whose first frame came after SETTLE_MS."""


def on_fresh_pages(open_reader, read, attempts: int = ATTEMPTS):
    """read(open_reader()), on a fresh page each time, until no jump in it is late, up to
    `attempts` times.

    Every frame must be right in every run: a wrong one fails at once. How soon the first frame
    of a jump comes is the page's cost plus whatever else the machine does meanwhile (the tests
    run two browsers on two cores), and that noise only ever adds time. So a late frame starts
    the reading again on a fresh page, every section as cold as the first time, and the run that
    is judged is the best one, as a benchmark keeps its fastest run. A page that is slow to land
    is slow in every run and still fails."""
    late = []
    for _ in range(attempts):
        reader = open_reader()
        try:
            return read(reader)
        except LateFrame as error:
            reader.page.close()
            late.append(str(error))
    pytest.fail(f"late in each of {attempts} runs on a fresh page:\n  " + "\n  ".join(late), pytrace=False)


class Reader:
    """One reader on one page: follows links the way a person does and records every jump.

    The page's CPU is SLOWDOWN times slower while a jump is watched (from the action to the
    watch's end: everything judged), and at full speed while the reader reads between jumps.
    Chromium slows a page with a thread that interrupts the page's main thread all the time,
    and that thread costs about half a core even on an idle page (measured: 4.6 CPU-seconds in
    10 s of an idle corpus.html, against 0.06 unthrottled); the reader's pauses, scrolls and
    checks between jumps are not what is judged."""

    def __init__(self, page, width: int, cdp=None):
        self.page, self.width, self.phone = page, width, width < 1024
        self.jumps: list[dict] = []
        self.cdp = cdp
        page.evaluate(WATCHER_JS)  # (already there when the page was opened with it, which sees every timer)
        self.slow(False)

    def slow(self, on: bool) -> None:
        """The page's CPU SLOWDOWN times slower (on) or at full speed (with no CDP session: as it is)."""
        if self.cdp is not None:
            self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN if on else 1})

    def press(self, locator) -> None:
        if self.phone:
            locator.tap()
        else:
            locator.click()

    def watch(self, label: str, element, action, band=BAND) -> dict:
        """Do `action`, then watch `element` (a handle) until the page's late work is over (see
        WATCHER_JS); band: where its top must be.
        Raises LateFrame when every frame was right but the first one came after SETTLE_MS."""
        self.page.evaluate("el => __nav.watch(el)", element)
        self.slow(True)
        try:
            action()
            end = self.page.evaluate("() => __nav.finished()")
        finally:
            self.slow(False)
        assert end is not None, f"{label} at {self.width}px: no click on a '#' link, popstate or script started the clock"
        samples = self.page.evaluate("() => __nav.samples")
        painted = [sample for sample in samples if sample[0] <= SETTLE_MS]
        # What the screen shows from 300 ms on (from the first frame, if it came later): the last
        # frame painted by then, and every later one.
        shown = (painted[-1:] or samples[:1]) + [sample for sample in samples[1:] if sample[0] > SETTLE_MS]
        tops = [top for _, top in shown]
        jump = {"jump": label, "hash": self.page.evaluate("() => location.hash"),
                "top_at_300ms": round(tops[0]), "top_at_end": round(tops[-1]),
                "first_frame_ms": round(samples[0][0]), "frames": len(samples),
                "watched_ms": round(end["watched"]), "ended_idle": end["idle"]}
        self.jumps.append(jump)
        low, high = band
        wrong = [(round(t), round(top)) for t, top in shown if not low <= top <= high]
        assert not wrong, (f"{label} at {self.width}px: the target is not within {low}..{high}px of the top of "
                           f"the screen from {SETTLE_MS} ms on; (ms, top) where it is not: {wrong[:8]}")
        assert max(tops) - min(tops) <= STILL_PX, (
            f"{label} at {self.width}px: the target moved after landing, between {min(tops):.0f} and "
            f"{max(tops):.0f}px from the top")
        if not painted:
            raise LateFrame(f"{label} at {self.width}px: no frame was painted until {samples[0][0]:.0f} ms after "
                            f"the action, so at {SETTLE_MS} ms the screen still showed the page from before it")
        return jump

    def element(self, selector: str):
        return self.page.locator(selector).first.element_handle()

    def follow_toc(self, slug: str) -> dict:
        if self.phone:
            self.press(self.page.locator("nav.toc summary"))
        link = self.page.locator(f'nav.toc a[href="#{slug}"]')
        jump = self.watch(f"contents: {slug}", self.element(f"#{slug}"), lambda: self.press(link))
        assert jump["hash"] == f"#{slug}"
        if slug != "glossary" or not self.at_page_end():
            expect(self.page.locator('nav.toc a[aria-current="true"]')).to_have_attribute("href", f"#{slug}")
        return jump

    def at_page_end(self) -> bool:
        return self.page.evaluate("() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2")

    def read_to(self, locator) -> tuple:
        """Scroll `locator` to the middle of the screen as a reader would; (handle, its top)."""
        handle = locator.element_handle()
        height = self.page.viewport_size["height"]
        tops = []
        # Sections above that were skipped (content-visibility: auto) take their real height as
        # they come near the screen, which can carry the link off it after the scroll (it once
        # stood at 3681 px on a phone); a reader scrolls to it again, and so does this, up to
        # five times.
        for _ in range(5):
            handle.evaluate(TO_MIDDLE_JS)
            self.page.wait_for_timeout(400)
            tops.append(handle.evaluate("el => el.getBoundingClientRect().top"))
            if 100 < tops[-1] < height - 100:
                break
        top = tops[-1]
        assert 100 < top < height - 100, f"the link to follow is not on the screen (its top after each scroll: {tops})"
        return handle, top

    def follow_link(self, label: str, locator, target_id: str) -> tuple:
        """Click (or tap twice, for a glossary term on a phone) a link in the prose. Returns where
        the link was, for Back."""
        link, top = self.read_to(locator)
        if self.phone and locator.get_attribute("class") == "term":
            locator.tap()  # the first tap opens the definition
            expect(self.page.locator(f"#term-popup-{locator.get_attribute('href').removeprefix('#term-')}")).to_be_visible()
        self.watch(label, self.element(f"#{target_id}"), lambda: self.press(locator))
        return link, top

    def back_to(self, label: str, element, top: float) -> dict:
        return self.watch(label, element, lambda: self.page.evaluate("() => history.back()"),
                          band=(top - 4, top + 4))

    def forward(self, label: str, target_id: str) -> dict:
        return self.watch(label, self.element(f"#{target_id}"), lambda: self.page.evaluate("() => history.forward()"))


def reader_on_a_slow_device(make_page, site_url, width: int, motion: str) -> Reader:
    """A page loaded on a CPU SLOWDOWN times slower, and a reader on it (who reads at full speed
    between jumps: see Reader)."""
    page = make_page(**DEVICES[width], reduced_motion=MOTIONS[motion])
    page.add_init_script(WATCHER_JS)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOWDOWN})
    page.goto(site_url + "index.html")
    page.wait_for_load_state("load")
    page.wait_for_timeout(500)
    assert page.evaluate("() => getComputedStyle(document.querySelector('.chapter:last-of-type')).contentVisibility") \
        == "auto", "the test must see far sections skipped, as a reader does"
    return Reader(page, width, cdp)


def toc_slugs(page) -> list[str]:
    return page.eval_on_selector_all("nav.toc a[href^='#']", "links => links.map(a => a.getAttribute('href').slice(1))")


def shuffled_share(slugs: list[str], run: int) -> list[str]:
    """This run's share of the contents, in a shuffled order; the runs share them out."""
    order = random.Random(17).sample(slugs, len(slugs))
    start = run * len(slugs) // len(RUNS)
    return [order[(start + i) % len(order)] for i in range(TOC_PER_RUN)]


def first_reachable_term(page) -> tuple[str, str]:
    """(the term's slug, its glossary entry's id) for the first glossary entry that a term in the
    prose links to: the entries near the end of the page cannot reach the top of the screen."""
    return tuple(page.evaluate("""() => {
        for (const dt of document.querySelectorAll('dl.glossary dt[id]')) {
            const link = document.querySelector(`main section:not(#glossary) a.term[href="#${dt.id}"]`);
            if (link) return [link.getAttribute('href').slice('#term-'.length), dt.id];
        }
        return null;
    }"""))


# A wide screen with motion allowed, and a phone that asks for reduced motion: the page never
# animates a jump (navigate.js), so each width is tried with one of the two preferences.
RUNS = [(1280, "smooth"), (390, "reduced")]



def every_jump_lands(make_page, site_url, width: int, motion: str) -> None:
    """The contents in a shuffled order, a glossary term, Back, Forward, a cross-reference to a lab's
    state, Back twice more, and a hash a script sets: each watched as the module docstring says,
    in the best of up to ATTEMPTS runs (on_fresh_pages)."""
    on_fresh_pages(lambda: reader_on_a_slow_device(make_page, site_url, width, motion),
                   lambda reader: jumps_of_one_reading(reader, width, motion))


def jumps_of_one_reading(reader: Reader, width: int, motion: str) -> None:
    page = reader.page
    slugs = toc_slugs(page)
    assert "glossary" in slugs and len(slugs) >= 10
    entries_before = page.evaluate("() => history.length")

    # The contents, in a shuffled order, each from where the last one landed.
    share = shuffled_share(slugs, RUNS.index((width, motion)))
    for slug in share:
        reader.follow_toc(slug)
    assert page.evaluate("() => history.length") == entries_before + len(share), "each link adds one history entry"

    # A glossary term in the prose, to its entry at the end of the page; Back puts the reader
    # where they were; Forward goes to the entry again.
    slug, entry = first_reachable_term(page)
    term = page.locator(f'main a.term[href="#{entry}"]').first
    term_link, term_top = reader.follow_link(f"glossary term: {slug}", term, entry)
    assert page.evaluate("() => document.querySelector(':target') && document.querySelector(':target').id") == entry
    reader.back_to(f"Back from the glossary entry {entry}", term_link, term_top)
    reader.forward(f"Forward to the glossary entry {entry}", entry)

    # A cross-reference in the prose to a lab's state (#lab-x?key=value names no element the
    # browser finds).
    reference = page.locator("main section.chapter > p a[href^='#lab-']:not(.term)").first
    target = reference.get_attribute("href").split("?")[0][1:]
    link, top = reader.follow_link(f"cross-reference {reference.get_attribute('href')}", reference, target)
    reader.back_to(f"Back from {target}", link, top)

    # Back twice more: to the glossary term's place, then to where the last contents' entry
    # was followed from (the one before it, as it had landed).
    reader.back_to("Back to the glossary term's place", term_link, term_top)
    reader.back_to(f"Back to the contents' entry {share[-2]}", reader.element(f"#{share[-2]}"),
                   reader.jumps[len(share) - 2]["top_at_end"])

    # A hash a script sets.
    scripted = random.Random(width).choice([s for s in slugs if s not in share[-2:]])
    reader.watch(f"script: location.hash = #{scripted}", reader.element(f"#{scripted}"),
                 lambda: page.evaluate("slug => { __nav.start(); location.hash = '#' + slug; }", scripted))

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"navigation-{width}px-{motion}.json").write_text(json.dumps(reader.jumps, indent=1) + "\n")
