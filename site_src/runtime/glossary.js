/* glossary.js: a glossary term in the prose (a.term, href="#term-<slug>") opens its definition in a
 * popover on hover, on keyboard focus and on a tap (a second tap follows the link to the
 * glossary, as does the popover's own link); Escape closes it. The definition is the glossary's own dd#term-def-<slug>, which
 * the link is described by (runtime/terms.js says so at load), so screen readers hear it without
 * the popover. One set of listeners on the document serves every term; a popover is made the
 * first time it opens. This file is loaded by runtime/terms.js the first time a reader reaches a
 * term (hover, focus, a tap), which hands it that event and those after it (assets/scripts/glossary.js). */
(() => {
  "use strict";
  const RAG = window.RAG;
  const TERM = 'a.term[href^="#term-"]';
  const slugOf = (link) => link.getAttribute("href").slice("#term-".length);

  RAG.termPopups = () => {
    const popups = new Map();  // slug -> popup element
    let openLink = null;
    let hideTimer = null;
    let dismissed = null;      // the link whose popup Escape closed: stays closed until left
    let lastPointer = "mouse";
    let tapWasOpen = false;

    const termOf = (target) => (target && target.closest ? target.closest(TERM) : null);

    function popupFor(slug) {
      if (popups.has(slug)) return popups.get(slug);
      const dt = document.getElementById(`term-${slug}`);
      const dd = document.getElementById(`term-def-${slug}`);
      if (!dt || !dd) return null;
      const popup = RAG.el("div", { class: "term-popup", id: `term-popup-${slug}`, role: "tooltip", hidden: true },
        RAG.el("span", { class: "term-popup-term" }, dt.textContent.trim()),
        RAG.el("span", { class: "term-popup-text" }, dd.textContent.replace(/\s+/g, " ").trim()),
        // Out of the tab order: a keyboard follows the term's own link. On a phone this is the
        // way to the glossary's entry, and to the terms around it.
        RAG.el("a", { class: "term-popup-more", href: `#term-${slug}`, tabindex: "-1" }, "In the glossary \u2192"));
      popup.addEventListener("mouseenter", cancelHide);
      popup.querySelector("a").addEventListener("click", () => hideNow());
      popup.addEventListener("mouseleave", () => scheduleHide(250));
      document.body.appendChild(popup);
      popups.set(slug, popup);
      return popup;
    }

    function place(popup, link) {
      popup.style.left = "0px";
      popup.style.top = "0px";
      const rects = link.getClientRects();
      const box = rects.length ? rects[0] : link.getBoundingClientRect();
      const viewWidth = document.documentElement.clientWidth;
      const left = Math.max(8, Math.min(box.left, viewWidth - popup.offsetWidth - 8));
      let top = box.bottom + 6;
      if (top + popup.offsetHeight > window.innerHeight - 8 && box.top - popup.offsetHeight - 6 > 8) {
        top = box.top - popup.offsetHeight - 6;
      }
      popup.style.left = `${Math.round(left + window.scrollX)}px`;
      popup.style.top = `${Math.round(top + window.scrollY)}px`;
    }

    function show(link) {
      cancelHide();
      if (dismissed === link) return;
      const popup = popupFor(slugOf(link));
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
      const popup = popups.get(slugOf(openLink));
      if (popup) popup.hidden = true;
      openLink.classList.remove("is-open");
      openLink = null;
    }

    function scheduleHide(delay) {
      cancelHide();
      hideTimer = window.setTimeout(hideNow, delay);
    }

    function cancelHide() {
      window.clearTimeout(hideTimer);
      hideTimer = null;
    }

    const on = {
      mouseover(event) {
        const link = termOf(event.target);
        if (link && lastPointer !== "touch" && !link.contains(event.relatedTarget)) show(link);
      },
      mouseout(event) {
        const link = termOf(event.target);
        if (!link || link.contains(event.relatedTarget)) return;
        if (dismissed === link) dismissed = null;
        if (openLink === link && document.activeElement !== link) scheduleHide(250);
      },
      focusin(event) {
        const link = termOf(event.target);
        if (link) show(link);
      },
      focusout(event) {
        const link = termOf(event.target);
        if (!link) return;
        if (dismissed === link) dismissed = null;
        if (openLink === link) scheduleHide(lastPointer === "touch" ? 0 : 120);
      },
      pointerdown(event) {  // listened to in the capture phase
        lastPointer = event.pointerType || "mouse";
        const link = termOf(event.target);
        tapWasOpen = !!link && openLink === link;
        if (openLink && !link && !(event.target.closest && event.target.closest(".term-popup"))) hideNow();
      },
      click(event) {
        const link = termOf(event.target);
        // A tap opens the definition; a second tap follows the link to the glossary.
        if (link && (lastPointer === "touch" || lastPointer === "pen") && !tapWasOpen) {
          event.preventDefault();
          dismissed = null;
          show(link);
        }
      },
      keydown(event) {
        if (event.key !== "Escape" || !openLink) return;
        dismissed = openLink;  // focus stays where it is
        hideNow();
      },
    };
    window.addEventListener("resize", () => { if (openLink) place(popups.get(slugOf(openLink)), openLink); });
    return (event) => on[event.type] && on[event.type](event);
  };
})();
