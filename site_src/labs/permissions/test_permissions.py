"""The permission demo (site_src/labs/permissions/): the data step
picks the questions where a post-filter shows its cost and filters each reader's dense ranking
before and after the top k (the build's record, which the browser never gets); the view, which
filters for itself, draws for every reader, question and k exactly the lists the build computed,
never names a passage the reader may not read in a filtered list, and shows the keyword search
filtered and unfiltered with every leak flagged and its fused rank (checked in Node); in the
browser, the controls change it by mouse and keyboard, a shared link restores it, and it fits a
phone."""

import json
import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from engine.ranking import places, rank_label
from engine.readers import Reader
from site_src.labs.permissions import data as permissions
from support.browser import VIEWPORTS
from support.labs import hash_of, kept_page, lab, open_again, open_page, sticking_out
from support.views import markup, text

PICKER = 'select[data-picker="question"]'


# ------------------------------------------------------------------ the data step, on hand-made inputs


def passage(pid, *acl):
    return SimpleNamespace(id=pid, acl=tuple(acl))


# Four public passages, two staff-only runbooks, and one both groups may read.
PASSAGES = [passage("a", "public"), passage("b", "public"), passage("c", "public"), passage("d", "public"),
            passage("s1", "staff"), passage("s2", "staff"), passage("m", "public", "staff")]
READERS = [Reader("customer", "Customer", ("public",)), Reader("staff", "Support staff", ("public", "staff"))]
ACL = {p.id: list(p.acl) for p in PASSAGES}


def dense(*ids):
    """A dense ranking with made-up falling scores, and a BM25 ranking of the same ids reversed."""
    return {"dense": [[pid, 1 - i / 10] for i, pid in enumerate(ids)],
            "bm25": [[pid, 9 - i] for i, pid in enumerate(reversed(ids))]}


def core(questions: dict[str, tuple[str, list[str]]]) -> dict:
    """id -> (set, ranked ids) as the build's data has them."""
    return {"questions": [{"id": qid, "set": kind} for qid, (kind, _) in questions.items()],
            "runs": {qid: dense(*ranked) for qid, (_, ranked) in questions.items()}}


def test_filtered_pre_keeps_k_readable_passages_and_post_drops_the_unreadable_from_the_top_k():
    ranked = ["a", "s1", "b", "m", "s2", "c", "d"]
    assert permissions.KS == (3, 5, 8)
    assert permissions.filtered(ranked, ACL, ["public"]) == {
        "3": {"pre": ["a", "b", "m"], "post": ["a", "b"]},                 # top 3 = a s1 b: 3 - 1 restricted
        "5": {"pre": ["a", "b", "m", "c", "d"], "post": ["a", "b", "m"]},  # top 5 = a s1 b m s2: 5 - 2
        "8": {"pre": ["a", "b", "m", "c", "d"], "post": ["a", "b", "m", "c", "d"]},  # 7 ranked - 2 restricted
    }
    # A reader who may read everything gets the same top k either way.
    for lists in permissions.filtered(ranked, ACL, ["public", "staff"]).values():
        assert lists["pre"] == lists["post"]
    assert permissions.filtered(ranked, ACL, ["public", "staff"])["5"]["post"] == ranked[:5]


def test_half_filtered_names_what_a_filter_on_the_vector_search_alone_lets_into_the_fused_list():
    # Vector search filtered for a customer: a, b, m. Keyword search unfiltered: s1, c, a.
    # RRF (k = 60): a = 1/61 + 1/63, s1 = 1/61, b = 1/62, c = 1/62, m = 1/63: s1 comes second.
    assert permissions.half_filtered(["s1", "a", "b", "m"], ["s1", "c", "a"], ACL, ["public"]) == [["s1", 2]]
    # Deeper than the fusion depth, nothing is fused: s2 at keyword rank 3 is left out at depth 2.
    assert permissions.half_filtered(["a"], ["c", "d", "s2"], ACL, ["public"], depth=2) == []
    # Staff may read everything: nothing leaks.
    assert permissions.half_filtered(["s1", "a"], ["s2", "a"], ACL, ["public", "staff"]) == []


