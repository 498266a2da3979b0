"""engine/documents.py: files -> headings and paragraphs -> passages. Each rule of its docstring
on a small hand-written input whose expected blocks are written out here; hostile HTML leaves no
script, style, handler or link target in any text; the chunking lab's cuts. (Its JavaScript twin
is held equal in tests/twins/test_documents.py.)"""

import pytest

from engine.documents import (Block, Passage, chunk_with, html_blocks, html_tokens, inline_text, kind_of,
                              markdown_blocks, page_text, passages, prose_of, read_document, text_blocks)

P, H1, H2, H3 = (lambda text: Block(0, text)), (lambda text: Block(1, text)), (lambda text: Block(2, text)), \
    (lambda text: Block(3, text))


def test_markdown_headings_paragraphs_lists_and_code_become_blocks():
    markdown = """---
title: Deleting notes
url: https://example.test/notes
---
# Trash

Notes wait in the Trash
for 30 days.

## Recovering after the Trash ##
- Open *Settings*
- Pick **Data recovery**, then [Restore](/restore)
1. Confirm

```sh
# not a heading: a comment
rm -rf <script>alert(1)</script> &amp;
```
Setext heading
--------------
> Quoted text
> > deeper
"""
    assert markdown_blocks(markdown) == (
        H1("Trash"), P("Notes wait in the Trash for 30 days."), H2("Recovering after the Trash"),
        P("Open Settings"), P("Pick Data recovery, then Restore"), P("Confirm"),
        P("# not a heading: a comment rm -rf <script>alert(1)</script> &amp;"),  # code: as written
        H2("Setext heading"), P("Quoted text deeper"))


def test_the_title_is_the_front_matters_then_the_first_headings_then_the_files_name():
    assert read_document("a.md", "---\ntitle: 'Quoted: yes'\n---\n# Heading\n\ntext").title == "Quoted: yes"
    assert read_document("a.md", "intro\n\n## Second level first\n\n# First level").title == "Second level first"
    assert read_document("a.md", "just a paragraph").title == "a.md"
    assert read_document("a.txt", "# not a heading in text").title == "a.txt"
    # Front matter is not text; a block that is never closed is not front matter.
    assert markdown_blocks("---\ntitle: T\nsecret: 1\n---\nBody") == (P("Body"),)
    assert markdown_blocks("---\ntitle: T\nBody") == (P("title: T Body"),)  # the lone --- is a thematic break


def test_inline_marks_go_and_what_is_not_a_mark_stays():
    assert inline_text("**strong** __strong__ *em* _em_ `code` ![alt](x.png) [text](https://x) [ref][r]") \
        == "strong strong em em code alt text ref"
    assert inline_text("snake_case_name 2 * 3 * 4 a ** b") == "snake_case_name 2 * 3 * 4 a ** b"
    assert inline_text(r"\*literal\* \# \[x\]") == "literal # [x]"  # escapes go first; the stars then pair
    assert inline_text("&amp;lt; &lt;b&gt; &#x1F642; &nope;") == "&lt; <b> \U0001f642 &nope;"  # decoded once


def test_raw_html_in_markdown_is_stripped_like_html_and_well_formed_tags_only_count():
    markdown = ("Text <b onclick=\"x()\">bold</b>.<div>Block</div><script>\nalert(1)\n</script>"
                "<!-- a\ncomment --> <h3>Raw heading</h3> a < b > c <https://example.test/x> <me@example.test>")
    assert markdown_blocks(markdown) == (P("Text bold."), P("Block"), H3("Raw heading"),
                                         P("a < b > c https://example.test/x me@example.test"))
    assert markdown_blocks("Unclosed <script> drops\n\nthe rest") == (P("Unclosed"),)


HOSTILE = [
    '<script>alert("a")</script><p onclick="steal()">Hello <b onmouseover=\'hover()\'>world</b></p>',
    '<a href="javascript:evil()">click</a> <img src=x onerror=alert(2)> <svg onload=alert(3)><text>svg</text></svg>',
    "<style>p { color: red }</style><template><p>template</p><template>nested</template>hidden</template>",
    "<noscript>noscript</noscript><!-- comment <script>alert(4)</script> --><![CDATA[<script>alert(5)</script>]]>",
    "x<script>var s = '</scr' + 'ipt>'; alert(6)</script><SCRIPT >alert(9)</script >",
    "<textarea>typed</textarea><title>head title</title><iframe src=x>fallback</iframe><select><option>pick</option></select>",
    '<p title="a > b" data-x=\'alert(7)\'>quoted</p><p title="never closed>alert(8)',
]
FORBIDDEN = ("alert", "steal", "hover", "evil", "javascript", "onclick", "onerror", "color", "template", "nested",
             "hidden", "noscript", "comment", "cdata", "typed", "head title", "fallback", "pick", "svg", "title=")


