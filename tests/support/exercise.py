"""Drive every control of every lab on the page, the way a curious reader would: reach the lab
(which starts it), then each radio, each option of each select, each button, and a text typed
into each text field. A passage id's button opens the passage card over the lab: each passage's
card is read once a lab, then closed with Escape before the next control, as a reader closes it
to reach what it covers."""

from playwright.sync_api import expect

from support.labs import lay_out_lab

TYPED = "refund after 3 weeks"


def exercise_labs(page, typed: str = TYPED, max_controls: int = 400) -> int:
    """Use every lab control once; returns how many were used."""
    used = 0
    # The labs the build drew (data-lab): not the boxes a lab adds beside itself once started (the
    # documents lab's hidden views), which would also shift the indices below as they arrive.
    labs = page.locator("section.lab[data-lab]")
    for lab_index in range(labs.count()):
        lab = labs.nth(lab_index)
        # Its chapter laid out first, so its place is real when it is scrolled to (navigation
        # itself is tests/page/test_navigation.py's concern, not this one's).
        lay_out_lab(lab)
        lab.scroll_into_view_if_needed()
        expect(lab).to_have_attribute("data-lab-state", "ready")
        carded = set()  # the passages whose card was opened in this lab
        for kind in ("input[type=radio]", "input[type=checkbox]", "select", "button",
                     "input[type=text], input[type=search], textarea", "input[type=range], input[type=number]"):
            controls = lab.locator(kind)
            for index in range(controls.count()):
                if used >= max_controls:
                    return used
                control = controls.nth(index)
                if not control.is_enabled() or not (control.is_visible() or kind.startswith("input[type=radio]")
                                                    or kind.startswith("input[type=checkbox]")):
                    continue
                if kind == "select":
                    values = control.locator("option").evaluate_all("(os) => os.map((o) => o.value)")
                    # The first, a middle and the last option: every kind of entry, at a third of the time.
                    for value in dict.fromkeys([values[0], values[len(values) // 2], values[-1]]) if values else []:
                        control.select_option(value)
                elif kind.startswith("input[type=text]"):
                    control.fill(typed)
                elif kind.startswith("input[type=range]"):
                    control.focus()
                    page.keyboard.press("ArrowRight")
                elif kind.startswith("input[type=radio]") or kind.startswith("input[type=checkbox]"):
                    # Segmented controls draw their label over the native input: click what a reader clicks.
                    label = control.locator("xpath=ancestor::label")
                    if label.count():
                        label.first.click()
                    else:
                        control.check()
                else:
                    pid = control.evaluate("b => b.matches('button.pid-open') ? b.closest('[data-pid]').dataset.pid : null")
                    if pid in carded:
                        continue  # its card was read in this lab already: the same text again
                    control.click()
                    if pid is not None:
                        carded.add(pid)
                        close_card(page, lab)
                used += 1
    return used


def close_card(page, lab) -> None:
    """Wait for the passage card a pid button opened in `lab`, then close it with Escape."""
    card = lab.locator(".card-host")
    expect(card.locator(".card-box")).to_be_visible()
    page.keyboard.press("Escape")
    expect(card).to_have_count(0)
