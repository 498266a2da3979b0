"""Where questions land (site_src/labs/map/): the measure of kept neighbours and the three
projections it chooses among, checked on small cases with known answers; the cache of the
projections; the lab's data against the build's own vectors (each share recomputed here by
plain arithmetic); the view in Node for every preset question; and in Chromium a question
asked live placed the way the build placed the presets, and the map fitting a 360 px phone."""

import math
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from site_src.labs.map import data as map_lab
from site_src.labs.map import projection
from support.caches import build_vectors
from support.labs import hash_of, lab, open_page
from support.paths import ROOT
from support.pictures import shoot_everywhere
from support.views import markup, text


# ------------------------------------------------------------------ the measure


def test_nearest_by_cosine_ranks_the_most_similar_first_and_never_the_row_itself():
    unit = lambda a: [math.cos(math.radians(a)), math.sin(math.radians(a))]  # noqa: E731
    vectors = np.array([unit(0), unit(10), unit(60), unit(100)])
    assert projection.nearest_by_cosine(vectors, 2) == [[1, 2], [0, 2], [3, 1], [2, 1]]


def test_nearest_on_the_plane_is_by_straight_line_distance():
    points = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 3.0], [5.0, 5.0]])
    assert projection.nearest_on_plane(points, 2) == [[1, 2], [0, 2], [0, 1], [2, 1]]


def test_the_kept_share_counts_shared_neighbours_whatever_their_order():
    true = [[1, 2], [0, 2], [0, 1]]
    assert projection.kept_share(true, [[2, 1], [2, 0], [1, 0]]) == 1.0
    assert projection.kept_share(true, [[1, 3], [3, 4], [0, 1]]) == pytest.approx((1 / 2 + 0 + 1) / 3)


def test_a_projection_that_keeps_every_distance_keeps_every_neighbour():
    # Points already on a plane, in 3 dimensions: PCA finds that plane and loses nothing.
    rng = np.random.default_rng(5)
    flat = rng.normal(size=(30, 2)) @ np.array([[1.0, 2.0, 0.5], [-0.3, 0.4, 1.0]])
    mean, axes, kept = projection.principal_axes(flat)
    assert kept.sum() == pytest.approx(1.0)
    assert projection.nearest_on_plane((flat - mean) @ axes.T, 5) == projection.nearest_on_plane(flat, 5)


def test_the_axes_of_points_on_a_line_are_the_line_and_keep_all_the_variance():
    points = np.array([[0.0, 1.0, 5.0], [2.0, 1.0, 5.0], [4.0, 1.0, 5.0]])
    mean, axes, kept = projection.principal_axes(points)
    assert mean.tolist() == [2.0, 1.0, 5.0]
    assert axes[0].tolist() == pytest.approx([1.0, 0.0, 0.0])
    assert kept[0] == pytest.approx(1.0) and kept[1] == pytest.approx(0.0)


def test_the_axes_are_orthonormal_ordered_by_variance_and_do_not_flip_sign():
    rng = np.random.default_rng(3)
    points = rng.normal(size=(40, 6)) * np.array([5.0, 3.0, 1.0, 0.5, 0.2, 0.1])
    _, axes, kept = projection.principal_axes(points)
    assert axes @ axes.T == pytest.approx(np.eye(2), abs=1e-12)
    assert kept[0] >= kept[1] and kept.sum() <= 1
    _, flipped_axes, _ = projection.principal_axes(-points)            # the same cloud, mirrored
    for axis in (*axes, *flipped_axes):
        assert axis[np.abs(axis).argmax()] > 0


def test_upright_turns_a_layout_without_changing_a_distance():
    tall = np.array([[0.0, 0.0], [0.2, 4.0], [-0.1, 2.0], [0.0, -1.0]])
    turned = projection.upright(tall)
    distances = lambda p: np.linalg.norm(p[:, None] - p[None], axis=2)  # noqa: E731
    assert distances(turned) == pytest.approx(distances(tall))
    assert np.ptp(turned[:, 0]) > np.ptp(turned[:, 1])                # the long side now runs across
    assert turned.mean(axis=0) == pytest.approx([0.0, 0.0])
    assert turned[np.abs(turned[:, 0]).argmax(), 0] > 0
    assert projection.upright(-tall) == pytest.approx(turned)         # a mirror image draws the same


# ------------------------------------------------------------------ into the drawing


