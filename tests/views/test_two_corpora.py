"""One page, the hybrid view twice: the lab, drawing the help center, and a second drawing the test
adds to the built page, of the made-up corpus (tests/support/made_up_corpus.py: its chunks, hand-made
vectors, dense ranking by the engine's twin), with its own sliders written by the page's slider
macro under another prefix (RAG.mountView). Each redraws on its own controls with its own
corpus's numbers, and neither disturbs the other: every id on the page is unique, each keeps its
own state (the lab's goes into the link, the other's nowhere), pointing at a passage marks it in
one drawing only, and focus moves inside the drawing it is in."""

import numpy as np
import pytest
from jinja2 import Environment, FileSystemLoader
from playwright.sync_api import expect

from engine.bm25 import BM25
from engine.fusion import rrf
from engine.ranking import bm25_ranking, dense_ranking
from support import made_up_corpus as made_up
from support.labs import hash_of, lab, open_page
from support.paths import ROOT

IDS = [chunk["id"] for chunk in made_up.CHUNKS]
MINE = "#bikes"
LAB = "#lab-hybrid"


def controls(sliders: dict, k: int, depth: int) -> str:
    """The second drawing's sliders, written by the page's own macro (templates/_macros.html) as
    the hybrid lab's are, under the prefix "bikes"."""
    env = Environment(loader=FileSystemLoader(ROOT / "site_src" / "templates"), autoescape=True)
    return env.from_string('{% from "_macros.html" import slider %}<div class="lab-controls">'
                           '{{ slider("bikes", "k", sliders.k, k, "Constant <i>k</i> ="|safe) }}'
                           '{{ slider("bikes", "depth", sliders.depth, depth, "Depth =") }}</div>'
                           ).render(sliders=sliders, k=k, depth=depth)


# Adds a section after the hybrid lab holding the second drawing's controls and output, and draws
# the hybrid view of the made-up corpus into it.
MOUNT_JS = """([controls, corpus, state]) => {
    const box = document.createElement("section");
    box.className = "lab";
    box.id = "bikes";
    box.setAttribute("aria-label", "The hybrid view of a bicycle shop's notes");
    box.innerHTML = controls + '<div class="lab-output"></div>';
    document.getElementById("lab-hybrid").after(box);
    const lab = RAG.labContext("hybrid");
    const made = RAG.corpus.fromChunks(corpus.chunks, { ...corpus, settings: RAG.data.settings });
    window.__bikes = RAG.mountView(box, "hybrid", { corpus: made, sliders: lab.input.sliders, prefix: "bikes" }, state);
    return true;
}"""


def fused_of(page, root: str) -> list[tuple[str, float]]:
    return [(pid, float(value)) for pid, value in page.evaluate(
        """(root) => [...document.querySelectorAll(root + ' .lab-col[data-list=hybrid] li[data-pid]')]
            .map(li => [li.dataset.pid, li.querySelector('data.score').value])""", root)]


def linked(page, root: str) -> list[str]:
    return page.evaluate("(root) => [...document.querySelectorAll(root + ' .is-linked[data-pid]')].map(e => e.dataset.pid)", root)


def made_up_fused(settings: dict, qid: str, k: int, depth: int) -> list[tuple[str, float]]:
    """engine/: the made-up question's fused list at (k, depth), unrounded, from Python's rankings."""
    q = next(q for q in made_up.QUESTIONS if q["id"] == qid)
    index = BM25([chunk["text"] for chunk in made_up.CHUNKS], settings["bm25"]["k1"], settings["bm25"]["b"])
    dense = dense_ranking(IDS, np.asarray(made_up.VECTORS, dtype=np.float64), np.asarray(q["vector"], dtype=np.float64))
    bm25 = bm25_ranking(IDS, index, q["text"])
    return rrf([[pid for pid, _ in dense[:depth]], [pid for pid, _ in bm25[:depth]]], k=k)


def help_center_fused(data: dict, qid: str, k: int, depth: int) -> list[tuple[str, float]]:
    run = data["runs"][qid]
    return rrf([[pid for pid, _ in run["dense"][:depth]], [pid for pid, _ in run["bm25"][:depth]]], k=k)


def drag(page, selector: str, value: int):
    page.locator(selector).evaluate("(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input', {bubbles: true})); }",
                                    value)


@pytest.fixture
def page(make_page, site_url, data):
    page = open_page(make_page, site_url, LAB)
    lab(page, "hybrid")
    settings = data["settings"]
    mine = controls(data["labs"]["hybrid"]["sliders"], settings["rrf_k"], settings["fusion_depth"])
    assert page.evaluate(MOUNT_JS, [mine, {"chunks": made_up.CHUNKS, "vectors": made_up.VECTORS,
                                           "questions": made_up.QUESTIONS}, {"q": "oil"}])
    return page


