"""builder/page/scroll_boxes.py: the boxes that scroll sideways are written keyboard-reachable
(focusable, and named where they are regions), outside the labs, with labels unique on the page."""

import re

from builder.page.scroll_boxes import code_label, keyboard_reachable, table_label

TABLE = '<div class="table-scroll"><table><thead><tr><th>rank</th><th class="num">BM25</th></tr></thead></table></div>'


def test_a_table_box_is_a_named_focusable_region():
    assert keyboard_reachable(TABLE).startswith(
        '<div class="table-scroll" role="region" tabindex="0" aria-label="Table: rank, BM25" data-scroll-box><table>')


def test_a_repeated_label_is_numbered_so_each_region_is_told_apart():
    marked = keyboard_reachable(TABLE + "<p>between</p>" + TABLE + TABLE)
    assert re.findall(r'aria-label="([^"]*)"', marked) == ["Table: rank, BM25", "Table: rank, BM25 (2)",
                                                            "Table: rank, BM25 (3)"]


def test_labels_are_plain_text_and_short():
    assert table_label('<tr><th>term</th><th>IDF = <math><mi>N</mi><mo>−</mo><mi>n</mi></math></th></tr>') \
        == "Table: term, IDF = N−n"
    assert table_label("<tr><td>no header</td></tr>") == "Table"
    assert code_label("sql", "SELECT id, title\nFROM passages") == "Code (sql): SELECT id, title"
    assert code_label(None, "\n  &lt;source id=&quot;a&quot;&gt;\n") == 'Code: <source id="a">'
    long = code_label("text", "x" * 80)
    assert len(long) == 60 and long.endswith("…")


def test_code_in_the_prose_is_a_region_named_by_its_first_line():
    marked = keyboard_reachable('<pre><code class="language-sql">BEGIN;\nDELETE FROM passages;\n</code></pre>')
    assert marked.startswith('<pre role="region" tabindex="0" aria-label="Code (sql): BEGIN;" data-scroll-box><code')


def test_display_math_is_focusable_and_inline_math_is_not():
    marked = keyboard_reachable('<math display="block"><mi>x</mi></math><p><math><mi>y</mi></math></p>')
    assert marked == '<math display="block" tabindex="0" data-scroll-box><mi>x</mi></math><p><math><mi>y</mi></math></p>'


def test_only_figures_that_keep_a_minimum_width_get_a_tab_stop():
    wide = '<figure class="figure" id="fig-a"><svg role="img" class="flow"></svg><figcaption>A</figcaption></figure>'
    narrow = '<figure class="figure" id="fig-b"><svg role="img"></svg><figcaption>B</figcaption></figure>'
    assert keyboard_reachable(wide).startswith('<figure class="figure" id="fig-a" tabindex="0" data-scroll-box><svg')
    assert keyboard_reachable(narrow) == narrow


def test_boxes_with_their_own_tabindex_and_boxes_in_labs_are_left_alone():
    sample = '<pre tabindex="0"><code>print(1)</code></pre>'
    lab = ('<section class="lab" data-lab="x" id="lab-x"><section class="inner"></section>' + TABLE
           + '<pre><code>a</code></pre></section>')
    assert keyboard_reachable(sample) == sample
    marked = keyboard_reachable(lab + TABLE)
    assert marked.startswith(lab), "the lab's markup is its view's"
    assert marked[len(lab):].startswith('<div class="table-scroll" role="region"'), "the table after the lab is marked"


def test_the_built_page_has_no_unnamed_or_unreachable_box_outside_the_labs(dist_dir):
    html = (dist_dir / "index.html").read_text("utf-8")
    outside = re.sub(r'<section class="lab[" ].*?</section>', "", html, flags=re.S)  # a lab holds no section
    assert '<div class="table-scroll">' not in outside
    assert not re.search(r"<pre>", outside)
    assert not re.search(r'<math\b(?![^>]*tabindex)[^>]*display="block"', outside)
    labels = re.findall(r'role="region" tabindex="?0"? aria-label="([^"]*)"', html)  # a number may go unquoted (lean_html)
    assert len(labels) >= 10 and len(set(labels)) == len(labels)


def test_the_shadow_of_a_box_that_scrolls_sideways_is_one_rule_for_every_such_box(dist_dir):
    """The page's wide boxes and a lab bar's rows of choices say that they scroll with the same
    rule (utilities.css): its gradients are written once in the stylesheet, and that rule names
    the bar's rows too."""
    css = (dist_dir / "assets" / "site.css").read_text("utf-8")
    assert css.count("var(--scroll-shadow)") == 2, css.count("var(--scroll-shadow)")  # its two edges
    rule = css[:css.index("var(--scroll-shadow)")]
    selectors = rule[rule.rindex("}") + 1:rule.rindex("{")]
    assert all(name in selectors for name in (".table-scroll", ".lab-bar fieldset.segmented", '.lab-bar [role="group"]')), selectors
