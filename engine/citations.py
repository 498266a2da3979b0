"""Check a model's citations with code: was the source sent, is the quote in it, is the quote
long enough to support anything, are the claim's numbers in the quote?

Quotes are matched the way a reader would compare them, not byte for byte: both sides are
normalized (HTML entities decoded once, typographic quotes, dashes and spaces folded, case
ignored), and a quote shortened with "..." or "…" is read as pieces that must each be long
enough and appear in the source in that order. A quote, and each piece of one, must start and
end on the edges of the source's words and numbers: "refundable within 1" is not a quote of
"refundable within 14 days", nor "admins can" of "Admins cannot". Numbers are compared by value, whether written
in digits ("14", "20,000") or in words ("fourteen", "twenty-one", "a dozen", "two hundred").

What code cannot check is whether a real quote supports the claim made from it (a unit, a
negation, a condition, a paraphrase); that needs a judge model or a person.

The answer is read too (answer_sentences): it is cut into sentences with the chunkers' own
splitter (engine/chunking.py split_sentences), and each claim is placed in the sentence that holds
the words of the answer it stands for (a claim's `in_answer`: a span of the answer, normalized as
quotes are and found on whole words; a claim written without one is placed by its own text). A
sentence that holds no claim's words is backed by no claim: nothing checked it. A sentence is
backed as a whole: one claim for part of it backs all of it.

Twin: site_src/engine/citations.js (decodeEntities, normalize, numbersIn, quotePieces, tooShort,
findWhole, quoteIn, quoteProblems, checkClaim, checkCitations, answerSentences), proven equal by tests/twins/ on the shared
table of cases (tests/support/citation_cases.py) and more.

Example: check_citations([Claim("Free allows 100 MB", "err-4021", "100 MB for Free")],
                         {"err-4021": "... up to 100 MB for Free ..."})[0].ok -> True
"""

import re
from dataclasses import dataclass, field

from engine.chunking import split_sentences
from engine.tokenize import tokenize

# ---------------------------------------------------------------------------- normalization

# The named HTML entities a quote copied from an escaped prompt or a web page plausibly
# carries. Any other name stays as written; so does anything decoded once ("&amp;lt;" -> "&lt;").
ENTITIES = {
    "amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": "\u00a0",
    "lsquo": "\u2018", "rsquo": "\u2019", "sbquo": "\u201a", "ldquo": "\u201c", "rdquo": "\u201d",
    "bdquo": "\u201e", "laquo": "\u00ab", "raquo": "\u00bb", "hellip": "\u2026",
    "ndash": "\u2013", "mdash": "\u2014", "hyphen": "\u2010", "minus": "\u2212",
    "ensp": "\u2002", "emsp": "\u2003", "thinsp": "\u2009", "shy": "\u00ad",
}
_ENTITY = re.compile(r"&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]*));")

# Characters typeset text uses where a model (or a person typing) writes ASCII, and the
# invisible ones that only break a match. Unicode normalization forms (NFC, NFKC) are not
# applied: Python and the browser may follow different Unicode versions, and the twins must agree.
FOLDED = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'", "\uff07": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\uff02": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\ufe58": "-", "\ufe63": "-", "\uff0d": "-",
    "\u2026": "...",
    "\u00ad": "", "\u200b": "", "\u2060": "",  # soft hyphen, zero-width space, word joiner
}
_FOLD = re.compile("[" + "".join(FOLDED) + "]")
# JavaScript's \s, spelled out, so the browser's twin of this checker splits exactly the same.
_SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def decode_entities(text: str) -> str:
    """HTML entities decoded, once: named ones of ENTITIES, and numeric ones.

    Example: decode_entities("Share &amp; export&#8217;s &amp;lt;b&gt;") -> "Share & export’s &lt;b>"
    """
    def decoded(match: re.Match) -> str:
        decimal, hexadecimal, name = match.groups()
        if name is not None:
            return ENTITIES.get(name, match.group())
        code = int(decimal) if decimal is not None else int(hexadecimal, 16)
        if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
            return chr(code)
        return match.group()

    return _ENTITY.sub(decoded, text)