@pytest.mark.browser
def test_the_hybrid_view_twice_on_one_page_each_with_its_own_corpus_and_controls(page, data):
    settings = data["settings"]
    k, depth = settings["rrf_k"], settings["fusion_depth"]
    q = "upload-4021"
    # Each draws its own corpus.
    assert fused_of(page, LAB) == help_center_fused(data, q, k, depth)[:depth]
    assert fused_of(page, MINE) == made_up_fused(settings, "oil", k, depth)[:depth]
    expect(page.locator(f"{MINE} .lab-status")).to_have_text(
        "The right passage, chain-oil: dense rank 1, BM25 rank 1, fused rank 1.")
    # Every id on the page once, the second drawing's under its own prefix.
    duplicates = page.evaluate("""() => { const seen = {}; for (const el of document.querySelectorAll('[id]')) seen[el.id] = (seen[el.id] || 0) + 1;
        return Object.entries(seen).filter(([, n]) => n > 1); }""")
    assert duplicates == []
    assert page.evaluate(f"() => [...document.querySelectorAll('{MINE} [id]')].map(e => e.id).sort()") == sorted(
        ["bikes-k", "bikes-k-value", "bikes-depth", "bikes-depth-value", "bikes-dense-title", "bikes-bm25-title", "bikes-fused-title"])
    expect(page.locator("#bikes-k")).to_have_accessible_name("Constant k =")  # its label, for= it (its value is the slider's)
    link = hash_of(page)

    # The second drawing's sliders: it redraws, with its own numbers; the lab and the link stay.
    page.locator("#bikes-k").focus()
    page.keyboard.press("Home")
    expect(page.locator("#bikes-k-value")).to_have_text("1")
    assert fused_of(page, MINE) == made_up_fused(settings, "oil", 1, depth)[:depth]
    drag(page, "#bikes-depth", 2)
    expect(page.locator("#bikes-depth-value")).to_have_text("2")
    assert fused_of(page, MINE) == made_up_fused(settings, "oil", 1, 2)[:2]
    assert page.evaluate("() => window.__bikes.state") == {"q": "oil", "k": 1, "depth": 2}
    assert fused_of(page, LAB) == help_center_fused(data, q, k, depth)[:depth]
    expect(page.locator("#hybrid-k-value")).to_have_text(str(k))
    assert page.evaluate("() => RAG.labContext('hybrid').state") == {"q": q, "k": k, "depth": depth}
    assert hash_of(page) == link, "the second drawing writes no link"

    # The lab's sliders: the lab redraws and writes its link; the second drawing stays.
    drag(page, "#hybrid-k", 5)
    assert fused_of(page, LAB) == help_center_fused(data, q, 5, depth)[:depth]
    assert hash_of(page) == f"#lab-hybrid?q={q}&k=5&depth={depth}"
    assert fused_of(page, MINE) == made_up_fused(settings, "oil", 1, 2)[:2]
    expect(page.locator("#bikes-k-value")).to_have_text("1")

    # Back to the page's settings, in the second drawing: its own first slider takes the focus.
    page.locator(f"{MINE} button.hybrid-reset").click()
    expect(page.locator("#bikes-k")).to_be_focused()
    assert fused_of(page, MINE) == made_up_fused(settings, "oil", k, depth)[:depth]
    assert page.evaluate("() => RAG.labContext('hybrid').state")["k"] == 5


@pytest.mark.browser
def test_pointing_and_focus_stay_in_the_drawing_they_are_in(page, data):
    # Pointing at a passage of the made-up corpus marks it there only.
    page.locator(f'{MINE} .lab-col[data-list="dense"] li[data-pid="chain-wear"]').hover()
    assert sorted(set(linked(page, MINE))) == ["chain-wear"]
    assert linked(page, LAB) == []
    expect(page.locator(f"{MINE} .hybrid-readout")).to_have_text("chain-wear: dense 2, BM25 2, fused 2.")
    expect(page.locator(f"{LAB} .hybrid-readout")).to_have_text("Point at or tap a passage to see its three ranks.")
    # And one of the help center's there only.
    answer = next(q["answer"] for q in data["questions"] if q["id"] == "upload-4021")
    page.locator(f'{LAB} g.slope-node[data-pid="{answer}"]').hover()
    assert set(linked(page, LAB)) == {answer}
    assert linked(page, MINE) == []
    page.mouse.move(2, 2)
    assert linked(page, LAB) == []
    # The keyboard: into the second drawing's chart, then along its fused ranks; the lab's chart keeps its own tab stop.
    page.locator("#bikes-depth").focus()
    page.keyboard.press("Tab")
    expect(page.locator(f'{MINE} g.slope-node[data-pid="chain-oil"]')).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(page.locator(f'{MINE} g.slope-node[data-pid="chain-wear"]')).to_be_focused()
    assert page.evaluate("() => window.__bikes.local.stops") == {"chart": "chain-wear"}
    assert page.evaluate("() => RAG.labContext('hybrid').local.stops") == {}
    first = data["runs"]["upload-4021"]["hybrid"][0][0]
    assert page.locator(f'{LAB} g.slope-node[tabindex="0"]').get_attribute("data-pid") == first
    assert sorted(set(linked(page, MINE))) == ["chain-wear"] and linked(page, LAB) == []  # focus points in its own drawing
