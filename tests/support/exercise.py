"""Drive every control of every lab on the page, the way a curious reader would: reach the lab
(which starts it), then each radio, each option of each select, each button, and a text typed
into each text field. A passage id's button opens the passage card over the lab: each passage's
card is read once a lab, then closed with Escape before the next control, as a reader closes it
to reach what it covers.

All of it runs in the page, in one round trip (EXERCISE_JS): the controls fire the events a
reader's hand would (a click on a radio's label, input and change from a select or a slider, input
from a text field, Escape in the open card), which run the labs' own handlers; one Playwright call
per control took 40 s for the whole page."""

TYPED = "refund after 3 weeks"

# The kinds of control, in the order a lab's are driven.
KINDS = ("input[type=radio]", "input[type=checkbox]", "select", "button",
         "input[type=text], input[type=search], textarea", "input[type=range], input[type=number]")

EXERCISE_JS = r"""async ([kinds, typed, maxControls]) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const until = async (what, test, ms = 10000) => {
        const end = performance.now() + ms;
        while (!test()) {
            if (performance.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
            await frame();
        }
    };
    const visible = (el) => { const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden"; };
    const fire = (el, ...types) => types.forEach((type) => el.dispatchEvent(new Event(type, { bubbles: true })));
    let used = 0;
    // The labs the build drew (data-lab): not the boxes a lab adds beside itself once started (the
    // documents lab's hidden views), which would also shift the indices below as they arrive.
    const labs = [...document.querySelectorAll("section.lab[data-lab]")];
    for (const lab of labs) {
        // Its chapter laid out first, so its place is real when it is scrolled to (navigation
        // itself is tests/page/test_navigation.py's concern, not this one's).
        const chapter = lab.closest(".chapter");
        if (chapter) chapter.style.contentVisibility = "visible";
        lab.style.contentVisibility = "visible";
        for (let d = lab.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
        lab.scrollIntoView({ block: "center" });
        await until(`${lab.id} to be ready`, () => lab.dataset.labState === "ready");
        const carded = new Set();  // the passages whose card was opened in this lab
        for (const kind of kinds) {
            const count = lab.querySelectorAll(kind).length;
            for (let index = 0; index < count; index++) {
                if (used >= maxControls) return used;
                // Looked up again each time: a control used before may have redrawn the lab.
                const control = lab.querySelectorAll(kind)[index];
                const toggle = kind.startsWith("input[type=radio]") || kind.startsWith("input[type=checkbox]");
                if (!control || control.matches(":disabled") || !(toggle || visible(control))) continue;
                if (kind === "select") {
                    const values = [...control.options].map((o) => o.value);
                    // The first, a middle and the last option: every kind of entry, at a third of the time.
                    for (const value of new Set(values.length ? [values[0], values[values.length >> 1], values[values.length - 1]] : [])) {
                        control.value = value;
                        fire(control, "input", "change");
                        await frame();
                    }
                } else if (kind.startsWith("input[type=text]")) {
                    control.focus();
                    control.value = typed;
                    fire(control, "input");
                } else if (kind.startsWith("input[type=range]")) {
                    control.focus();
                    control.stepUp();  // what ArrowRight does to a slider
                    fire(control, "input", "change");
                } else if (toggle) {
                    // Segmented controls draw their label over the native input: click what a reader clicks.
                    const label = control.closest("label");
                    if (label) label.click();
                    else if (!control.checked) control.click();
                } else {
                    const pid = control.matches("button.pid-open") ? control.closest("[data-pid]").dataset.pid : null;
                    if (pid !== null && carded.has(pid)) continue;  // its card was read in this lab already: the same text again
                    control.click();
                    if (pid !== null) {
                        carded.add(pid);
                        // The card opens (its script and style load the first time), then Escape closes it.
                        await until(`the card of ${pid} in ${lab.id}`, () => { const box = lab.querySelector(".card-host .card-box"); return box && visible(box); });
                        document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
                        await until(`the card of ${pid} in ${lab.id} to close`, () => !lab.querySelector(".card-host"));
                    }
                }
                await frame();
                used += 1;
            }
        }
    }
    return used;
}"""


def exercise_labs(page, typed: str = TYPED, max_controls: int = 400) -> int:
    """Use every lab control once, in the page (EXERCISE_JS); returns how many were used.

    Example: assert exercise_labs(page) > 0
    """
    return page.evaluate(EXERCISE_JS, [list(KINDS), typed, max_controls])
