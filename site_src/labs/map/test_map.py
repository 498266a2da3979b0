"""Where questions land (site_src/labs/map/): the plane of the passages' two
main directions, computed by numpy; every preset question placed on it by the build; the list of
nearest passages from the full 384-number cosine; in the browser, a question asked live placed
through the same projection (here a preset's own build vector, which must land where the build
put it), and the drawing of every preset equal to the build's."""

import numpy as np
import pytest
from playwright.sync_api import expect

from builder.embed_cache import EmbeddingCache
from site_src.labs.map import data as map_lab
from engine.dense import model_fingerprint
from support.labs import lab, open_page
from support.paths import ROOT


def build_vectors(texts):
    return EmbeddingCache(ROOT / ".cache", model_fingerprint()).embed(texts).astype(np.float64)


# ------------------------------------------------------------------ the projection


def test_the_axes_of_points_on_a_line_are_the_line_and_keep_all_the_variance():
    points = np.array([[0.0, 1.0, 5.0], [2.0, 1.0, 5.0], [4.0, 1.0, 5.0]])
    mean, axes, kept = map_lab.principal_axes(points)
    assert mean.tolist() == [2.0, 1.0, 5.0]
    assert axes[0].tolist() == pytest.approx([1.0, 0.0, 0.0])     # the one direction that varies
    assert kept[0] == pytest.approx(1.0) and kept[1] == pytest.approx(0.0)
    assert map_lab.project(points, mean, axes)[:, 0].tolist() == pytest.approx([-2.0, 0.0, 2.0])


def test_the_axes_are_orthonormal_ordered_by_variance_and_do_not_flip_sign():
    rng = np.random.default_rng(3)
    points = rng.normal(size=(40, 6)) * np.array([5.0, 3.0, 1.0, 0.5, 0.2, 0.1])
    _, axes, kept = map_lab.principal_axes(points)
    assert axes @ axes.T == pytest.approx(np.eye(2), abs=1e-12)
    assert kept[0] >= kept[1] and kept.sum() <= 1
    _, flipped_axes, _ = map_lab.principal_axes(-points)            # the same cloud, mirrored
    for axis in (*axes, *flipped_axes):
        assert axis[np.abs(axis).argmax()] > 0


def test_the_plane_maps_into_the_drawing_with_y_growing_downwards():
    frame = np.array([0.0, 0.0, 2.0, 1.0])
    width, height, pad = map_lab.WIDTH, map_lab.HEIGHT, map_lab.PAD
    assert map_lab.to_drawing(np.array([[0.0, 0.0], [2.0, 1.0], [1.0, 0.5]]), frame) == [
        [pad, height - pad], [width - pad, pad], [width / 2, height / 2]]


def test_the_lab_data_is_the_projection_of_the_builds_vectors(data):
    own = data["labs"]["map"]
    passages = build_vectors([p["text"] for p in data["passages"]])
    mean, axes, kept = map_lab.principal_axes(passages)
    assert own["kept"] == pytest.approx(kept.tolist(), abs=1e-6)
    assert np.asarray(own["axes"]) == pytest.approx(axes, abs=1e-6)
    frame = np.asarray(own["frame"])
    assert own["passages"] == map_lab.to_drawing(map_lab.project(passages, mean, axes), frame)
    questions = build_vectors([q["text"] for q in data["questions"]])
    placed = map_lab.to_drawing(map_lab.project(questions, mean, axes), frame)
    assert [own["questions"][q["id"]] for q in data["questions"]] == placed
    every = np.asarray(own["passages"] + placed)
    assert every.min() >= 0 and every[:, 0].max() <= map_lab.WIDTH and every[:, 1].max() <= map_lab.HEIGHT
    assert own["documents"] == list(dict.fromkeys(p["document"] for p in data["passages"]))


# ------------------------------------------------------------------ in the browser


def square(section):
    box = section.locator("rect.map-question.is-shown")
    return [float(box.get_attribute("x")) + 6, float(box.get_attribute("y")) + 6]


@pytest.mark.browser
def test_every_preset_is_drawn_where_the_build_put_it_with_its_nearest_passages(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-map")
    section = lab(page, "map")
    own = data["labs"]["map"]
    picker = section.locator('select[data-picker="question"]')
    for q in data["questions"][:: 5]:
        picker.select_option(q["id"])
        assert square(section) == pytest.approx(own["questions"][q["id"]], abs=0.051)
        nearest = [pid for pid, _ in data["runs"][q["id"]]["dense"][: own["nearest"]]]
        assert section.locator("ol.map-nearest li").evaluate_all("els => els.map(e => e.dataset.pid)") == nearest
        assert section.locator("line.map-link").count() == own["nearest"]
        assert section.locator("circle.map-passage.is-near").count() == own["nearest"]
        assert "computed by the build" in section.locator(".map-shown").text_content()


@pytest.mark.browser
def test_a_question_asked_live_is_placed_through_the_same_projection(make_page, site_url, data):
    page = open_page(make_page, site_url, "#lab-map")
    section = lab(page, "map")
    own = data["labs"]["map"]
    q = data["questions"][7]
    vector = build_vectors([q["text"]])[0].tolist()
    page.evaluate("""([q, runs, vector]) => RAG.questions.add({id: "live", text: q.text + " (asked here)", set: "live",
        answer: null, paraphrase: false, runs, vector})""", [q, data["runs"][q["id"]], vector])
    section.locator('select[data-picker="question"]').select_option("live")
    expect(section.locator(".map-shown")).to_contain_text("placed and ranked live in your browser")
    # The browser's projection of the build's vector lands on the build's own point.
    assert square(section) == pytest.approx(own["questions"][q["id"]], abs=0.051)
    assert section.locator("rect.map-question").count() == len(data["questions"]) + 1