def test_the_drawing_uses_one_scale_for_both_axes_and_centres_the_points():
    width, height, pad = map_lab.WIDTH, map_lab.HEIGHT, map_lab.PAD
    frame = map_lab.fit(np.array([[0.0, 0.0], [2.0, 1.0]]))
    scale = min((width - 2 * pad) / 2, (height - 2 * pad) / 1)
    assert frame == (width / 2 - scale * 1.0, height / 2 + scale * 0.5, scale)
    drawn = map_lab.to_drawing(np.array([[0.0, 0.0], [2.0, 1.0], [1.0, 0.5]]), frame)
    assert drawn[2] == [width / 2, height / 2]
    assert drawn[0][1] - drawn[1][1] == pytest.approx(scale)            # one unit up is `scale` units on paper
    assert drawn[1][0] - drawn[0][0] == pytest.approx(2 * scale)


def test_coordinates_round_as_the_page_prints_them():
    # 0.25 and 0.35 are exact and inexact halves: round() takes the decimal nearest the double.
    assert map_lab.to_drawing(np.array([[0.25, -0.35]]), (0.0, 0.0, 1.0)) == [[0.2, 0.3]]


def test_a_question_is_placed_at_the_cosine_weighted_mean_of_its_nearest_passages():
    xy = {"a": [0.0, 0.0], "b": [30.0, 0.0], "c": [0.0, 60.0]}
    assert map_lab.placed_by_neighbours([["a", 0.5], ["b", 0.25]], xy) == [10.0, 0.0]
    assert map_lab.placed_by_neighbours([["a", 0.6], ["c", -0.2]], xy) == [0.0, 0.0]      # a negative cosine weighs 0
    assert map_lab.placed_by_neighbours([["b", -0.1], ["c", 0.0]], xy) == [15.0, 30.0]    # none positive: equal weights


# ------------------------------------------------------------------ the cache


def test_the_projections_are_computed_once_then_read_back(data, tmp_path, monkeypatch):
    """A cold cache computes once and reads the same numbers back; the session's build left the
    real projections of the page's passages in the project's cache, read back with nothing
    computed. (Computing them here would cost scikit-learn's import and t-SNE: 20 s of the suite.)"""
    vectors = np.random.default_rng(1).normal(size=(12, 8))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    computed = []

    def planes(v):  # projection.planes' shape of answer, in numbers JSON must carry exactly
        computed.append(v)
        return {method: np.random.default_rng(i).normal(size=(len(v), 2)) for i, method in enumerate(projection.METHODS)}

    monkeypatch.setattr(projection, "planes", planes)
    first = map_lab.cached_planes(vectors, tmp_path)
    again = map_lab.cached_planes(vectors, tmp_path)
    assert len(computed) == 1, "computed again on a warm cache"
    assert all(np.array_equal(first[m], again[m]) for m in projection.METHODS)
    monkeypatch.setattr(projection, "planes", lambda v: pytest.fail("computed again on the build's warm cache"))
    passages = np.asarray(build_vectors([p["text"] for p in data["passages"]]), dtype=np.float64)
    built = map_lab.cached_planes(passages, ROOT / ".cache")  # where the session's build keeps them
    assert set(built) == set(projection.METHODS) and all(p.shape == (len(passages), 2) for p in built.values())


def test_an_edit_of_the_projection_code_or_new_vectors_misses_the_cache(tmp_path, monkeypatch):
    vectors = np.eye(4)
    before = map_lab.cache_key(vectors)
    assert map_lab.cache_key(vectors[::-1]) != before
    copy = tmp_path / "projection.py"
    copy.write_text(map_lab.CODE[0].read_text("utf-8"), "utf-8")
    monkeypatch.setattr(map_lab, "CODE", (copy,))
    same_code = map_lab.cache_key(vectors)
    copy.write_text(copy.read_text("utf-8").replace('"perplexity": 10.0', '"perplexity": 12.0'), "utf-8")
    assert map_lab.cache_key(vectors) != same_code


# ------------------------------------------------------------------ the lab's data


def plane_neighbours(points, k):
    """Independent of projection.py: sorted by squared distance, the point itself left out."""
    found = []
    for i, (x, y) in enumerate(points):
        others = sorted((((x - a) ** 2 + (y - b) ** 2), j) for j, (a, b) in enumerate(points) if j != i)
        found.append({j for _, j in others[:k]})
    return found


