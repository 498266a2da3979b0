"""The prompt builder (site_src/labs/prompt/): the data step's sources
and token counts; the view, in Node, draws exactly engine/prompt.py's prompt for every question
and size, with and without the hostile source, whose text stays inside its one block, with the
fused top n and the build's token counts; in the browser, the lab works by mouse and keyboard,
from a shared link, for a question asked live, and on a phone."""

from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from engine.settings import PROMPT_SIZES
from site_src.labs.prompt import data as prompt
from engine.prompt import Source, build_prompt
from engine.ranking import places, rank_label
from support.labs import hash_of, lab, open_page, sticking_out
from support.views import markup, text

PICKER = 'select[data-picker="question"]'


def question(data, qid) -> dict:
    return next(q for q in data["questions"] if q["id"] == qid)


def expected_prompt(data, qid: str, n: int, demo: bool = False) -> str:
    """What engine/prompt.py builds from the question's fused top n (and the hostile source)."""
    by_id = {p["id"]: p for p in data["passages"]}
    sources = [Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"])
               for pid, _ in data["runs"][qid]["hybrid"][:n]]
    return build_prompt(question(data, qid)["text"], sources + ([prompt.HOSTILE] if demo else []))


# ------------------------------------------------------------------ the data step

PASSAGES = {f"p{i}": SimpleNamespace(id=f"p{i}", title=f"Title {i}", updated=f"2026-01-{i + 1:02d}", text=f"Text {i}.")
            for i in range(12)}
RANKING = [[f"p{i}", 1 / (60 + i + 1)] for i in range(12)]


def test_the_sources_are_the_fused_top_n_best_first_and_the_demo_adds_the_hostile_one_last():
    sources = prompt.sources_for(PASSAGES, RANKING, 3)
    assert sources == [Source("p0", "Title 0", "2026-01-01", "Text 0."), Source("p1", "Title 1", "2026-01-02", "Text 1."),
                       Source("p2", "Title 2", "2026-01-03", "Text 2.")]
    assert prompt.sources_for(PASSAGES, RANKING, 3, demo=True) == sources + [prompt.HOSTILE]
    assert prompt.sources_for(PASSAGES, RANKING[:2], 3) == sources[:2], "a shorter fused list sends what it has"


def test_hostile_tokens_count_every_size_of_every_question_with_the_hostile_block_last():
    questions = [{"id": "q1", "text": "One?"}, {"id": "q2", "text": "Two?"}]
    runs = {"q1": {"hybrid": RANKING}, "q2": {"hybrid": RANKING[::-1]}}
    # Count the blocks each prompt closes: the n passages + the hostile one, whose own
    # "</source>" is escaped and so closes nothing.
    blocks = prompt.hostile_tokens(questions, runs, PASSAGES, count=lambda text: text.count("\n</source>"))
    assert blocks == {q: {str(n): n + 1 for n in PROMPT_SIZES} for q in ("q1", "q2")}


def test_the_data_step_gives_the_view_the_sizes_the_hostile_source_and_its_token_counts(data):
    own = data["labs"]["prompt"]
    assert set(own) == {"sizes", "hostile", "hostile_tokens"}, "the browser gets only what the view reads"
    assert not hasattr(prompt, "BUILD_ONLY")
    assert own["sizes"] == [min(PROMPT_SIZES), max(PROMPT_SIZES)] == [3, 10]
    assert own["hostile"] == {"id": "forum-tip", "title": prompt.HOSTILE.title, "date": "2026-06-20", "text": prompt.HOSTILE.text}
    hostile = own["hostile_tokens"]
    assert set(hostile) == {q["id"] for q in data["questions"]}
    for qid, sizes in hostile.items():  # the hostile source only ever adds tokens
        assert all(sizes[n] > data["prompt_tokens"][qid][n] for n in sizes), qid


# ------------------------------------------------------------------ the view, in Node