def normalize(text: str) -> str:
    """Entities decoded, quotes, dashes and "…" folded to ASCII, lower-case, every run of white
    space as one space, trimmed.

    Example: normalize("The  provider&rsquo;s\\nDetails — Settings") -> "the provider's details - settings"
    """
    folded = _FOLD.sub(lambda match: FOLDED[match.group()], decode_entities(text))
    return _SPACE.sub(" ", folded.lower()).strip(" ")


# ---------------------------------------------------------------------------------- numbers

UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
         "fifteen sixteen seventeen eighteen nineteen").split()
TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")  # 20, 30, ... 90
POWERS = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9}  # the zeros each scale word adds
# "one" is a pronoun, not 1, right after these words ("the one you need", "no one") or right
# before "of" or "another" ("one of the plans", "one another").
PRONOUN_BEFORE = ("the", "this", "that", "which", "each", "every", "any", "no", "other", "another")

_START, _END = "(?<![a-z0-9])", "(?![a-z0-9])"  # a word of its own: no letter or digit touching it
# "twenty-nine", "twenty nine" and "twentynine" are all 29 (a claim's number missed is a claim passed).
_WORDS = f"(?:(?:{'|'.join(TENS)})(?:[- ]?(?:{'|'.join(UNITS[1:10])}))?|{'|'.join(UNITS)})"
_WORD_PARTS = re.compile(r"[- ]|(?<=ty)(?=[a-z])")  # every tens word ends in "ty"
_SCALE = f"(?:[- ]({'|'.join(POWERS)}){_END})?"
# On normalized text; the groups: 1 digits, 2 their scale, 3 words, 4 their scale, 5 a scale
# word alone. A match with no group is "one" as a pronoun.
_NUMBER = re.compile(
    f"{_START}(?:{'|'.join(PRONOUN_BEFORE)})[- ]one{_END}"
    f"|{_START}one(?= (?:of|another){_END})"
    f"|([0-9]+(?:,[0-9]{{3}})*(?:\\.[0-9]+)?){_SCALE}"
    f"|{_START}({_WORDS}){_END}{_SCALE}"
    f"|{_START}(?:a[- ])?(dozen|{'|'.join(POWERS)}){_END}")


def _shifted(digits: str, zeros: int = 0) -> str:
    """A decimal written in digits, times 10**zeros, written canonically (exact, any length).

    Example: [_shifted("2.50", 3), _shifted("007"), _shifted("0.50")] -> ["2500", "7", "0.5"]
    """
    whole, _, fraction = digits.partition(".")
    fraction += "0" * zeros
    whole, fraction = (whole + fraction[:zeros]).lstrip("0") or "0", fraction[zeros:].rstrip("0")
    return f"{whole}.{fraction}" if fraction else whole


def _word_value(words: str) -> int:
    """'twenty-one' -> 21, 'twenty one' -> 21, 'twentyone' -> 21, 'forty' -> 40, 'seven' -> 7."""
    parts = _WORD_PARTS.split(words)
    tens = 10 * (TENS.index(parts[0]) + 2) if parts[0] in TENS else 0
    return tens + UNITS.index(parts[-1]) if parts[-1] in UNITS else tens


def _value(match: re.Match) -> str | None:
    """The number a match of _NUMBER stands for, in canonical digits; None for "one" as a pronoun."""
    digits, digits_scale, words, words_scale, alone = match.groups()
    if digits is not None:
        return _shifted(digits.replace(",", ""), POWERS.get(digits_scale, 0))
    if words is not None:
        return _shifted(str(_word_value(words)), POWERS.get(words_scale, 0))
    if alone is not None:
        return "12" if alone == "dozen" else _shifted("1", POWERS[alone])
    return None


def _read_numbers(text: str) -> tuple[list[tuple[str, str]], str]:
    """On normalized text: every number as (value, as written), and the text with them cut out."""
    found, rest, last = [], [], 0
    for match in _NUMBER.finditer(text):
        value = _value(match)
        if value is None:
            continue
        found.append((value, match.group()))
        rest += [text[last:match.start()], " "]
        last = match.end()
    return found, "".join(rest) + text[last:]


