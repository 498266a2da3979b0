"""Section 7's and section 12's examples of what a prompt is made of (builder/prompt_examples.py):
the fixed start every prompt shares is the rules, and it is what a prompt cache could reuse."""

from builder.prompt_examples import fixed_prefix
from engine.prompt import RULES, Source, build_prompt
from engine.tokens import count_o200k


def test_the_fixed_prefix_is_the_rules_and_every_prompt_starts_with_it():
    prefix = fixed_prefix()
    assert prefix == "Rules:\n" + "".join(f"{i}. {r.text}\n" for i, r in enumerate(RULES, 1)) + "\nSources:\n\n"
    for question, sources in (("Why QB-4021?", [Source("err-4021", "Errors", "2026-05-01", "Too large.")]),
                              ("Refund?", []), ("x", [Source("z", "t", "d", "y"), Source("a", "b", "c", "d")])):
        assert build_prompt(question, sources).startswith(prefix)


def test_the_page_data_counts_it(data):
    fixed = data["prompt_examples"]["fixed_prefix"]
    assert fixed["text"] == fixed_prefix()
    assert fixed["tokens"] == count_o200k(fixed_prefix())
    # Every prompt the page counts is longer than its fixed start.
    assert all(fixed["tokens"] < count for by_n in data["prompt_tokens"].values() for count in by_n.values())