def test_the_map_shows_the_projection_that_keeps_the_most_and_states_its_share(data):
    own = data["labs"]["map"]
    k = own["nearest"]
    vectors = build_vectors([p["text"] for p in data["passages"]]).astype(np.float64)
    cosines = vectors @ vectors.T
    true = [set(sorted((j for j in range(len(vectors)) if j != i), key=lambda j: -cosines[i, j])[:k])
            for i in range(len(vectors))]
    shown = plane_neighbours(own["passages"], k)
    share = sum(len(t & s) for t, s in zip(true, shown)) / (k * len(true))
    assert own["kept"][own["method"]] == pytest.approx(share, abs=1e-6)
    assert own["kept"][own["method"]] == max(own["kept"].values())
    assert set(own["kept"]) == {"pca", "mds", "tsne"} and all(0 < v <= 1 for v in own["kept"].values())
    assert own["chance"] == pytest.approx(k / (len(vectors) - 1), abs=1e-6)
    # PCA's share, recomputed from scratch: the plane of the two largest singular directions.
    centred = vectors - vectors.mean(axis=0)
    plane = centred @ np.linalg.svd(centred, full_matrices=False)[2][:2].T
    pca = sum(len(t & s) for t, s in zip(true, plane_neighbours(plane.tolist(), k))) / (k * len(true))
    assert own["kept"]["pca"] == pytest.approx(pca, abs=1 / (k * len(true)) + 1e-9)  # rounding may move one neighbour


def test_every_dot_and_square_lies_inside_the_drawing(data):
    own = data["labs"]["map"]
    width, height = own["size"]
    every = np.asarray(own["passages"] + list(own["questions"].values()))
    assert every.min() >= 0 and every[:, 0].max() <= width and every[:, 1].max() <= height
    assert len(own["passages"]) == len(data["passages"]) and set(own["questions"]) == {q["id"] for q in data["questions"]}


def test_each_preset_is_placed_as_the_page_says(data):
    own = data["labs"]["map"]
    xy = dict(zip([p["id"] for p in data["passages"]], own["passages"]))
    for q in data["questions"]:
        nearest = data["runs"][q["id"]]["dense"][: own["nearest"]]
        if own["placement"] == "neighbours":
            weights = [max(c, 0.0) for _, c in nearest]
            weights = weights if sum(weights) else [1.0] * len(nearest)
            x = sum(w * xy[pid][0] for (pid, _), w in zip(nearest, weights)) / sum(weights)
            y = sum(w * xy[pid][1] for (pid, _), w in zip(nearest, weights)) / sum(weights)
            assert own["questions"][q["id"]] == pytest.approx([x, y], abs=0.051), q["id"]
        else:
            vector = build_vectors([q["text"]]).astype(np.float64)[0]
            p = own["projection"]
            plane = np.asarray(p["axes"]) @ (vector - np.asarray(p["mean"]))
            at = [p["frame"][0] + p["frame"][2] * plane[0], p["frame"][1] - p["frame"][2] * plane[1]]
            assert own["questions"][q["id"]] == pytest.approx(at, abs=0.06), q["id"]


def test_what_the_browser_never_reads_stays_in_the_builds_data(dist_dir):
    shipped = (dist_dir / "assets" / "labs" / "map.js").read_text("utf-8")
    for key in ("variance", "chance", "same_document", "perplexity"):   # keys found nowhere else in the data
        assert f'"{key}":' not in shipped, key
    assert '"kept":' in shipped and '"placement":' in shipped


# ------------------------------------------------------------------ the view, in Node


def drawn(html):
    node = markup(html)
    box = node.css_first("rect.map-question.is-shown")
    return {
        "at": [float(box.attributes["x"]) + 7, float(box.attributes["y"]) + 7],
        "squares": len(node.css("rect.map-question")),
        "links": [(float(line.attributes["x2"]), float(line.attributes["y2"])) for line in node.css("line.map-link")],
        "near": [c.css_first("title").text().split(" ")[0] for c in node.css("circle.map-passage.is-near")],
        "nearest": [(li.attributes["data-pid"], text(li.css_first(".score")), "is-answer" in li.attributes["class"])
                    for li in node.css("ol.map-nearest li")],
        "shown": text(node.css_first(".map-shown")),
        "caption": text(node.css_first("figcaption")),
        "dots": len(node.css("circle.map-passage")),
    }


def test_the_view_draws_every_preset_where_the_build_put_it_with_its_nearest_passages(views, data):
    own = data["labs"]["map"]
    xy = dict(zip([p["id"] for p in data["passages"]], own["passages"]))
    questions = data["questions"]
    for q, drawing in zip(questions, views.draw_many("map", [{"q": q["id"]} for q in questions])):
        got = drawn(drawing.html)
        nearest = data["runs"][q["id"]]["dense"][: own["nearest"]]
        assert got["at"] == pytest.approx(own["questions"][q["id"]], abs=0.051), q["id"]
        assert got["nearest"] == [(pid, f"{score:.3f}", pid in q["answers"]) for pid, score in nearest]
        assert got["links"] == [tuple(xy[pid]) for pid, _ in nearest]
        assert sorted(got["near"]) == sorted(pid for pid, _ in nearest)
        assert got["dots"] == len(data["passages"]) and got["squares"] == len(questions)
        assert got["shown"] == f"“{q['text']}”, computed by the build"