@pytest.mark.parametrize("html", HOSTILE)
def test_hostile_html_leaves_no_script_style_handler_hidden_text_or_link_target(html):
    texts = " ".join(block.text for block in html_blocks(html)).lower()
    assert not [word for word in FORBIDDEN if word in texts], texts


def test_what_is_left_of_hostile_html_is_its_visible_text():
    assert [b.text for b in html_blocks(HOSTILE[0])] == ["Hello world"]
    assert [b.text for b in html_blocks(HOSTILE[1])] == ["click"]
    assert [b.text for b in html_blocks(HOSTILE[4])] == ["x"]
    # A script ends at the first end tag of its name, even inside a string; what follows is text, as a browser shows it.
    assert [b.text for b in html_blocks("<script>var s = '</script>'; run()</script>")] == ["'; run()"]
    # "<scr<script>" is one tag (named "scr", as a browser reads "scr<script"): the rest is text.
    assert [b.text for b in html_blocks("<scr<script>ipt>alert(1)</script>")] == ["ipt>alert(1)"]
    assert [b.text for b in html_blocks(HOSTILE[6])] == ["quoted"]  # an unclosed tag takes the rest


def test_html_blocks_break_at_block_elements_and_headings():
    html = "<h1>Main <em>title</em></h1>intro<ul><li>one<li>two</ul>a<br>b<span>c</span><h2>Sub</h2>&nbsp;tail"
    assert html_blocks(html) == (H1("Main title"), P("intro"), P("one"), P("two"), P("a bc"), H2("Sub"), P("tail"))
    assert html_tokens("<P CLASS=x>a</P>") == [("start", "p"), ("text", "a"), ("end", "p")]


def test_plain_text_is_paragraphs_only():
    assert text_blocks("One\ntwo\n\n# three\n \n<b>four</b>") == (P("One two"), P("# three"), P("<b>four</b>"))
    assert kind_of("a.MD") == kind_of("b.markdown") == "markdown"
    assert kind_of("c.htm") == kind_of("d.HTML") == "html"
    assert kind_of("e.txt") == kind_of("README") == "text"


def test_passages_are_cut_by_heading_under_their_path():
    doc = read_document("trash.md", "Before any heading.\n\n# Trash\n\nIn the Trash.\n\n"
                                    "## Recovering after the Trash\n\nFor 60 days.\n\nBy admins.\n\n"
                                    "## Empty section\n\n### Deeper\n\nDeep text.\n\n# Other\n\nOther text.")
    assert passages(doc) == [
        Passage("Trash", (), "trash.md", "Before any heading."),
        Passage("Trash", ("Trash",), "trash.md", "In the Trash."),
        Passage("Trash", ("Trash", "Recovering after the Trash"), "trash.md", "For 60 days. By admins."),
        Passage("Trash", ("Trash", "Empty section", "Deeper"), "trash.md", "Deep text."),  # no passage of its own
        Passage("Trash", ("Other",), "trash.md", "Other text."),  # a level-1 heading closes the others
    ]


def test_a_long_section_is_cut_into_whole_sentences_up_to_max_words():
    doc = read_document("a.md", "# A\n\nOne two three. Four five. Six seven eight nine ten eleven.")
    # 3 + 2 = 5 words fit in 6; the six-word sentence is a passage of its own.
    assert [p.text for p in passages(doc, max_words=6)] == ["One two three. Four five.", "Six seven eight nine ten eleven."]
    assert [p.text for p in passages(doc)] == ["One two three. Four five. Six seven eight nine ten eleven."]


def test_the_lab_cuts_read_the_prose_and_keep_headings_with_their_sections():
    page = "## Trash\nNotes wait\n30 days.\n\n```\n# a comment, not a heading\n```\n## After\nGone."
    assert prose_of(page) == "Notes wait 30 days. # a comment, not a heading Gone."
    assert page_text(page) == "Trash\nNotes wait 30 days.\n# a comment, not a heading\nAfter\nGone."
    assert chunk_with({"chunker": "headings"}, page) == ["Trash\nNotes wait 30 days. # a comment, not a heading",
                                                         "After\nGone."]
    assert chunk_with({"chunker": "fixed", "size": 4, "overlap": 1}, page) == [
        "Notes wait 30 days.", "days. # a comment,", "comment, not a heading", "heading Gone."]
    assert chunk_with({"chunker": "sentences", "limit": 4, "repeat": 0}, page) == [
        "Notes wait 30 days.", "# a comment, not a heading Gone."]
    assert chunk_with({"chunker": "page"}, page) == [page_text(page)]
    with pytest.raises(ValueError, match="no chunker 'words'"):
        chunk_with({"chunker": "words"}, page)