def test_restricted_questions_are_golden_ones_ranking_a_hidden_passage_best_first_one_per_passage():
    data = core({
        "t1": ("tracer", ["s1", "a", "b", "c"]),  # not golden: never picked
        "g1": ("golden", ["a", "b", "s1", "c"]),  # s1 third
        "g2": ("golden", ["s2", "a", "b", "c"]),  # s2 first
        "g3": ("golden", ["s1", "a", "b", "c"]),  # s1 first
        "g4": ("golden", ["a", "b", "c", "s2"]),  # s2 fourth: beyond a depth of 3
        "g5": ("golden", ["a", "s1", "b", "c"]),  # s1 second
        "g6": ("golden", ["m", "a", "b", "c"]),   # m: everyone may read it
    })
    corpus = SimpleNamespace(passages=PASSAGES, readers=READERS)
    # By where the first hidden passage ranks (g2 and g3 at 1, g5 at 2, g1 at 3; ties in question
    # order), keeping one question per hidden passage: g5 and g1 repeat s1.
    assert permissions.restricted_questions(corpus, data, depth=3, n=5) == ["g2", "g3"]
    assert permissions.restricted_questions(corpus, data, depth=3, n=1) == ["g2"]
    assert permissions.restricted_questions(corpus, data, depth=1, n=5) == ["g2", "g3"]
    # Nothing hidden from anyone: no question shows the cost.
    everyone = SimpleNamespace(passages=PASSAGES, readers=[READERS[1]])
    assert permissions.restricted_questions(everyone, data, depth=3, n=5) == []


def test_the_data_step_gives_each_reader_its_hidden_passages_and_lists_for_every_question_and_k():
    ranked = {"t1": ["a", "s1", "b", "c", "d", "m", "s2"], "g1": ["s2", "a", "b", "c", "d", "m", "s1"],
              "g2": ["a", "b", "c", "d", "m", "s1", "s2"]}
    build = SimpleNamespace(
        corpus=SimpleNamespace(passages=PASSAGES, readers=READERS, tracers=[SimpleNamespace(id="t1")]),
        data=core({"t1": ("tracer", ranked["t1"]), "g1": ("golden", ranked["g1"]), "g2": ("golden", ranked["g2"])}))
    out = permissions.data(build)
    assert out["questions"] == ["t1", "g1", "g2"]  # the tracers, then the golden questions that show the cost
    assert out["ks"] == [3, 5, 8]
    assert out["roles"] == {"customer": {"label": "Customer", "groups": ["public"]},
                            "staff": {"label": "Support staff", "groups": ["public", "staff"]}}
    assert out["readers"]["customer"]["hidden"] == ["s1", "s2"]
    assert out["readers"]["staff"]["hidden"] == []
    for role, groups in (("customer", ["public"]), ("staff", ["public", "staff"])):
        assert out["readers"][role]["runs"] == {q: permissions.filtered(ranked[q], ACL, groups) for q in ranked}
    assert out["readers"]["customer"]["runs"]["g1"]["3"] == {"pre": ["a", "b", "c"], "post": ["a", "b"]}
    for role, groups in (("customer", ["public"]), ("staff", ["public", "staff"])):
        assert out["readers"][role]["leaks"] == {
            q: permissions.half_filtered(ranked[q], ranked[q][::-1], ACL, groups) for q in ranked}
    assert out["readers"]["staff"]["leaks"] == {q: [] for q in ranked}
    assert out["readers"]["customer"]["leaks"]["t1"], "t1's keyword list starts with s2"
    json.dumps(out)  # it travels to the page as JSON
    # The browser gets what the view reads; the filtered lists stay in the build, for the prose and the tests.
    assert permissions.BUILD_ONLY == ("readers",)
    assert set(out) - set(permissions.BUILD_ONLY) == {"questions", "ks", "roles"}


