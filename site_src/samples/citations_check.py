"""Check a model's citations with code. Each claim names a source id and quotes it; three
checks run: was that source sent to the model, is the quote really in it (ignoring case
and spacing), and is every number of the claim also in the quote.

Example: check({"text": "21 days", "source_id": "refund-new", "quote": "14 days"}, SOURCES)
         -> ['number 21 in the claim is not in the quote']
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

# Five illustrative claims a model might return for "Can I get a refund after three weeks?"
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
     "source_id": "refund-new", "quote": "After those 14 days, cancelling stops all future charges"},
]

NUMBER = re.compile(r"[0-9]+(?:,[0-9]{3})*(?:\.[0-9]+)?")


def normalize(text):
    """Lower-case, with every run of white space as one space."""
    return " ".join(text.lower().split())


def numbers(text):
    """Each number once, in order, without thousands separators: '20,000 or 14' -> ['20000', '14']."""
    found = []
    for number in NUMBER.findall(text):
        number = number.replace(",", "")
        if number not in found:
            found.append(number)
    return found


def check(claim, sources):
    """The problems with one claim's citation; an empty list means every check passed."""
    source_id = claim["source_id"]
    if source_id not in sources:
        return [f"unknown source id '{source_id}': it was not sent to the model"]
    problems = []
    quote = normalize(claim["quote"])
    if not quote:
        problems.append("the quote is empty")
    elif quote not in normalize(sources[source_id]):
        problems.append(f"quote not found in source '{source_id}'")
    quoted = numbers(claim["quote"])
    for number in numbers(claim["text"]):
        if number not in quoted:
            problems.append(f"number {number} in the claim is not in the quote")
    return problems


def main():
    print("Sources sent:", ", ".join(SOURCES))
    passed = []
    for n, claim in enumerate(CLAIMS, start=1):
        problems = check(claim, SOURCES)
        print()
        print(f'{n}. "{claim["text"]}"')
        print(f'   cites {claim["source_id"]}: "{claim["quote"]}"')
        for problem in problems:
            print(f"   FAIL  {problem}")
        if not problems:
            print("   ok    every check passed")
            passed.append(str(n))
    print()
    print(f"Passed every check: {len(passed)} of {len(CLAIMS)} (claims {', '.join(passed)})")


if __name__ == "__main__":
    main()