def test_the_caption_names_the_projection_and_states_every_share(views, data):
    own = data["labs"]["map"]
    caption = drawn(views.draw("map", {"q": "g05"}).html)["caption"]
    names = {"pca": "PCA", "mds": "classical MDS", "tsne": "t-SNE"}
    assert caption.startswith(f"Drawn by {names[own['method']]}: of each passage's {own['nearest']} nearest passages")
    for method, share in own["kept"].items():
        assert f"{share * 100:.1f}%" in caption, method
    if own["placement"] == "neighbours":
        assert "each question sits at the mean of the places of its 5 nearest passages, each weighted by its cosine" in caption
    else:
        assert "Each question is projected onto the same plane as the passages." in caption


LABELLED = 3  # the page names the 3 nearest passages on the map, and the right passages always


def test_the_right_passage_is_ringed_and_the_nearest_few_are_named_beside_their_dots(views, data):
    own = data["labs"]["map"]
    xy = dict(zip([p["id"] for p in data["passages"]], own["passages"]))
    questions = [q for q in data["questions"] if q["answers"]]
    for q, drawing in zip(questions, views.draw_many("map", [{"q": q["id"]} for q in questions])):
        node = markup(drawing.html)
        rings = {c.attributes["data-pid"]: (float(c.attributes["cx"]), float(c.attributes["cy"])) for c in node.css("circle.map-answer-ring")}
        assert rings == {pid: tuple(xy[pid]) for pid in q["answers"]}, q["id"]
        assert {c.attributes["data-pid"] for c in node.css("circle.map-passage.is-answer")} == set(q["answers"])
        nearest = [pid for pid, _ in data["runs"][q["id"]]["dense"][:LABELLED]]
        labels = {t.attributes["data-pid"]: t for t in node.css("text.map-label")}
        assert set(labels) == set(nearest) | set(q["answers"]), q["id"]
        width, height = own["size"]
        for pid, label in labels.items():
            assert text(label) == pid
            x, y = float(label.attributes["x"]), float(label.attributes["y"])
            assert 0 <= x <= width and 0 <= y <= height
            # Beside its own dot: within a few label heights of it.
            assert math.dist((x, y), xy[pid]) <= 60, (q["id"], pid)
            assert ("is-answer" in label.attributes["class"]) == (pid in q["answers"])
        assert text(node.css_first(".map-picked")) == "Tap or click a dot to name its passage."


def test_the_view_refuses_a_question_nobody_searched(views):
    with pytest.raises(AssertionError, match="accept\\(\\) refused"):
        views.draw("map", {"q": "no-such-question"})


# ------------------------------------------------------------------ in the browser


def square(section):
    box = section.locator("rect.map-question.is-shown")
    return [float(box.get_attribute("x")) + 7, float(box.get_attribute("y")) + 7]


@pytest.fixture(scope="module")
def desktop(make_page_module, site_url):
    """The page opened on the map lab at its default, for the tests that change its question."""
    return open_page(make_page_module, site_url, "#lab-map")


@pytest.mark.browser
def test_the_picker_changes_the_question_and_the_link(desktop, data):
    page = desktop
    section = lab(page, "map")
    q = data["questions"][11]
    section.locator('select[data-picker="question"]').select_option(q["id"])
    assert square(section) == pytest.approx(data["labs"]["map"]["questions"][q["id"]], abs=0.051)
    assert hash_of(page) == f"#lab-map?q={q['id']}"


@pytest.mark.browser
def test_a_question_asked_live_is_placed_the_way_the_build_placed_the_presets(desktop, data):
    page = desktop
    section = lab(page, "map")
    own = data["labs"]["map"]
    q = data["questions"][7]
    vector = build_vectors([q["text"]]).astype(np.float64)[0].tolist()
    page.evaluate("""([q, runs, vector]) => RAG.corpus.page(RAG.data).questions.add({id: "live", text: q.text + " (asked here)", set: "live",
        answer: null, paraphrase: false, runs, vector})""", [q, data["runs"][q["id"]], vector])
    section.locator('select[data-picker="question"]').select_option("live")
    expect(section.locator(".map-shown")).to_contain_text("placed and ranked live in your browser")
    # The browser's placement of a preset's own ranking (and vector) lands on the build's point.
    assert square(section) == pytest.approx(own["questions"][q["id"]], abs=0.051)
    assert section.locator("rect.map-question").count() == len(data["questions"]) + 1


