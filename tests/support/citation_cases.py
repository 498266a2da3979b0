"""One table of citation cases that every implementation of the checker must agree on: the
engine (engine/citations.py), its browser twin (site_src/engine/citations.js, in tests/twins/)
and the page's code sample (site_src/samples/citations_check.py and .js). Each rule of the checker has cases here,
with the inputs most likely to split two implementations (entities, Unicode, number words at
word edges, elisions), and hostile ones. Sources are the real corpus's passages plus EXTRA_SOURCES.
"""

EXTRA_SOURCES = {
    'x" onmouseover="y': "<b>bold</b> text",
    "typeset": "An owner adds the provider\u2019s details \u2014 see \u201cSecurity\u201d\u2026 Loading... done.",
    "dupes": "Refunds within 14 days only, and 14 days only.",
    "once": "Refunds within 14 days only.",
    "numbers": "Twenty\u2011One days after the payment, and &nbsp;Forty-two more.",
}

# (claim text, source id, quote)
CLAIM_CASES = [
    # the five classic cases, and the old table
    ("Free allows 100 MB files.", "err-4021", "100 MB"),
    ("Free allows 100 MB files.", "err-9999", "100 MB"),
    ("Free allows 100 MB files.", "err-4021", "a quote nobody wrote"),
    ("Free allows 200 MB files.", "err-4021", "100 MB"),
    ("Up to 20,000 rows", "err-4021", "20,000"),
    ("Up to 20 rows", "err-4021", "20,000"),
    ("", "", ""),
    ("<b>markup</b>", 'x" onmouseover="y', "<b>"),
    ("<b>markup</b>", 'x" onmouseover="y', "<b>bold</b> text"),
    ("Spaces", "err-4021", "  100\u00a0MB  "),
    ("Version 2.5 and 3", "err-4021", "2.5 and 3"),
    ("Inherited ids are not sources", "__proto__", "x y"),
    ("Inherited ids are not sources", "constructor", "x y"),
    # typography: quotes, dashes, invisible characters
    ("Owners add it.", "sso-1", "the provider\u2019s details"),
    ("Owners add it.", "typeset", "the provider's details - see \"security\""),
    ("Owners add it.", "typeset", "provider\u2018s details \u2013 see \u00absecurity\u00bb"),
    ("SSO", "sso-1", "single sign\u2011on (SSO)"),
    ("SSO", "sso-1", "single sign\u2014on (SSO)"),
    ("QB-4290", "api-limits", "returns error QB\u22124290"),
    ("Refused.", "err-4021", "gets re\u00adfused with er\u200bror QB-4021"),
    # entities
    ("Owners add it.", "sso-1", "the provider&#39;s details"),
    ("Owners add it.", "sso-1", "the provider&#x27;s details"),
    ("Owners add it.", "sso-1", "the provider&rsquo;s details"),
    ("Owners add it.", "sso-1", "the provider&apos;s details"),
    ("Free allows 100 MB.", "err-4021", "100&nbsp;MB for Free"),
    ("Bold.", 'x" onmouseover="y', "&lt;b&gt;bold&lt;/b&gt; text"),
    ("Bold.", 'x" onmouseover="y', "&amp;lt;b&amp;gt;bold"),
    ("Odd entities", "err-4021", "&bogus; &AMP; &#0; &#x110000; &#xD800; &constructor; &toString;"),
    ("Astral", "err-4021", "&#128578; &#x1F642; file"),
    # short quotes
    ("Refunds are possible.", "refund-new", "refundable"),
    ("Refunds within 14 days.", "refund-new", "14"),
    ("Refunds within fourteen days.", "refund-new", "fourteen"),
    ("Twenty-one days.", "refund-new", "twenty-one"),
    ("A dozen.", "refund-new", "a dozen"),
    ("Refunds.", "refund-new", "."),
    ("Refunds.", "refund-new", "!!! ???"),
    ("Refunds forever.", "refund-new", "forever"),
    ("QB-4021", "err-4021", "QB-4021"),
    ("Time", "err-4021", "12:30"),
    # numbers in words
    ("You can get a refund within three weeks.", "refund-new", "refundable within 14 days"),
    ("Refunds within fourteen days.", "refund-new", "refundable within 14 days"),
    ("Retried 3 times over 7 days.", "err-4031", "failed three retries over seven days"),
    ("Retried three times over a week.", "err-4031", "failed three retries over seven days"),
    ("The period ends 21 days after the payment.", "numbers", "Twenty\u2011One days after the payment"),
    ("Forty-two more, 21 days.", "numbers", "TWENTY-ONE days after the payment, and \u00a0forty\u2013two more"),
    ("Refunds within twenty-one days.", "refund-new", "refundable within 14 days"),
    ("Refunds within Twenty One days.", "refund-new", "refundable within 14 days"),
    ("Refunds within twentynine days.", "refund-new", "refundable within 14 days"),  # 29, as "twenty-nine"
    ("Refunds within 29 days.", "refund-new", "refundable within twenty-nine days"),
    ("Forty\u2011two and a dozen and two hundred", "refund-new", "refundable within 14 days"),
    ("2.5 million, 20 thousand, sixty thousand, 1 billion", "refund-new", "refundable within 14 days"),
    ("two hundred and fifty; two dozen", "refund-new", "refundable within 14 days"),
    ("007 and 2.50 and 2.0 and 0.50", "refund-new", "refundable within 14 days"),
    ("SAML 2 or OpenID Connect", "sso-1", "supports SAML 2.0 or OpenID Connect"),
    ("one of the plans; the one you need; no one; no-one; the other one; one another", "refund-new",
     "refundable within 14 days"),
    ("one file and a one-time code and the one-time code", "refund-new", "refundable within 14 days"),
    ("twenty one of them", "refund-new", "refundable within 14 days"),
    ("someone often weighs a tent; none; canine; phone; height; dozens; hundreds", "refund-new",
     "refundable within 14 days"),
    ("first, second, third; half; once or twice", "refund-new", "refundable within 14 days"),
    ("ONE TWO THREE", "refund-new", "refundable within 14 days"),
    ("tenfold, twentyish, a-dozen, hundred", "refund-new", "refundable within 14 days"),
    ("\u0130stanbul one \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3 two", "refund-new", "refundable within 14 days"),
    # elided quotes
    ("After 14 days the period is not refunded.", "refund-new",
     "After those 14 days, cancelling stops all future charges \u2026 the current billing period is not refunded"),
    ("Refunds within 14 days.", "refund-new", "Paid plans are refundable...within 14 days of the payment"),
    ("Refunds within 14 days.", "refund-new", "Paid plans are refundable [...] within 14 days of the payment"),
    ("Refunds within 14 days.", "refund-new", "Paid plans are refundable (...) within 14 days of the payment"),
    ("Refunds within 14 days.", "refund-new", "Paid plans are refundable [\u2026] within 14 days of the payment"),
    ("Refunds within 14 days.", "refund-new", "Paid plans are refundable.... within 14 days of the payment"),
    ("Refunds within 14 days.", "refund-new", "\u2026are refundable within 14 days\u2026"),
    ("Refunds within 14 days.", "refund-new",
     "the current billing period is not refunded \u2026 Paid plans are refundable within 14 days"),
    ("Refunds are possible.", "refund-new", "Paid plans are refundable \u2026 for any reason"),
    ("The period is refunded.", "refund-new", "the current billing period is \u2026 refunded"),
    ("The period is refunded.", "refund-new",
     "the current billing period is \u2026 refunded and the workspace keeps its paid features"),
    ("Loading", "typeset", "see \u201csecurity\u201d\u2026 loading... done"),
    ("Loading", "typeset", "loading... done"),
    ("Dupes", "dupes", "within 14 days only \u2026 14 days only"),
    ("Dupes", "dupes", "14 days only, \u2026 within 14 days"),
    # The second piece is there only inside the first: it must not be found there.
    ("Once", "once", "within 14 days \u2026 14 days only"),
    ("Empty", "refund-new", "\u2026"),
    ("Empty", "refund-new", " ... [...] "),
    ("Within 14 days; cancelling stops charges.", "refund-new",
     "refundable within 14 days \u2026 cancelling stops all future charges"),
    # hostile
    ("\u202eevil\u202c 14", "refund-old", "\u202eevil\u202c"),
    ("x" * 300 + " 14", "refund-new", "z" * 300),
    ("one " * 200, "refund-new", "within 14 days " * 20),
]

# Texts for the pieces the checker is built from (normalize, numbers, pieces, quote_in).
TEXTS = [
    "", "   ", "Share &amp; export&#8217;s &#x27;x&#39; &lt;b&gt;", "&amp;lt;", "&#0;&#x10FFFF;&#xDFFF;&#1114112;",
    "The  provider\u2019s\nDetails \u2014 Settings\u00ad ok\u2026", "\u201cquoted\u201d \u00abguillemets\u00bb \uff02wide\uff02",
    "QB-4021: three tries, then 20,000 rows or 3 more", "twenty-one days, twenty one, forty, a dozen, two dozen",
    "two hundred, 2.5 million, 20 thousand, hundreds, one of the plans, the one you need, no one, no-one",
    "someone, one file, one-time code, the one-time code, seventeen, eighteen, 007 2.0 0.50 2.50 thousand",
    "1,234,5 and 1,2,3 and 12.34.56 and .5 and 5. and 10,000.50", "\u0130stanbul \u03a3\u038a\u03a3\u03a5\u03a6\u039f\u03a3 STRASSE",
    "\u2026start [...] middle (...) end....", "tab\tand\nnewline\u2028and\u3000wide\ufeffspace",
]
