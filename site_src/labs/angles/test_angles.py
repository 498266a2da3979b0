"""Cosine as an angle (site_src/labs/angles/): angles from cosines, the three passages chosen
for each question, how the drawing's angles between passages follow from the sides chosen, on
cases worked by hand; the lab's data against the build's own vectors; the view in Node for
every preset (the tables, each arrow drawn at its angle, arrows too close on the plane drawn
apart with a note that says so); in Chromium the picker, a 360 px phone, and screenshots of the
drawing at 360 and 1280 px in both themes."""

import math

import numpy as np
import pytest
from playwright.sync_api import expect

from site_src.labs.angles import data as angles
from support.caches import build_vectors
from support.labs import hash_of, lab, open_page
from support.pictures import shoot_everywhere
from support.views import markup, text


# ------------------------------------------------------------------ worked by hand


def test_an_angle_is_the_arccosine_in_degrees():
    assert angles.angle(1.0) == 0.0
    assert angles.angle(0.0) == pytest.approx(90.0)
    assert angles.angle(0.5) == pytest.approx(60.0)
    assert angles.angle(-1.0) == pytest.approx(180.0)
    assert angles.angle(1.0000001) == 0.0          # a float a hair past 1 is still an angle


def test_the_three_passages_are_the_right_one_the_best_wrong_one_and_the_least_alike():
    dense = [["b", 0.7], ["a", 0.6], ["c", 0.1], ["d", -0.2]]
    assert angles.chosen(dense, "a") == ["a", "b", "d"]
    assert angles.chosen(dense, "b") == ["b", "a", "d"]     # ranked first: the near miss is second
    assert angles.chosen(dense, "d") == ["d", "b", "c"]     # the least alike is never the right one


def test_the_drawn_angle_is_the_difference_on_one_side_and_the_sum_across():
    assert angles.drawn_angle(50.0, 1, 65.0, 1) == 15.0
    assert angles.drawn_angle(50.0, 1, 65.0, -1) == 115.0
    assert angles.drawn_angle(120.0, 1, 150.0, -1) == 90.0  # 270 one way round is 90 the other


def test_the_sides_are_chosen_to_miss_the_true_angles_by_the_least():
    # Two passages at 30 and 40 degrees from the question, 70 apart: only opposite sides come close.
    assert angles.best_sides([30.0, 40.0], {(0, 1): 70.0}) == [1, -1]
    assert angles.best_sides([30.0, 40.0], {(0, 1): 12.0}) == [1, 1]
    # A tie keeps all on one side.
    assert angles.best_sides([30.0, 30.0], {(0, 1): 30.0}) == [1, 1]


# ------------------------------------------------------------------ the lab's data


def test_the_data_holds_every_preset_with_its_real_cosines_and_angles(data):
    own = data["labs"]["angles"]["questions"]
    # Every question with a right passage to draw (those nothing answers have no angle to show).
    assert set(own) == {q["id"] for q in data["questions"] if q["answer"]}
    vectors = dict(zip([p["id"] for p in data["passages"]], build_vectors([p["text"] for p in data["passages"]]).astype(np.float64)))
    for q in (q for q in data["questions"] if q["answer"]):
        run = data["runs"][q["id"]]["dense"]
        record = own[q["id"]]
        ids = [p["id"] for p in record["passages"]]
        wrong = [pid for pid, _ in run if pid != q["answer"]]
        assert ids == [q["answer"], wrong[0], run[-1][0] if run[-1][0] != q["answer"] else run[-2][0]], q["id"]
        assert [p["role"] for p in record["passages"]] == ["right", "near", "far"]
        for p in record["passages"]:
            assert p["cosine"] == dict(run)[p["id"]]
            assert math.cos(math.radians(p["angle"])) == pytest.approx(p["cosine"], abs=1e-6)
            assert p["side"] in (1, -1)
        assert record["passages"][0]["side"] == 1
        side = {p["id"]: (p["angle"], p["side"]) for p in record["passages"]}
        for pair in record["pairs"]:
            true = float(vectors[pair["a"]] @ vectors[pair["b"]])
            assert pair["cosine"] == pytest.approx(true, abs=1e-6)
            assert math.cos(math.radians(pair["angle"])) == pytest.approx(true, abs=1e-5)
            (a, sa), (b, sb) = side[pair["a"]], side[pair["b"]]
            assert pair["drawn"] == pytest.approx(abs(a - b) if sa == sb else min(a + b, 360 - a - b), abs=1e-5)
            # On paper the angle is one end of the range the true one lies in.
            assert abs(a - b) - 1e-4 <= pair["angle"] <= a + b + 1e-4
        gaps = [abs(p["drawn"] - p["angle"]) for p in record["pairs"]]
        assert record["worst"] == gaps.index(max(gaps))


