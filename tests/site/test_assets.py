"""The files the page downloads besides index.html (builder/page/assets.py): what goes into each,
in which order, and that what the browser does not need stays out."""

import json
import re

import pytest

from builder.labs import LABS
from builder.page import assets
from builder.page.errors import ProseError
from builder.page.minify import minify_js, nested_template_literal


def test_the_runtime_joins_its_files_in_the_listed_order():
    source = assets.runtime_source()
    positions = [source.index(f"/* {name} */") for name in assets.RUNTIME]
    assert positions == sorted(positions) and positions[0] == 0
    assert source.rstrip().endswith("})();"), "start.js, which starts everything, comes last"


def test_each_lab_file_hands_over_its_data_before_its_script_defines_the_lab(data):
    files = dict(assets.files(data))
    for lab in LABS:
        bundle = files[f"assets/labs/{lab.name}.js"]
        provide, _, script = bundle.partition(";\n")
        assert provide.startswith(f'RAG.provide("lab:{lab.name}",')
        handed = json.loads(provide[len(f'RAG.provide("lab:{lab.name}",'):-1])
        assert handed == {k: v for k, v in data["labs"][lab.name].items() if k not in lab.build_only}
        assert f'RAG.lab("{lab.name}"' in script


def test_the_browsers_data_leaves_out_what_only_the_build_reads(data):
    core = assets.browser_core(data)
    assert not set(core) & assets.BUILD_ONLY_KEYS
    ids = [p["id"] for p in data["passages"]]
    first = next(iter(data["runs"]))
    assert core["runs"][first]["dense"][0] == [ids.index(data["runs"][first]["dense"][0][0]),
                                               data["runs"][first]["dense"][0][1]]


def test_every_url_carries_a_hash_of_its_content(data):
    files = assets.files(data)
    links = assets.manifest(files)
    content = dict(files)
    for url in [links["app"], links["css"], links["data"], *links["labs"].values(), *links["scripts"].values()]:
        path, version = url.split("?v=")
        assert re.fullmatch(r"[0-9a-f]{10}", version)
        assert assets.versioned(path, content[path]) == url


def test_a_nested_template_literal_stops_the_build_naming_its_line():
    assert minify_js("const s = `a ${b} c`;\n", "x.js") == "const s=`a ${b} c`;\n"
    assert nested_template_literal("const s = `a ${ {b: 1}.b }`; // `x ${`y`}`\n") is None
    with pytest.raises(ProseError, match=r"^x\.js:2: a template literal inside another"):
        minify_js("const a = 1;\nconst s = `a ${b ? `, ${c} right.` : '.'}`;\n", "x.js")


@pytest.mark.parametrize("page", ["index.html", "corpus.html"])
def test_every_file_a_page_links_is_in_the_built_site(built_site, page):
    """Each page names its icon (else a browser asks for /favicon.ico, which the site has not)
    and every local file it links (stylesheets, scripts, icons, images) was written by the build."""
    from urllib.parse import urlsplit

    from selectolax.lexbor import LexborHTMLParser

    html = LexborHTMLParser((built_site / page).read_text("utf-8"))
    assert html.css_first("link[rel=icon]") is not None, f"{page} names no icon"
    linked = [node.attributes.get(attribute) for node in html.css("link[href], script[src], img[src]")
              for attribute in ("href", "src") if node.attributes.get(attribute)]
    local = [urlsplit(url).path for url in linked if not urlsplit(url).scheme and not url.startswith("#")]
    assert local, f"{page} links no files"
    missing = [path for path in local if path and not (built_site / path).is_file()]
    assert not missing, f"{page} links files the build did not write: {missing}"


def test_every_stylesheet_closes_what_it_opens():
    """A stray '}' makes a browser drop the rule after it, silently: figures.css once lost its
    figcaption rule that way, and every caption touched its figure. Comments and strings are
    skipped; the depth must never go below zero and must end at zero."""
    from builder.sources import SITE_SRC

    sheets = (sorted((SITE_SRC / "styles").glob("*.css")) + sorted((SITE_SRC / "views").glob("*.css"))
              + sorted((SITE_SRC / "labs").glob("*/lab.css")))
    assert len(sheets) > 10
    for sheet in sheets:
        source = re.sub(r"/\*.*?\*/", "", sheet.read_text("utf-8"), flags=re.S)
        source = re.sub(r'"(?:\\.|[^"\\])*"' + r"|'(?:\\.|[^'\\])*'", '""', source)
        depth = 0
        for line_no, line in enumerate(source.splitlines(), start=1):
            for char in line:
                depth += {"{": 1, "}": -1}.get(char, 0)
                assert depth >= 0, f"{sheet.relative_to(SITE_SRC.parent)}:{line_no}: a '}}' closes nothing"
        assert depth == 0, f"{sheet.relative_to(SITE_SRC.parent)}: {depth} block(s) left open"
