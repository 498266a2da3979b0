"""builder/page/lab_views.py node_json: the one way the build and the tests ask a Node script for
JSON (the build's renderer; tests/support/views.py's views_check.js and views_of_chunks.js): the
request goes in on stdin, the answer comes back parsed; a script that fails, or answers with an
error, raises the error asked for, naming the script or what could not be done."""

import pytest

from builder.page.lab_views import node_json

ECHO = """let text = "";
process.stdin.on("data", (part) => { text += part; });
process.stdin.on("end", () => {
  const request = JSON.parse(text);
  if (request.crash) { console.error("it broke here"); process.exit(3); }
  console.log(JSON.stringify(request.refuse ? { error: "no such view" } : { twice: request.n * 2 }));
});
"""


@pytest.fixture(scope="module")
def echo(tmp_path_factory):
    path = tmp_path_factory.mktemp("node") / "echo.js"
    path.write_text(ECHO, "utf-8")
    return path


def test_the_answer_comes_back_parsed(echo):
    assert node_json(echo, {"n": 21}, "nothing") == {"twice": 42}


def test_a_script_that_fails_raises_the_error_asked_for_naming_it_and_its_stderr(echo):
    with pytest.raises(AssertionError, match=r"echo\.js failed:\n(.|\n)*it broke here"):
        node_json(echo, {"crash": True}, "nothing", AssertionError)


def test_an_answer_that_is_an_error_raises_with_what_could_not_be_done(echo):
    with pytest.raises(ValueError, match=r"^a view could not draw the chunks:\nno such view$"):
        node_json(echo, {"refuse": True}, "a view could not draw the chunks", ValueError)