def numbers_in(text: str) -> list[tuple[str, str]]:
    """Each number of `text`, once, in order: (its value in digits, how it was first written).

    Example: numbers_in("QB-4021: three tries, then 20,000 rows or 3 more")
             -> [('4021', '4021'), ('3', 'three'), ('20000', '20,000')]
    """
    first: dict[str, str] = {}
    for value, written in _read_numbers(normalize(text))[0]:
        first.setdefault(value, written)
    return list(first.items())


# ----------------------------------------------------------------------------------- quotes

# "...", "…" (folded to "..."), "[...]" or "(...)": words left out of a quote.
_ELISION = re.compile(r" ?(?:\[\.{3,}\]|\(\.{3,}\)|\.{3,}) ?")


def quote_pieces(quote: str) -> list[str]:
    """The normalized quote cut at its elisions, empty pieces dropped.

    Example: quote_pieces("…refundable within 14 days … is not refunded.") ->
             ['refundable within 14 days', 'is not refunded.']
    """
    return _pieces(normalize(quote))


def _pieces(quote: str) -> list[str]:
    return [piece for piece in _ELISION.split(quote) if piece]


def too_short(piece: str) -> str:
    """Why a normalized quote (or piece of one) is too short to support a claim, or "": it needs
    two words or more, one of them not a number.

    Example: [too_short("refundable"), too_short("twenty-one"), too_short("14 days")]
             -> ["is one word", "is only a number", ""]
    """
    numbers, rest = _read_numbers(piece)
    words = len(tokenize(rest))
    if not words and not numbers:
        return "has no words"
    if not words:
        return "is only a number"
    return "is one word" if words + len(numbers) < 2 else ""


_TERM_CHAR = re.compile(r"[^\W_]")  # a letter or digit, as engine/tokenize.py reads terms


def _inside_a_term(text: str, at: int) -> bool:
    """Is position `at` inside a word or a number: between two letters or digits, or beside the
    separator of a number written with one ("20,000", "1.5")?"""
    if not 0 < at < len(text):
        return False
    if _TERM_CHAR.match(text[at - 1]) and _TERM_CHAR.match(text[at]):
        return True
    def digit(char: str) -> bool:  # as the number reader reads digits: 0-9 only
        return "0" <= char <= "9"

    return (text[at] in ".," and digit(text[at - 1]) and at + 1 < len(text) and digit(text[at + 1])
            or text[at - 1] in ".," and digit(text[at]) and at >= 2 and digit(text[at - 2]))


def find_whole(text: str, piece: str, start: int = 0) -> int:
    """Where `piece` first stands in `text` from `start` on, beginning and ending on the edges of
    the text's terms (letters and digits, as the engine tokenizes) and of its numbers (a digit,
    "." or "," and a digit are one number), or -1: a quote may not stop inside a word or a number.
    Both sides are normalized text.

    Example: [find_whole("within 14 days", "within 1"), find_whole("admins cannot", "admins can"),
              find_whole("hold 20,000 notes", "hold 20"), find_whole("within 14 days", "14 days")]
             -> [-1, -1, -1, 7]
    """
    found = text.find(piece, start)
    while found >= 0 and piece:
        if not _inside_a_term(text, found) and not _inside_a_term(text, found + len(piece)):
            return found
        found = text.find(piece, found + 1)
    return found if piece else -1


PART_OF_A_WORD = "there only as part of a longer word or number (a quote starts and ends on whole words)"


def _missing_piece(pieces: list[str], text: str) -> str:
    """Why the pieces are not all in `text` in order ("" when they are): each is looked for,
    whole, after the end of the one before, so the earliest place that fits is always taken."""
    at = 0
    for number, piece in enumerate(pieces):
        found = find_whole(text, piece, at)
        if found < 0:
            if number and find_whole(text, piece) >= 0:
                return f'the piece "{piece}" does not come after "{pieces[number - 1]}"'
            if piece in text:
                return f'the piece "{piece}" is {PART_OF_A_WORD}'
            return f'the piece "{piece}" is not in it'
        at = found + len(piece)
    return ""


