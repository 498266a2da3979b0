"""Check a model's citations with code. Each claim names a source id and quotes it. Four checks
run: was that source sent to the model; is the quote long enough to support anything (two words
or more, not only a number); is it really in the source (ignoring case, spacing, typographic
quotes and dashes, HTML entities, and words left out with "..."); and is every number of the
claim, in digits or in words, also in the quote.

Example: check({"text": "three weeks", "source_id": "refund-new",
                "quote": "refundable within 14 days"}, SOURCES)
         -> ['number 3 ("three") in the claim is not in the quote']
"""

import re

# The passages that were sent to the model, by id.
SOURCES = {
    "refund-old": "Not happy with Quillbox? You can ask for a full refund within 30 days of your "
                  "payment and we will return the whole amount, no questions asked. To request a "
                  "refund, write to billing support from Settings, Billing.",
    "refund-new": "Paid plans are refundable within 14 days of the payment. After those 14 days, "
                  "cancelling stops all future charges, but the current billing period is not "
                  "refunded and the workspace keeps its paid features until the period ends.",
}

# Illustrative claims a model might return for "Can I get a refund after three weeks?"
CLAIMS = [
    {"text": "Paid plans are refundable within 14 days of the payment.",
     "source_id": "refund-new", "quote": "refundable within 14 days of the payment"},
    {"text": "Annual plans can be refunded at any time.",
     "source_id": "refund-annual", "quote": "refunded at any time"},
    {"text": "After 14 days there are no refunds at all.",
     "source_id": "refund-new", "quote": "no refunds after 14 days"},
    {"text": "You can get your money back within 21 days of paying.",
     "source_id": "refund-new", "quote": "refundable within 14 days of the payment"},
    {"text": "Cancelling after 14 days refunds the current billing period.",
     "source_id": "refund-new",
     "quote": "After those 14 days, cancelling stops all future charges"},
    # Real model output: an entity and a number in words; a number word that is wrong; a
    # one-word quote; a quote shortened with "…"; a shortened quote that drops a "not".
    {"text": "Paid plans can be refunded for fourteen days after paying.",
     "source_id": "refund-new", "quote": "refundable within 14&nbsp;days of the payment"},
    {"text": "A refund is still possible within three weeks.",
     "source_id": "refund-new", "quote": "refundable within 14 days of the payment"},
    {"text": "Paid plans can be refunded.",
     "source_id": "refund-new", "quote": "refundable"},
    {"text": "After 14 days, cancelling stops future charges but not the current period's.",
     "source_id": "refund-new",
     "quote": "After those 14 days, cancelling stops all future charges\u2026 "
              "the current billing period is not refunded"},
    {"text": "The current billing period is refunded when you cancel.",
     "source_id": "refund-new",
     "quote": "the current billing period is \u2026 refunded and the workspace keeps "
              "its paid features"},
    # A quote cut inside a number: "within 1" stands in the source only as part of "within 14".
    {"text": "Paid plans are refundable within 1 day of the payment.",
     "source_id": "refund-new", "quote": "refundable within 1"},
]

# 1. Normalize both sides: HTML entities decoded once, typographic characters folded to ASCII,
#    lower-case, every run of white space one space.
ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": "\u00a0",
            "lsquo": "\u2018", "rsquo": "\u2019", "sbquo": "\u201a", "ldquo": "\u201c",
            "rdquo": "\u201d", "bdquo": "\u201e", "laquo": "\u00ab", "raquo": "\u00bb",
            "hellip": "\u2026", "ndash": "\u2013", "mdash": "\u2014", "hyphen": "\u2010",
            "minus": "\u2212", "ensp": "\u2002", "emsp": "\u2003", "thinsp": "\u2009",
            "shy": "\u00ad"}
ENTITY = re.compile(r"&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]*));")
FOLDED = {**dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\uff07", "'"),
          **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\uff02", '"'),
          **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
          "\u2026": "...", **dict.fromkeys("\u00ad\u200b\u2060", "")}
FOLD = re.compile("[" + "".join(FOLDED) + "]")
# JavaScript's \s, spelled out, so that both languages split on the same spaces.
SPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def entity(match):
    decimal, hexadecimal, name = match.groups()
    if name is not None:
        return ENTITIES.get(name, match.group())
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else match.group()


def normalize(text):
    folded = FOLD.sub(lambda match: FOLDED[match.group()], ENTITY.sub(entity, text))
    return SPACE.sub(" ", folded.lower()).strip(" ")


# 2. Numbers in digits or in words, each read as its value: "twenty-one" -> "21".
UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()
TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
POWERS = {"hundred": 2, "thousand": 3, "million": 6, "billion": 9}
START, END = "(?<![a-z0-9])", "(?![a-z0-9])"
WORDS = f"(?:(?:{'|'.join(TENS)})(?:[- ]?(?:{'|'.join(UNITS[1:10])}))?|{'|'.join(UNITS)})"
SCALE = f"(?:[- ]({'|'.join(POWERS)}){END})?"
NUMBER = re.compile(
    f"{START}(?:the|this|that|which|each|every|any|no|other|another)[- ]one{END}"  # pronoun
    f"|{START}one(?= (?:of|another){END})"                  # "one of": a pronoun too
    f"|([0-9]+(?:,[0-9]{{3}})*(?:\\.[0-9]+)?){SCALE}"      # 14, 20,000, 2.5 million
    f"|{START}({WORDS}){END}{SCALE}"                         # three, twenty-one, two hundred
    f"|{START}(?:a[- ])?(dozen|{'|'.join(POWERS)}){END}")    # a dozen, a hundred


