"""Shrink the stylesheet and the scripts for readers: comments and white space out, nothing
renamed. The readable sources stay in site_src/; rjsmin and rcssmin are conservative minifiers
that leave strings, regular expressions and selectors as they are, with one known fault: rjsmin
squeezes the spaces inside a template literal nested in another's ${…}. The build refuses such
a script rather than ship it changed.

Example: minify_js("const a = 1;  // one\\n") -> 'const a=1;\\n'
"""

import re

import rcssmin
import rjsmin

from builder.page.errors import ProseError


# The characters that can change the scanner's state, in each state: it jumps from one to the
# next (a character-by-character loop over the page's 92 scripts was a tenth of a no-op build).
_NEXT = {"template": re.compile(r"[\\`$]"), "expression": re.compile(r"[/'\"`{}]"), None: re.compile(r"[/'\"`]")}


def nested_template_literal(source: str) -> int | None:
    """The line of the first template literal written inside another one's ${…}, or None.

    Example: nested_template_literal("const s = `a ${b ? `c ${d}` : ''}`;") -> 1
    """
    stack: list[list] = []  # ["template"] or ["expression", open braces]
    line, i, n = 1, 0, len(source)
    while i < n:
        top = stack[-1] if stack else None
        found = _NEXT[top[0] if top else None].search(source, i)
        j = found.start() if found else n
        line += source.count("\n", i, j)
        i = j
        if i >= n:
            break
        char, pair = source[i], source[i:i + 2]
        if top and top[0] == "template":
            if char == "\\":
                i += 2
                continue
            if char == "`":
                stack.pop()
            elif pair == "${":
                stack.append(["expression", 0])
                i += 1
        elif pair == "//":
            i = source.find("\n", i)
            i = n if i < 0 else i
            continue
        elif pair == "/*":
            end = source.find("*/", i + 2)
            end = n if end < 0 else end + 2
            line += source.count("\n", i, end)
            i = end
            continue
        elif char in "'\"":
            j = i + 1
            while j < n and source[j] != char and source[j] != "\n":
                j += 2 if source[j] == "\\" else 1
            i = j + 1
            continue
        elif char == "`":
            if any(frame[0] == "expression" for frame in stack):
                return line
            stack.append(["template"])
        elif top and top[0] == "expression":
            if char == "{":
                top[1] += 1
            elif char == "}":
                if top[1] == 0:
                    stack.pop()
                else:
                    top[1] -= 1
        i += 1
    return None


def minify_js(source: str, name: str = "script") -> str:
    line = nested_template_literal(source)
    if line is not None:
        raise ProseError(f"{name}:{line}: a template literal inside another one's ${{…}}: the minifier would "
                         "change its spaces (fix: build the inner string apart, or with + )")
    return rjsmin.jsmin(source).rstrip() + "\n"


def minify_css(source: str) -> str:
    return rcssmin.cssmin(source).rstrip() + "\n"