def test_the_default_state_is_one_the_demo_offers_and_some_setting_comes_up_short(data):
    own = data["labs"]["permissions"]
    assert permissions.STATE["reader"] in own["readers"]
    assert permissions.STATE["q"] in own["questions"]
    assert permissions.STATE["k"] in own["ks"]
    assert own["questions"][:5] == [t["id"] for t in data["tracers"]]
    default = own["readers"][permissions.STATE["reader"]]["runs"][permissions.STATE["q"]][str(permissions.STATE["k"])]
    assert len(default["post"]) < permissions.STATE["k"] == len(default["pre"]), "the page opens on the lesson"
    short = [(role, q, k) for role, reader in own["readers"].items() for q, by_k in reader["runs"].items()
             for k, lists in by_k.items() if len(lists["post"]) < int(k)]
    assert short, "no setting of the demo shows the post-filter coming up short"


# ------------------------------------------------------------------ the view, in Node


def every_state(data):
    own = data["labs"]["permissions"]
    return [{"reader": reader, "q": q, "k": k} for reader in own["roles"] for q in own["questions"] for k in own["ks"]]


def shown(html):
    """What the view drew, read from its markup."""
    out = markup(html)
    rows = lambda css: out.css(f"{css} li.result")  # noqa: E731
    code = lambda li: text(li.css_first(".pid code")) if li.css_first(".pid code") else None  # noqa: E731
    # Everything but the unfiltered keyword list and the lesson naming its leaks.
    filtered = [n for n in out.iter() if not {"perm-keyword", "perm-kw-lesson"} & set((n.attributes.get("class") or "").split())]
    return {
        "pre": [{"id": code(li), "score": text(li.css_first(".score"))} for li in rows(".perm-pre")],
        "post": [{"id": code(li), "removed": "is-removed" in li.attributes["class"].split(),
                  "rank": text(li.css_first(".rank")), "score": text(li.css_first(".score"))} for li in rows(".perm-post")],
        "kw_on": [{"id": code(li), "score": text(li.css_first(".score")), "rank": text(li.css_first(".rank"))}
                  for li in rows(".perm-kw-on")],
        "kw_off_ranks": [text(li.css_first(".rank")) for li in rows(".perm-kw-off")],
        "filtered_titles": " ".join(li.attributes.get("title") or "" for css in (".perm-pre", ".perm-post", ".perm-kw-on")
                                    for li in out.css(f"{css} [title]")),
        "kw_off": [{"id": code(li), "score": text(li.css_first(".score")), "leaked": "is-leaked" in li.attributes["class"].split(),
                    "badge": li.css_first(".badge-fail") is not None} for li in rows(".perm-kw-off")],
        "titles": [text(h4) for h4 in out.css(".lab-col h4")],
        "status": text(out.css_first(".lab-status")),
        "lesson": text(out.css_first(".perm-lesson")),
        "kw_lesson": text(out.css_first(".perm-kw-lesson")),
        "filtered_text": " ".join(text(n) for n in filtered) + " " + text(out.css_first(".perm-kw-on")),
        "text": text(out),
    }