def shifted(digits, zeros):
    """A decimal times 10**zeros, without needless zeros: ('2.50', 3) -> '2500'."""
    whole, _, fraction = digits.partition(".")
    fraction += "0" * zeros
    whole, fraction = (whole + fraction[:zeros]).lstrip("0") or "0", fraction[zeros:].rstrip("0")
    return whole + "." + fraction if fraction else whole


def value_of(match):
    digits, digits_scale, words, words_scale, alone = match.groups()
    if digits is not None:
        return shifted(digits.replace(",", ""), POWERS.get(digits_scale, 0))
    if words is not None:
        parts = re.split("[- ]|(?<=ty)(?=[a-z])", words)
        tens = 10 * (TENS.index(parts[0]) + 2) if parts[0] in TENS else 0
        units = UNITS.index(parts[-1]) if parts[-1] in UNITS else 0
        return shifted(str(tens + units), POWERS.get(words_scale, 0))
    if alone is not None:
        return "12" if alone == "dozen" else shifted("1", POWERS[alone])
    return None  # "one" as a pronoun


def read_numbers(text):
    """[(value, as written)] of each number in normalized text, and the text without them."""
    found, rest, last = [], "", 0
    for match in NUMBER.finditer(text):
        value = value_of(match)
        if value is not None:
            found.append((value, match.group()))
            rest += text[last:match.start()] + " "
            last = match.end()
    return found, rest + text[last:]


def numbers(text):
    """Each number once: 'three tries, 20,000 rows' -> [('3', 'three'), ('20000', '20,000')]."""
    first = {}
    for value, written in read_numbers(normalize(text))[0]:
        first.setdefault(value, written)
    return list(first.items())


# 3. Quotes: long enough, and in the source whole or as pieces cut at "..." in their order,
#    each starting and ending on whole words ("within 1" is not a quote of "within 14 days").
ELISION = re.compile(r" ?(?:\[\.{3,}\]|\(\.{3,}\)|\.{3,}) ?")


def too_short(piece):
    found, rest = read_numbers(piece)
    words = len(re.findall(r"[^\W_]+", rest))
    if not words:
        return "is only a number" if found else "has no words"
    return "is one word" if words + len(found) < 2 else ""


WORD_CHAR = re.compile(r"[^\W_]")  # a letter or a digit
INSIDE = "there only as part of a longer word or number (a quote starts and ends on whole words)"


def cuts_a_word(text, at):
    """Is position at inside a word or a number: between two letters or digits, or beside the
    separator of a number written with one ("20,000", "1.5")?"""
    if not 0 < at < len(text):
        return False
    if WORD_CHAR.match(text[at - 1]) and WORD_CHAR.match(text[at]):
        return True
    digits = "0123456789"
    return (text[at] in ".," and text[at - 1] in digits and text[at + 1:at + 2] in tuple(digits)
            or text[at - 1] in ".," and text[at] in digits and at >= 2 and text[at - 2] in digits)


def find_whole(text, piece, start=0):
    """Where piece stands in text from start on, beginning and ending on whole words; -1 if nowhere."""
    where = text.find(piece, start)
    while where >= 0 and (cuts_a_word(text, where) or cuts_a_word(text, where + len(piece))):
        where = text.find(piece, where + 1)
    return where


def missing_piece(pieces, text):
    at = 0
    for n, piece in enumerate(pieces):
        where = find_whole(text, piece, at)
        if where < 0 and n and find_whole(text, piece) >= 0:
            return f'the piece "{piece}" does not come after "{pieces[n - 1]}"'
        if where < 0:
            return f'the piece "{piece}" is {INSIDE}' if piece in text else f'the piece "{piece}" is not in it'
        at = where + len(piece)
    return ""


def check(claim, sources):
    """The problems with one claim's citation; an empty list means every check passed."""
    source_id = claim["source_id"]
    if source_id not in sources:
        return [f"unknown source id '{source_id}': it was not sent to the model"]
    problems = []
    quote, text = normalize(claim["quote"]), normalize(sources[source_id])
    pieces = [piece for piece in ELISION.split(quote) if piece]
    elided = find_whole(text, quote) < 0 and pieces != [quote]
    if not elided and pieces:  # found as written, even with "..." in it
        pieces = [quote]
    if not pieces:
        problems.append("the quote is empty")
    for piece in pieces:
        if reason := too_short(piece):
            what = f'the piece "{piece}" of the shortened quote' if elided else "the quote"
            problems.append(f"{what} {reason}: too short to support a claim")
    if pieces and (missing := missing_piece(pieces, text)):
        where = f"quote not found in source '{source_id}'"
        problems.append(f"{where}: {missing}" if elided else f"{where}: it is {INSIDE}" if quote in text else where)
    quoted = [value for value, _ in numbers(claim["quote"])]
    for value, written in numbers(claim["text"]):
        if value not in quoted:
            shown = value if written.replace(",", "") == value else f'{value} ("{written}")'
            problems.append(f"number {shown} in the claim is not in the quote")
    return problems


def main():
    print("Sources sent:", ", ".join(SOURCES))
    passed = []
    for n, claim in enumerate(CLAIMS, start=1):
        problems = check(claim, SOURCES)
        print()
        print(f'{n:2}. "{claim["text"]}"')
        print(f'    cites {claim["source_id"]}: "{claim["quote"]}"')
        for problem in problems:
            print(f"    FAIL  {problem}")
        if not problems:
            print("    ok    every check passed")
            passed.append(str(n))
    print()
    print(f"Passed every check: {len(passed)} of {len(CLAIMS)} (claims {', '.join(passed)})")


if __name__ == "__main__":
    main()
