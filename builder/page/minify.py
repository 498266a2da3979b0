"""Shrink the stylesheet and the runtime for readers: comments and white space out, nothing
renamed. The readable sources stay in site_src/; rjsmin and rcssmin are conservative
minifiers that leave strings, regular expressions and selectors as they are."""

import rcssmin
import rjsmin


def minify_js(source: str) -> str:
    return rjsmin.jsmin(source).rstrip() + "\n"


def minify_css(source: str) -> str:
    return rcssmin.cssmin(source).rstrip() + "\n"