def check_drawing(html, data, reader, q, k):
    """The drawing of (reader, q, k) against the build's own lists (data.labs.permissions.readers,
    from engine/access.py and engine/fusion.py) and the build's rankings (data.runs)."""
    own = data["labs"]["permissions"]
    built = own["readers"][reader]
    lists = built["runs"][q][str(k)]
    label = own["roles"][reader]["label"]
    scores = dict(map(tuple, data["runs"][q]["dense"]))
    got = shown(html)
    assert [row["id"] for row in got["pre"]] == lists["pre"]
    assert [row["score"] for row in got["pre"]] == [f"{scores[pid]:.3f}" for pid in lists["pre"]]
    # The post-filter column shows the top k places; the kept ones carry their ids and scores.
    assert len(got["post"]) == k
    assert [row["rank"] for row in got["post"]] == [rank_label(p) for p in places(data["runs"][q]["dense"])][:k]
    assert [row["id"] for row in got["post"] if not row["removed"]] == lists["post"]
    assert [row["score"] for row in got["post"] if not row["removed"]] == [f"{scores[pid]:.3f}" for pid in lists["post"]]
    assert [row["id"] for row in got["post"] if row["removed"]] == [None] * (k - len(lists["post"]))
    hidden = set(built["hidden"])
    keyword = data["runs"][q]["bm25"]
    readable = [[pid, s] for pid, s in keyword if pid not in hidden]
    leaked = [pid for pid, _ in keyword[:k] if pid in hidden]
    assert got["titles"] == [f"Pre-filter · {len(lists['pre'])} of {k}", f"Post-filter · {len(lists['post'])} of {k}",
                             f"BM25, filtered · {len(readable[:k])} of {k}",
                             f"BM25, not filtered · {len(leaked) or 'none'} leaked"]
    assert [(row["id"], row["score"]) for row in got["kw_on"]] == [(pid, f"{s:.3f}") for pid, s in readable[:k]]
    # Tied ranks: each list's own places; a filtered list's ties never name a passage the reader may not read.
    assert [row["rank"] for row in got["kw_on"]] == [rank_label(p) for p in places(readable)][:k]
    assert got["kw_off_ranks"] == [rank_label(p) for p in places(keyword)][:k]
    assert not [pid for pid in hidden if re.search(rf"(?<![\w-]){re.escape(pid)}(?![\w-])", got["filtered_titles"])], \
        got["filtered_titles"]
    assert [(row["id"], row["score"]) for row in got["kw_off"]] == [(pid, f"{s:.3f}") for pid, s in keyword[:k]]
    assert [row["id"] for row in got["kw_off"] if row["leaked"] and row["badge"]] == leaked
    assert [row["id"] for row in got["kw_off"] if row["leaked"] or row["badge"]] == leaked
    fused = dict(map(tuple, built["leaks"][q]))
    if leaked:
        ids = [pid for pid, _ in keyword]
        where = "; ".join(f"{pid} at BM25 rank {ids.index(pid) + 1}, fused rank {fused[pid]}" for pid in leaked)
        kw_lesson = (f"With the filter on the vector search only, keyword search still hands this reader "
                     f"{len(leaked)} passage{'' if len(leaked) == 1 else 's'} they may not read: {where}. "
                     "Filter every retriever, or filter once, before either runs.")
    elif hidden:
        kw_lesson = (f"Keyword search ranks no passage this reader may not read in its top {k}, so a filter missing "
                     "from it would not show here, which is how such a bug survives a quick test.")
    else:
        kw_lesson = f"{label} may read every passage, so the filter removes nothing from either search."
    assert got["kw_lesson"] == kw_lesson
    n_pre, n_post = len(lists["pre"]), len(lists["post"])
    assert got["status"] == (f"{label}, k = {k}: the pre-filter returns {n_pre} "
                             f"passage{'' if n_pre == 1 else 's'}, the post-filter {n_post}.")
    dropped = k - n_post
    if dropped:
        lesson = (f"The search spent {dropped} of its {k} places on passages this reader may not read, so the "
                  f"post-filter returns {n_post}; the pre-filter searched only what this reader may read and still "
                  f"returns {n_pre}.")
    elif hidden:
        lesson = (f"No passage this reader may not read ranked in the top {k}, so both filters return the same "
                  f"{n_post}. Post-filtering only shows its cost when a restricted passage ranks high.")
    else:
        lesson = f"{label} may read every passage, so both filters return the same {n_post}, staff-only runbooks included."
    assert got["lesson"] == lesson
    # A reader never sees a passage they may not read in a filtered list; only the unfiltered
    # keyword list shows one, flagged as leaked, and the lesson that names it.
    for pid in hidden:
        passage = next(p for p in data["passages"] if p["id"] == pid)
        assert pid not in got["filtered_text"], f"{reader} sees {pid} ({q}, k={k})"
        assert passage["section"] not in got["filtered_text"], f"{reader} sees the title of {pid}"
        assert (pid in got["text"]) == (pid in leaked), (reader, q, k, pid)
    return got