# ------------------------------------------------------------------ the view, in Node


def arrow_angles(node):
    """Each arrow's label, its angle from the question's arrow (degrees), and its side (+1 above)."""
    found = {}
    for group in node.css("g.angles-arrow"):
        line = group.css_first("line")
        x1, y1, x2, y2 = (float(line.attributes[a]) for a in ("x1", "y1", "x2", "y2"))
        angle = math.degrees(math.atan2(-(y2 - y1), x2 - x1))
        found[text(group.css_first("text"))] = (abs(angle), 1 if angle > 0 else -1 if angle < 0 else 0)
    return found


APART = 6.0  # degrees: the page draws arrows closer than this on the plane this far apart, and says so


def signed(found):
    return {name: angle * side for name, (angle, side) in found.items()}


def crowded_pairs(record):
    """The pairs of arrows closer than APART on the plane, worked from the data: a passage and the
    question (its angle), or two passages (their angle on the plane, drawn_angle)."""
    close = [("question", p["id"], p["angle"]) for p in record["passages"] if p["angle"] < APART]
    return close + [(pair["a"], pair["b"], pair["drawn"]) for pair in record["pairs"] if pair["drawn"] < APART]


def test_the_view_draws_each_passage_at_its_angle_and_lists_both_kinds_of_angle(views, data):
    own = data["labs"]["angles"]["questions"]
    questions = [q for q in data["questions"] if q["answer"]]
    roles = {"right": "right passage", "near": "near miss", "far": "least alike"}
    minus = lambda s: s.replace("-", "−")  # noqa: E731 (the page prints a real minus sign)
    for q, drawing in zip(questions, views.draw_many("angles", [{"q": q["id"]} for q in questions])):
        node = markup(drawing.html)
        record = own[q["id"]]
        drawn = arrow_angles(node)
        assert drawn["question"] == (0.0, 0)
        moved = {name for a, b, _ in crowded_pairs(record) for name in (a, b)}
        for p in record["passages"]:
            if p["id"] in moved:   # pushed apart, never by more than APART
                assert abs(signed(drawn)[p["id"]] - p["side"] * p["angle"]) <= APART + 0.2, (q["id"], p["id"])
            else:
                assert drawn[p["id"]][0] == pytest.approx(p["angle"], abs=0.2), (q["id"], p["id"])
                assert drawn[p["id"]][1] == p["side"]
        rows = [[text(cell) for cell in row.css("th, td")] for row in node.css("table.angles-table")[0].css("tbody tr")]
        assert rows == [[f"{p['id']} {roles[p['role']]}", minus(f"{p['cosine']:.3f}"), f"{p['angle']:.1f}°"]
                        for p in record["passages"]]
        pairs = [[text(cell) for cell in row.css("th, td")] for row in node.css("table.angles-table")[1].css("tbody tr")]
        assert pairs == [[f"{r['a']} and {r['b']}", f"{r['drawn']:.1f}°", minus(f"{r['cosine']:.3f}"), f"{r['angle']:.1f}°"]
                         for r in record["pairs"]]
        right, near = record["passages"][:2]
        status = text(node.css_first(".lab-status"))
        if right["angle"] <= near["angle"]:
            assert status == (f"“{q['text']}”: the right passage, {right['id']} ({right['angle']:.1f}°), points closer to "
                              f"the question than the near miss, {near['id']} ({near['angle']:.1f}°).")
        else:
            assert status == (f"“{q['text']}”: the near miss, {near['id']} ({near['angle']:.1f}°), points closer to the "
                              f"question than the right passage, {right['id']} ({right['angle']:.1f}°), so dense search "
                              "ranks it higher.")
        worst = record["pairs"][record["worst"]]
        assert text(node.css_first(".angles-loss")).endswith(
            f"the worst here is {worst['a']} and {worst['b']}, {worst['drawn']:.1f}° apart on the plane, really {worst['angle']:.1f}°.")
        assert drawing.summary == status


