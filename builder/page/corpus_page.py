"""Render dist/corpus.html: the whole help center by document, every passage anchored by id."""

from collections import OrderedDict

from builder.page.templates import environment


def documents(corpus) -> list[dict]:
    grouped: "OrderedDict[str, dict]" = OrderedDict()
    for passage in corpus.passages:
        doc = grouped.setdefault(passage.document, {"id": passage.document, "title": passage.title,
                                                    "passages": []})
        doc["passages"].append(passage)
    return list(grouped.values())


def render_corpus_page(corpus, data: dict) -> str:
    answers_for = {}
    for question in data["questions"]:
        if question["answer"]:
            answers_for.setdefault(question["answer"], []).append(question)
    return environment().get_template("corpus.html").render(
        documents=documents(corpus), data=data, answers_for=answers_for,
        tokens=data["tokens"]["passages"])