def test_the_view_draws_the_builds_lists_for_every_reader_question_and_k(views, data):
    states = every_state(data)
    assert len(states) == 2 * 7 * 3
    lessons, kw_lessons = set(), set()
    for state, drawing in zip(states, views.draw_many("permissions", states), strict=True):
        got = check_drawing(drawing.html, data, state["reader"], state["q"], state["k"])
        assert drawing.summary == got["status"]
        lessons.add(got["lesson"].split(" ")[0])
        kw_lessons.add(got["kw_lesson"].split(" ")[0])
    assert lessons == {"The", "No", "Support"}, "each of the three lessons shows for some setting"
    assert kw_lessons == {"With", "Keyword", "Support"}, "each of the keyword search's lessons shows for some setting"


def test_the_opening_state_the_prose_gives_is_the_one_drawn(views, data):
    # Section 'failures' places the lab with {{ lab("permissions", reader="customer", q="g11", k=3) }}.
    drawing = views.draw("permissions", {"reader": "customer", "q": "g11", "k": 3})
    got = check_drawing(drawing.html, data, "customer", "g11", 3)
    assert got["lesson"].startswith("The search spent 1 of its 3 places")
    assert "rb-restore" in got["kw_lesson"]


def test_the_view_refuses_a_state_the_demo_does_not_offer(views, data):
    own = data["labs"]["permissions"]
    unlisted = next(q["id"] for q in data["questions"] if q["set"] == "golden" and q["id"] not in own["questions"])
    assert views.draw("permissions", {"reader": "staff", "q": "g11", "k": "5"}).state == {"reader": "staff", "q": "g11", "k": 5}
    for state in ({"reader": "staff", "q": unlisted, "k": 5}, {"reader": "staff", "q": "g11", "k": 4},
                  {"reader": "nobody", "q": "g11", "k": 5}, {"reader": "constructor", "q": "g11", "k": 5}):
        with pytest.raises(AssertionError, match="refused"):
            views.draw("permissions", state)


# ------------------------------------------------------------------ in the browser


def check_state(section, data, reader, q, k):
    check_drawing(section.locator(".lab-output").inner_html(), data, reader, q, k)


@pytest.fixture(scope="module")
def shared(make_page_module):
    """One page for the tests with JavaScript: each loads its link afresh in it
    (support.labs.open_again), at the size it needs (1280x900 unless it says)."""
    return kept_page(make_page_module)


@pytest.fixture
def desktop(shared):
    """The shared page at 1280x900 (a test that resizes it leaves it so for the next)."""
    shared.set_viewport_size({"width": 1280, "height": 900})
    return shared


@pytest.mark.browser
def test_the_controls_change_the_state_and_the_link_by_mouse(desktop, site_url, data):
    page = open_again(desktop, site_url, "#lab-permissions")
    section = lab(page, "permissions")
    own = data["labs"]["permissions"]
    assert section.locator(f"{PICKER} option").evaluate_all("os => os.map(o => o.value)") == own["questions"]
    section.locator('input[name="permissions-reader"][value="staff"] + span').click()
    section.locator(PICKER).select_option(own["questions"][0])
    section.locator('input[name="permissions-k"][value="8"] + span').click()
    check_state(section, data, "staff", own["questions"][0], 8)
    assert hash_of(page) == f"#lab-permissions?reader=staff&q={own['questions'][0]}&k=8"
    expect(page.locator("#rag-status")).to_have_text(shown(section.locator(".lab-output").inner_html())["status"])


