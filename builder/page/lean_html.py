"""The page's HTML written in fewer bytes, the same document once parsed: the elements, their
attributes and what the reader sees do not change, only how the markup spells them.

- White space that holds a line break, outside <pre>, <code>, <textarea>, <script> and <style>,
  becomes one line break (the templates' indentation). Elsewhere the browser folds it to one
  space either way; <code> keeps its own, as the stylesheet keeps its spaces (break-spaces).
- A quote in text is written as itself, and so is a quote inside an attribute value that the
  other quote delimits: only the delimiter needs escaping there (the highlighter escapes every
  quote of a code sample).
- A numeric character reference to a printable character other than & < > (MathML's `&#x00028;`)
  is written as the character.
- A number as an attribute's value (`cx="12.5"`, `tabindex="-1"`) is written without its quotes,
  which HTML allows for a value with no space, quote, =, <, > or backtick; but for the last one
  of a tag that closes itself (`r="3"/>`), where the / would join the value.
- An empty SVG shape (`<circle …></circle>`) is closed in its start tag (`<circle …/>`), which the
  HTML parser honours inside <svg>.
- An end tag the HTML parser implies is left out where nothing, not even white space, stands
  between it and what implies it: </li> before <li> or the list's end, </td> and </th> before
  the next cell or </tr>, </tr> before the next row or its group's end, </option> before the
  next option or the select's end, </thead> and </tbody> before the next group (and </tbody>
  before </table>). White space between them would move into the element; it is left alone.
Comments, raw text (<script>, <style>, <textarea>) and everything inside a start tag but its
attribute values are copied as they are.

Example: lean_html('<ul>\\n    <li title="&#39;a&#39;">&#34;b&#34;</li></ul>')
         -> '<ul>\\n<li title="\\'a\\'">"b"</ul>'
"""

import re

# A comment, an element whose content is raw text (copied whole), or a tag (attribute values may
# hold '>' inside their quotes).
TOKEN = re.compile(r"<!--.*?-->|<(script|style|textarea)\b.*?</\1\s*>"
                   r"|</?[a-zA-Z][^\"'>]*(?:(?:\"[^\"]*\"|'[^']*')[^\"'>]*)*>", re.S | re.I)
KEEP_SPACES = frozenset({"pre", "code"})   # their white space shows as written
SHAPES = frozenset({"path", "circle", "line", "rect", "polyline", "polygon", "ellipse", "use", "stop"})
NAME = re.compile(r"</?([a-zA-Z][\w-]*)")
ATTRIBUTE = re.compile(r"""(=\s*)("[^"]*"|'[^']*')""")
NUMBER_VALUE = re.compile(r'(\s[\w:-]+=)"(-?[0-9]+(?:\.[0-9]+)?)"')
REFERENCE = re.compile(r"&#(?:x([0-9a-fA-F]+)|([0-9]+));|&quot;")
LINE_BREAK_SPACE = re.compile(r"[ \t\r\f]*\n[ \t\r\n\f]*")
# An element whose end tag the parser implies -> what, written right after it, implies it.
IMPLIED_END = {name: re.compile(follower, re.I) for name, follower in {
    "li": r"<li[\s>]|</(?:ul|ol|menu)>",
    "td": r"<t[dh][\s>]|</tr>", "th": r"<t[dh][\s>]|</tr>",
    "tr": r"<tr[\s>]|</t(?:body|head|foot)>",
    "option": r"<opt(?:ion|group)[\s>]|</(?:select|datalist|optgroup)>",
    "thead": r"<t(?:body|foot)[\s>]", "tbody": r"<t(?:body|foot)[\s>]|</table>",
}.items()}


def plain(match: re.Match, keep: str) -> str:
    """A character reference as its character, unless that character must stay escaped here."""
    if match.group(0) == "&quot;":
        char = '"'
    else:
        code = int(match.group(1), 16) if match.group(1) else int(match.group(2))
        char = chr(code) if code < 0x110000 else ""
    if not char or char in keep or not char.isprintable() or char.isspace():
        return match.group(0)
    return char


def lean_text(text: str, keep_spaces: bool) -> str:
    text = REFERENCE.sub(lambda m: plain(m, "&<>"), text)
    return text if keep_spaces else LINE_BREAK_SPACE.sub("\n", text)


def lean_value(match: re.Match) -> str:
    quoted = match.group(2)
    delimiter = quoted[0]
    inner = REFERENCE.sub(lambda m: plain(m, "&<>" + delimiter), quoted[1:-1])
    return f"{match.group(1)}{delimiter}{inner}{delimiter}"


def unquoted_numbers(tag: str) -> str:
    """Every number value without its quotes, but a self-closing tag's last (its / would join it).
    A tag with a value in single quotes is left as it is: that value may hold `x="1"` as text."""
    if "'" in tag:
        return tag
    closes_itself = tag.endswith("/>")
    return NUMBER_VALUE.sub(lambda m: m.group(0) if closes_itself and tag.endswith(m.group(0) + "/>")
                            else f"{m.group(1)}{m.group(2)}", tag)


def lean_html(html: str) -> str:
    out: list[str] = []
    keep_spaces = 0   # open <pre> and <code> elements
    svg = 0           # open <svg> elements
    position = 0
    while (token := TOKEN.search(html, position)) is not None:
        out.append(lean_text(html[position:token.start()], keep_spaces > 0))
        position = token.end()
        tag = token.group(0)
        name_match = NAME.match(tag)
        if tag.startswith("<!--") or token.group(1) or not name_match:
            out.append(tag)
            continue
        name, closing, self_closed = name_match.group(1).lower(), tag.startswith("</"), tag.endswith("/>")
        if name in KEEP_SPACES and not self_closed:
            keep_spaces += -1 if closing else 1
        if name == "svg" and not self_closed:
            svg += -1 if closing else 1
        if closing:
            implied = IMPLIED_END.get(name)
            if not (implied and not svg and implied.match(html, position)):
                out.append(tag)
            continue
        tag = ATTRIBUTE.sub(lean_value, tag)
        end = f"</{name_match.group(1)}>"
        if svg and name in SHAPES and not self_closed and html.startswith(end, position):
            tag, position = tag[:-1] + "/>", position + len(end)
        out.append(unquoted_numbers(tag))
    out.append(lean_text(html[position:], keep_spaces > 0))
    return "".join(out)