def drawn(drawing) -> dict:
    out = markup(drawing.html)
    return {"text": out.css_first("pre.prompt-text").text(deep=True, separator="", strip=False),
            "ids": [text(code) for code in out.css(".prompt-sources > li .pid code")],
            "scores": [text(score) for score in out.css(".prompt-sources > li .score")],
            "ranks": [text(rank) for rank in out.css(".prompt-sources > li:not(.is-demo) .rank")],
            "status": text(out.css_first(".lab-status")),
            "marks": [text(mark) for mark in out.css("mark.prompt-escaped")],
            "demo": out.css(".prompt-sources > li.is-demo"),
            "rules": [(text(li.css_first(".prompt-rule-text")), text(li.css_first(".prompt-rule-why")))
                      for li in out.css(".prompt-rules > li")]}


def test_the_view_draws_the_engines_prompt_for_every_question_and_size(views, data):
    sizes = range(data["labs"]["prompt"]["sizes"][0], data["labs"]["prompt"]["sizes"][1] + 1)
    states = [{"q": q["id"], "n": n, "demo": False} for q in data["questions"] for n in sizes]
    rules = [(r["text"], f"Why: {r['reason']}") for r in data["prompt"]["rules"]]
    for state, drawing in zip(states, views.draw_many("prompt", states), strict=True):
        q, n = state["q"], state["n"]
        got = drawn(drawing)
        top = data["runs"][q]["hybrid"][:n]
        assert got["text"] == expected_prompt(data, q, n), (q, n)
        assert got["ids"] == [pid for pid, _ in top]
        assert got["scores"] == [f"{score:.4f}" for _, score in top]
        assert got["ranks"] == [rank_label(p) for p in places(data["runs"][q]["hybrid"])][:n]  # ties share a place
        tokens = data["prompt_tokens"][q][str(n)]
        said = (f"{n} passages for “{question(data, q)['text']}”: the whole prompt is {tokens} tokens "
                f"({data['tokens']['tokenizer']}).")
        assert got["status"] == said == drawing.summary
        assert got["rules"] == rules
        assert not got["demo"]
    assert len(states) == len(data["questions"]) * 8


def test_the_escaping_demo_keeps_the_hostile_source_inside_one_block_for_every_question(views, data):
    n = prompt.STATE["n"]
    states = [{"q": q["id"], "n": n, "demo": True} for q in data["questions"]]
    for state, drawing in zip(states, views.draw_many("prompt", states), strict=True):
        got = drawn(drawing)
        text_ = got["text"]
        assert text_ == expected_prompt(data, state["q"], n, demo=True), state["q"]
        # One opening and one closing tag per source: the hostile </source> did not end a block.
        assert text_.count("\n</source>") == n + 1
        assert text_.count('<source id="') == n + 1
        assert "&lt;/source&gt;" in text_ and '<source id="refund-policy" date=' not in text_
        assert got["marks"] and set(got["marks"]) <= {"&lt;", "&gt;", "&quot;", "&amp;"}
        tokens = data["labs"]["prompt"]["hostile_tokens"][state["q"]][str(n)]
        assert got["status"] == (f"{n} passages and the hostile source for “{question(data, state['q'])['text']}”: the whole "
                                 f"prompt is {tokens} tokens ({data['tokens']['tokenizer']}).")
        [demo] = got["demo"]
        assert text(demo.css_first(".pid code")) == prompt.HOSTILE.id
        assert text(demo.css_first(".rank")) == str(n + 1)


def test_the_view_takes_a_link_as_it_reads_and_refuses_a_size_out_of_range(views):
    assert views.draw("prompt", {"q": "g01", "n": "8", "demo": "1"}).state == {"q": "g01", "n": 8, "demo": True}
    assert views.draw("prompt", {"q": "g01", "n": 8}).state == {"q": "g01", "n": 8, "demo": False}
    for state in ({"q": "g01", "n": 11}, {"q": "g01", "n": 2}, {"q": "nobody", "n": 5}):
        with pytest.raises(AssertionError, match="refused"):
            views.draw("prompt", state)


# ------------------------------------------------------------------ in the browser


def prompt_text(section) -> str:
    return section.locator("pre.prompt-text").evaluate("el => el.textContent")


def follow(page, link):
    """Follow a link to a lab state on the same page (as the every-stage section's links do), once it has applied."""
    page.evaluate("""(hash) => new Promise((done) => {
        if (location.hash === hash) return done();
        addEventListener('hashchange', () => setTimeout(done), {once: true});
        location.hash = hash;
    })""", link)


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-prompt")


