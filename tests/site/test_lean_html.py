"""The pages are written in lean markup (builder/page/lean_html.py): fewer bytes, the same
document once a browser's parser (lexbor, through selectolax) has read it."""

import re

from selectolax.lexbor import LexborHTMLParser

from builder.page.lean_html import lean_html

RAW = {"pre", "code", "textarea", "script", "style"}

# Every case the rules meet on the page, and the ones they must leave alone.
DOCUMENT = """<!doctype html>
<html lang="en">
<head>
  <script type="application/json" id="rag-assets">{"a": "&#34;x&#34;", "b": "</p>"}</script>
  <style>p::before { content: "&#39;"; }</style>
</head>
<body>
  <ul class="list">
    <li title="it&#39;s &#34;here&#34;" data-state='{&#34;k&#34;: 3, &#39;q&#39;: 1}'>&#34;quoted&#34; &amp; &lt;tag&gt; &#38; &#60;</li>
    <li>a&#x000A0;b&#160;c &#x2028; d &#x00028;x&#x00029; &#128512;</li>
  </ul>
  <p>one
     two   three</p>
  <pre tabindex="0"><code><span class="s">&#34;a&#34;</span>
    indented
      more  spaced</code></pre>
  <p>inline <code>a
     b</code> after</p>
  <textarea>  keep
     this &#34;</textarea>
  <svg viewBox="0 0 10 10"><g class="dots"><circle cx="1" cy="2" r="3"></circle><circle cx="-1.5" r="2"/>
    <path d="M0 0L1 1"></path><text x="1">label &#x00028;1&#x00029;</text><rect width="1" height="1"><title>tip</title></rect></g></svg>
  <p data-x="1e5" title="k = 3" data-n="2.">not numbers</p>
  <math><mo stretchy="false">&#x00028;</mo><mi>x</mi></math>
  <!-- a comment &#34;kept&#34;
       as written -->
  <ol><li>one</li><li>two<ul><li>inner</li></ul></li><li>three</li></ol>
  <ol><li>spaced</li>
    <li>apart</li>
  </ol>
  <table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><ul><li>x</li></ul></td></tr><tr><td>2</td><td>3</td></tr></tbody></table>
  <select><optgroup label="g"><option value="1">one</option><option>two</option></optgroup><option>three</option></select>
  <p>para</p><p>next</p>
  <template data-lab-controls>  <div class="lab-controls">
      <input type="range" value="1">
      <ul><li>in a template</li><li>too</li></ul>
    </div>
  </template>
</body>
</html>
"""


def tree(html: str) -> list:
    """Every node in document order: (tag, attributes) for an element, its text for a text node
    (white space folded to one space, except inside pre, code, textarea, script and style, where
    the browser shows it or runs it as written), and the contents of every <template> too."""
    nodes = []

    def walk(node, raw):
        child = node.child
        while child is not None:
            if child.tag == "-text":
                text = child.text_content
                nodes.append(("text", text if raw else re.sub(r"\s+", " ", text)))
            elif child.tag == "_comment":
                nodes.append(("comment", child.html))
            else:
                nodes.append((child.tag, tuple(sorted(child.attributes.items()))))
                walk(child, raw or child.tag in RAW)
                if child.tag == "template":
                    walk(LexborHTMLParser(child.inner_html).body, raw)
                nodes.append(("end", child.tag))
            child = child.next

    walk(LexborHTMLParser(html).root, False)
    return nodes


def test_the_lean_page_parses_to_the_same_document():
    lean = lean_html(DOCUMENT)
    assert tree(lean) == tree(DOCUMENT)
    assert len(lean) < len(DOCUMENT)


def test_each_rule_and_what_it_leaves_alone():
    lean = lean_html(DOCUMENT)
    assert "<body>\n<ul class=\"list\">\n<li " in lean                          # indentation
    assert """title="it's &#34;here&#34;" data-state='{"k": 3, &#39;q&#39;: 1}'""" in lean  # quotes
    assert '>"quoted" &amp; &lt;tag&gt; &#38; &#60;</li>' in lean                 # & < > stay escaped
    assert "a&#x000A0;b&#160;c &#x2028; d (x) \U0001F600</li>" in lean            # spaces stay escaped
    assert "<p>one\ntwo   three</p>" in lean                                      # one line break, no more
    assert '<code><span class="s">"a"</span>\n    indented\n      more  spaced</code>' in lean
    assert "<code>a\n     b</code>" in lean                                       # inline code keeps its spaces
    assert '<circle cx=1 cy=2 r="3"/><circle cx=-1.5 r="2"/>\n<path d="M0 0L1 1"/><text x=1>label (1)</text>' in lean
    assert '<rect width=1 height=1><title>tip</title></rect>' in lean             # not empty: left whole
    assert '<pre tabindex=0><code>' in lean and '<input type="range" value=1>' in lean
    assert """<li title="it's &#34;here&#34;" data-state='{"k": 3, &#39;q&#39;: 1}'>""" in lean  # a '-quoted value: as it is
    assert "<ol><li>one<li>two<ul><li>inner</ul><li>three</ol>" in lean          # end tags the parser implies
    assert "<ol><li>spaced</li>\n<li>apart</li>\n</ol>" in lean                  # ... but not before white space
    assert "<tr><th>a<th>b<tbody><tr><td>1<td><ul><li>x</ul><tr><td>2<td>3</table>" in lean
    assert '<optgroup label="g"><option value=1>one<option>two</optgroup><option>three</select>' in lean
    assert '<p data-x="1e5" title="k = 3" data-n="2.">' in lean                  # not numbers: quoted
    assert "<p>para</p><p>next</p>" in lean and "<ul><li>in a template<li>too</ul>" in lean
    for raw in ('<script type="application/json" id="rag-assets">{"a": "&#34;x&#34;", "b": "</p>"}</script>',
                '<style>p::before { content: "&#39;"; }</style>', "<textarea>  keep\n     this &#34;</textarea>",
                '<!-- a comment &#34;kept&#34;\n       as written -->'):
        assert raw in lean


def test_the_built_pages_are_written_lean(built_site):
    for name in ("index.html", "corpus.html"):
        page = (built_site / name).read_text("utf-8")
        assert lean_html(page) == page, f"{name} is not written through builder/page/lean_html.py"
        assert "&#34;" not in re.sub(r"<[^>]*>", "", page), name