@pytest.mark.browser
def test_the_demo_by_keyboard_and_from_a_shared_link(desktop, site_url, data):
    page = open_again(desktop, site_url, "#lab-permissions")
    section = lab(page, "permissions")
    own = data["labs"]["permissions"]
    readers, ks, questions = list(own["roles"]), own["ks"], own["questions"]
    default = json.loads(section.get_attribute("data-state"))
    assert default == permissions.STATE
    check_state(section, data, default["reader"], default["q"], default["k"])
    section.locator('input[name="permissions-reader"]:checked').focus()
    page.keyboard.press("ArrowRight")  # the next reader
    expect(section.locator(f'input[name="permissions-reader"][value="{readers[1]}"]')).to_be_checked()
    page.keyboard.press("Tab")  # the question
    expect(section.locator(PICKER)).to_be_focused()
    page.keyboard.press("ArrowUp")
    q = questions[questions.index(default["q"]) - 1]
    expect(section.locator(PICKER)).to_have_value(q)
    page.keyboard.press("Tab")  # k
    page.keyboard.press("ArrowRight")
    k = ks[ks.index(default["k"]) + 1]
    expect(section.locator(f'input[name="permissions-k"][value="{k}"]')).to_be_checked()
    check_state(section, data, readers[1], q, k)
    shared = hash_of(page)
    assert shared == f"#lab-permissions?reader={readers[1]}&q={q}&k={k}"

    again = open_again(desktop, site_url, shared)
    restored = lab(again, "permissions")
    expect(restored.locator(f'input[name="permissions-reader"][value="{readers[1]}"]')).to_be_checked()
    expect(restored.locator(PICKER)).to_have_value(q)
    expect(restored.locator(f'input[name="permissions-k"][value="{k}"]')).to_be_checked()
    check_state(restored, data, readers[1], q, k)


@pytest.mark.browser
def test_a_link_to_a_state_the_demo_does_not_offer_opens_the_default(desktop, site_url, data):
    own = data["labs"]["permissions"]
    unlisted = next(q["id"] for q in data["questions"] if q["set"] == "golden" and q["id"] not in own["questions"])
    state = permissions.STATE
    for query in (f"reader=staff&q={unlisted}&k=5", "reader=staff&q=g11&k=4", "reader=nobody&q=g11&k=5"):
        page = open_again(desktop, site_url, f"#lab-permissions?{query}")
        section = lab(page, "permissions")
        expect(section.locator(PICKER)).to_have_value(state["q"])
        expect(section.locator(f'input[name="permissions-reader"][value="{state["reader"]}"]')).to_be_checked()
        check_state(section, data, state["reader"], state["q"], state["k"])


@pytest.mark.browser
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_nothing_sticks_out_on_a_phone(make_page, shared, site_url, javascript):
    if javascript:
        shared.set_viewport_size(VIEWPORTS["phone"])
        page = open_again(shared, site_url, "#lab-permissions?reader=customer&q=g11&k=8")
    else:
        page = open_page(make_page, site_url, viewport=VIEWPORTS["phone"], java_script_enabled=False)
    assert sticking_out(lab(page, "permissions"), ".table-scroll, pre") == []


@pytest.mark.browser
@pytest.mark.parametrize("width", [360, 390, 1280])
def test_the_two_columns_rows_stay_side_by_side_when_a_head_wraps(shared, site_url, width):
    """Each pair of columns starts its lists on one line: a head that wraps on a phone ("BM25,
    not filtered · 1 leaked") moves both lists, so rank 1 stands beside rank 1."""
    shared.set_viewport_size({"width": width, "height": 844})
    page = open_again(shared, site_url, "#lab-permissions?reader=customer&q=g11&k=3")
    section = lab(page, "permissions")
    for pair in section.locator(".perm-columns").all():
        tops = pair.evaluate("(p) => [...p.querySelectorAll(':scope > .lab-col')].map((c) => "
                             "c.querySelector('li.result').getBoundingClientRect().top)")
        assert len(tops) == 2 and abs(tops[0] - tops[1]) < 1, f"{width} px: first rows at {tops}"