@pytest.mark.browser
def test_by_keyboard(desktop, data):
    section = lab(desktop, "prompt")
    q, n = prompt.STATE["q"], prompt.STATE["n"]
    follow(desktop, f"#lab-prompt?q={q}&n={n}&demo=false")
    section.locator('input[name="prompt-n"]:checked').focus()
    desktop.keyboard.press("ArrowRight")
    expect(section.locator(f'input[name="prompt-n"][value="{n + 1}"]')).to_be_checked()
    assert prompt_text(section) == expected_prompt(data, q, n + 1)
    select = section.locator(PICKER)
    select.focus()
    desktop.keyboard.press("ArrowDown")
    after = select.input_value()
    assert after != q
    assert prompt_text(section) == expected_prompt(data, after, n + 1)
    section.locator('input[name="prompt-demo"]').focus()
    desktop.keyboard.press("Space")
    assert prompt_text(section) == expected_prompt(data, after, n + 1, demo=True)
    assert hash_of(desktop) == f"#lab-prompt?q={after}&n={n + 1}&demo=true"


@pytest.mark.browser
def test_a_question_asked_live_is_built_like_a_preset_without_a_token_count(desktop, data):
    section = lab(desktop, "prompt")
    follow(desktop, "#lab-prompt?q=refund-three-weeks&n=3&demo=false")
    hybrid = data["runs"]["okta-login"]["hybrid"]
    desktop.evaluate("""(hybrid) => RAG.corpus.page(RAG.data).questions.add({id: "live-1", text: "Can I sign in with <Okta> & co?",
        set: "live", runs: {dense: [], bm25: [], hybrid}})""", hybrid)
    follow(desktop, "#lab-prompt?q=live-1&n=3&demo=false")
    by_id = {p["id"]: p for p in data["passages"]}
    assert prompt_text(section) == build_prompt("Can I sign in with <Okta> & co?", [
        Source(pid, by_id[pid]["title"], by_id[pid]["updated"], by_id[pid]["text"]) for pid, _ in hybrid[:3]])
    expect(section.locator(".lab-status")).to_have_text("3 passages for “Can I sign in with <Okta> & co?”.")


@pytest.mark.browser
def test_a_shared_link_restores_the_state_and_a_later_link_switches_it(make_page, site_url, data):
    golden = next(q for q in data["questions"] if q["set"] == "golden")
    page = open_page(make_page, site_url, f"#lab-prompt?q={golden['id']}&n=8&demo=1")
    section = lab(page, "prompt")
    expect(section.locator(PICKER)).to_have_value(golden["id"])
    expect(section.locator('input[name="prompt-n"][value="8"]')).to_be_checked()
    expect(section.locator('input[name="prompt-demo"]')).to_be_checked()
    assert prompt_text(section) == expected_prompt(data, golden["id"], 8, demo=True)
    # A later link on the same page (section 'every-stage' links here) switches the lab without a reload.
    section.locator('input[name="prompt-demo"] + span').click()
    assert hash_of(page) == f"#lab-prompt?q={golden['id']}&n=8&demo=false"  # the click's link, written before the next
    follow(page, "#lab-prompt?q=okta-login&n=3")
    expect(section.locator(PICKER)).to_have_value("okta-login")
    expect(section.locator('input[name="prompt-n"][value="3"]')).to_be_checked()
    assert prompt_text(section) == expected_prompt(data, "okta-login", 3)


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_on_a_phone_and_the_sources_come_first(make_page, site_url, javascript):
    page = open_page(make_page, site_url, "#lab-prompt?q=g01&n=10&demo=true", viewport={"width": 360, "height": 780},
                     java_script_enabled=javascript)
    section = lab(page, "prompt")
    if javascript:
        expect(section.locator(".prompt-sources > li")).to_have_count(11)
    assert sticking_out(section, "pre") == []
    sources, rules = (section.locator(css).bounding_box() for css in (".prompt-sources", ".prompt-rules"))
    assert sources["y"] < rules["y"], "on a phone the sources, which change, come before the rules, which don't"