def _as_quoted(quote: str, text: str) -> tuple[list[str], bool]:
    """On normalized text: the pieces to check, and whether they are pieces of an elided quote.
    A quote found as written is one piece, even with "..." in it (the source may say "Loading...")."""
    if find_whole(text, quote) >= 0:
        return ([quote] if _pieces(quote) else []), False
    pieces = _pieces(quote)
    return pieces, len(pieces) > 1 or pieces[:1] != [quote]


def quote_in(quote: str, text: str) -> bool:
    """Is the quote in the text, after normalizing both, as a whole or as its pieces in order,
    each starting and ending on whole words?

    Example: [quote_in("paid plans … 14 days", "Paid plans are refundable within 14 days."),
              quote_in("refundable within 1", "Paid plans are refundable within 14 days.")] -> [True, False]
    """
    normalized = normalize(text)
    pieces, _ = _as_quoted(normalize(quote), normalized)
    return bool(pieces) and not _missing_piece(pieces, normalized)


def quote_problems(quote: str, text: str, source_id: str) -> list[str]:
    """What is wrong with a quote of source `source_id` whose text is `text`."""
    normalized = normalize(text)
    pieces, elided = _as_quoted(normalize(quote), normalized)
    if not pieces:
        return ["the quote is empty"]
    problems = []
    for piece in pieces:
        reason = too_short(piece)
        if reason:
            problems.append(f'the piece "{piece}" of the shortened quote {reason}: too short to support a claim'
                            if elided else f"the quote {reason}: too short to support a claim")
    missing = _missing_piece(pieces, normalized)
    if missing:
        detail = f": {missing}" if elided else f": it is {PART_OF_A_WORD}" if pieces[0] in normalized else ""
        problems.append(f"quote not found in source '{source_id}'{detail}")
    return problems


# ----------------------------------------------------------------------------------- claims


@dataclass(frozen=True)
class Claim:
    text: str
    source_id: str
    quote: str


@dataclass(frozen=True)
class CitationResult:
    claim: Claim
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_claim(claim: Claim, sources: dict[str, str]) -> CitationResult:
    if claim.source_id not in sources:
        return CitationResult(claim, [f"unknown source id '{claim.source_id}': it was not sent to the model"])
    problems = quote_problems(claim.quote, sources[claim.source_id], claim.source_id)
    quoted = {value for value, _ in numbers_in(claim.quote)}
    for value, written in numbers_in(claim.text):
        if value not in quoted:
            shown = value if written.replace(",", "") == value else f'{value} ("{written}")'
            problems.append(f"number {shown} in the claim is not in the quote")
    return CitationResult(claim, problems)


def check_citations(claims: list[Claim], sources: dict[str, str]) -> list[CitationResult]:
    return [check_claim(claim, sources) for claim in claims]


# ------------------------------------------------------------------------- the answer read

UNBACKED = "no claim backs this sentence"


@dataclass(frozen=True)
class AnswerSentence:
    text: str
    claims: tuple[int, ...]  # the claims (counted from 0) whose words it holds, in claim order

    @property
    def backed(self) -> bool:
        return bool(self.claims)


def answer_sentences(answer: str, located: list[str]) -> list[AnswerSentence]:
    """The answer's sentences (split_sentences), each with the claims whose words `located[i]`
    (claim i's span of the answer) it holds, normalized and on whole words. A span found in no
    sentence (not in the answer, empty, or across two sentences) places its claim nowhere; one
    found in two sentences places it in both.

    Example: answer_sentences("Refunds last 14 days. Older pages differ.", ["refunds LAST 14 days"])
             -> [AnswerSentence('Refunds last 14 days.', (0,)), AnswerSentence('Older pages differ.', ())]
    """
    spans = [normalize(span) for span in located]
    return [AnswerSentence(sentence, tuple(i for i, span in enumerate(spans) if find_whole(normalize(sentence), span) >= 0))
            for sentence in split_sentences(answer)]