def test_arrows_closer_than_a_few_degrees_are_drawn_apart_and_the_figure_says_so(views, data):
    own = data["labs"]["angles"]["questions"]
    questions = [q for q in data["questions"] if q["answer"]]
    crowded = 0
    for q, drawing in zip(questions, views.draw_many("angles", [{"q": q["id"]} for q in questions])):
        node = markup(drawing.html)
        at = sorted(signed(arrow_angles(node)).values())
        # Coordinates are drawn to 0.1 unit at a radius of about 106 units: 0.1 degree of slack.
        assert min(b - a for a, b in zip(at, at[1:])) >= APART - 0.1, q["id"]
        close = crowded_pairs(own[q["id"]])
        note = node.css_first(".angles-moved")
        if not close:
            assert note is None, q["id"]
            continue
        crowded += 1
        said = text(note)
        assert said.startswith("Moved apart to be read: ") and said.endswith(
            f"so their arrows are drawn {APART:.0f}° apart (one would hide the other). The angles in the tables are exact."), said
        for a, b, apart in close:
            named = "the question" if a == "question" else a
            assert f"{named} and {b} are {apart:.1f}° apart on this plane" in said, (q["id"], said)
    assert crowded >= 1, "no preset has arrows that close: the test proves nothing"
    g30 = text(markup(views.draw("angles", {"q": "g30"}).html).css_first(".angles-moved"))
    assert "err-4021 and export-markdown are 0.4° apart on this plane" in g30


def test_the_drawing_holds_every_label_inside_its_frame(views, data):
    answered = [q for q in data["questions"] if q["answer"]]
    for q, drawing in zip(answered, views.draw_many("angles", [{"q": q["id"]} for q in answered])):
        node = markup(drawing.html)
        x0, y0, width, height = (float(v) for v in node.css_first("svg.angles-drawing").attributes["viewBox"].split())
        for label in node.css("text.angles-label"):
            x, y = float(label.attributes["x"]), float(label.attributes["y"])
            chars = len(text(label)) * 7.8
            left = {"start": x, "end": x - chars, "middle": x - chars / 2}[label.attributes["text-anchor"]]
            assert x0 <= left and left + chars <= x0 + width, (q["id"], text(label))
            assert y0 + 10 <= y <= y0 + height, (q["id"], text(label))


def test_the_view_refuses_a_question_it_has_no_angles_for(views):
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("angles", {"q": "live"})


# ------------------------------------------------------------------ in the browser


@pytest.mark.browser
def test_the_picker_changes_the_question_and_the_link(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-angles")
    section = lab(page, "angles")
    section.locator('select[data-picker="question"]').select_option("g30")
    right = data["labs"]["angles"]["questions"]["g30"]["passages"][0]
    assert section.locator("table.angles-table tbody tr").first.get_attribute("data-pid") == right["id"]
    assert hash_of(page) == "#lab-angles?q=g30"


@pytest.mark.browser
def test_the_drawing_and_its_tables_fit_a_360_pixel_phone(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-angles", viewport={"width": 360, "height": 780})
    section = lab(page, "angles")
    own = data["labs"]["angles"]["questions"]
    longest = max(own, key=lambda q: max(len(p["id"]) for p in own[q]["passages"]))
    for q in ("refund-three-weeks", longest):   # passages on both sides; the longest ids
        assert page.evaluate("([n, q]) => RAG.labContext(n).set({q}, {link: false})", ["angles", q])
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
        inside = section.locator(".lab-output").evaluate("""out => { const edge = out.getBoundingClientRect().right;
            return [...out.querySelectorAll('svg, th, td')].every(el => el.getBoundingClientRect().right <= edge + 0.5); }""")
        assert inside, f"{q}: a cell or the drawing reaches past the lab's edge"


@pytest.fixture(scope="module")
def shared(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-angles?q=g30")


@pytest.mark.browser
def test_screenshots_of_the_drawing_with_arrows_moved_apart(shared):
    section = lab(shared, "angles")
    expect(section.locator(".angles-moved")).to_contain_text("err-4021 and export-markdown are 0.4° apart")

    def largest(page, device):
        """On a desktop the drawing is the largest thing in the lab; on a phone it takes the lab's whole width."""
        out = section.locator(".lab-output")
        if device == "desktop":
            areas = out.evaluate("""out => [...out.querySelectorAll('svg.angles-drawing, table')]
                .map(el => { const r = el.getBoundingClientRect(); return [el.tagName.toLowerCase(), r.width * r.height]; })""")
            assert max(areas, key=lambda a: a[1])[0] == "svg", areas
        else:
            widths = out.evaluate("out => [out.clientWidth, out.querySelector('svg.angles-drawing').getBoundingClientRect().width]")
            assert widths[1] >= widths[0] - 2, widths

    shoot_everywhere(shared, "#lab-angles .angles-figure", "picture-angles-g30", check=largest)