@pytest.mark.browser
def test_the_map_fits_a_360_pixel_phone(make_page, site_url):
    page = open_page(make_page, site_url, "#lab-map", viewport={"width": 360, "height": 780})
    section = lab(page, "map")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    box = section.locator("svg.map").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    # The dots grow on a narrow screen, so they stay big enough to see and tap.
    radius = section.locator("circle.map-passage").first.evaluate("c => c.getBoundingClientRect().width / 2")
    assert radius >= 4


@pytest.fixture(scope="module")
def shared(make_page_module, site_url):
    return open_page(make_page_module, site_url, "#lab-map?q=upload-4021")


LABEL_BOXES_JS = """s => [...s.querySelectorAll('text.map-label')].map(t => {
    const r = t.getBoundingClientRect(); return {pid: t.dataset.pid, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


@pytest.mark.browser
def test_a_tap_names_a_dot_labels_do_not_overlap_and_the_map_is_shot_everywhere(shared, data):
    section = lab(shared, "map")
    expect(section.locator(".map-picked")).to_have_text("Tap or click a dot to name its passage.")
    passages = {p["id"]: p for p in data["passages"]}
    dense = data["runs"]["upload-4021"]["dense"]
    far = dense[-1][0]                      # a dot with no label: the tap is the only way to name it
    box = section.locator(f'circle.map-passage[data-pid="{far}"]').bounding_box()
    shared.mouse.click(box["x"] + box["width"] / 2 + 3, box["y"] + box["height"] / 2 + 2)   # a little off, as a finger is
    expect(section.locator(".map-picked")).to_contain_text(f"{far} · {passages[far]['title']}")
    expect(section.locator(".map-picked")).to_contain_text(f"cosine {dense[-1][1]:.3f} with the question, rank {len(dense)}")
    expect(section.locator(f'circle.map-passage[data-pid="{far}"]')).to_have_class(re.compile(r"\bis-picked\b"))

    def labels_apart(page, device):
        svg = section.locator("svg.map").bounding_box()
        boxes = section.evaluate(LABEL_BOXES_JS)
        assert boxes, "no label drawn"
        for i, a in enumerate(boxes):
            assert svg["x"] - 1 <= a["left"] and a["right"] <= svg["x"] + svg["width"] + 1, (device, a)
            for b in boxes[i + 1:]:
                apart = a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
                assert apart, (device, a["pid"], b["pid"])

    shoot_everywhere(shared, "#lab-map .map-layout", "picture-map", check=labels_apart)


@pytest.mark.browser
def test_by_keyboard_the_dots_are_one_tab_stop_and_the_arrows_name_each_passage(shared, data):
    """The dots take the keyboard as the winners' scatter does (RAG.kit.roveDots): one tab stop,
    first on the nearest passage; a focused dot is named under the map as a tapped one is; the
    arrow keys, Home and End move along the drawing's order, and Tab comes back to the dot left."""
    section = lab(shared, "map")
    dots = section.locator("circle.map-passage")
    order = dots.evaluate_all("cs => cs.map(c => c.dataset.pid)")
    dense = data["runs"]["upload-4021"]["dense"]
    passages = {p["id"]: p for p in data["passages"]}
    stops = section.locator('circle.map-passage[tabindex="0"]')
    expect(stops).to_have_count(1)
    expect(stops).to_have_attribute("data-pid", dense[0][0])
    section.locator("select").first.focus()
    for _ in range(6):  # the controls after the picker, then the map's one stop
        shared.keyboard.press("Tab")
        if shared.evaluate("() => document.activeElement.matches('circle.map-passage')"):
            break
    focused = lambda: shared.evaluate("() => document.activeElement.dataset.pid")  # noqa: E731
    assert focused() == dense[0][0], "Tab does not reach the map's dots"
    picked = section.locator(".map-picked")
    expect(picked).to_contain_text(f"{dense[0][0]} · {passages[dense[0][0]]['title']}")
    at = order.index(dense[0][0])
    shared.keyboard.press("ArrowRight" if at + 1 < len(order) else "ArrowLeft")
    moved = order[at + 1] if at + 1 < len(order) else order[at - 1]
    assert focused() == moved
    expect(picked).to_contain_text(f"{moved} · {passages[moved]['title']}")
    expect(stops).to_have_attribute("data-pid", moved)
    shared.keyboard.press("End")
    assert focused() == order[-1]
    shared.keyboard.press("Home")
    assert focused() == order[0]
    shared.keyboard.press("Shift+Tab")
    shared.keyboard.press("Tab")
    assert focused() == order[0], "the tab stop stays on the dot the reader left"
    expect(stops).to_have_count(1)
