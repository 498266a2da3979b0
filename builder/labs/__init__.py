"""The page's labs, in page order. A lab is one unit, found by its name:

    builder/labs/<name>.py        its data step, data(build) -> dict, kept as data["labs"][<name>];
                                  STATE, the state the page opens on; SCRIPTS, shared scripts it
                                  needs in the browser; BUILD_ONLY, data the browser never reads
    site_src/labs/<name>/         lab.html (its default state, drawn without JavaScript),
                                  lab.js (its script, started when the reader nears it), lab.css
    tests/labs/test_<name>.py     its tests

A section places a lab with {{ lab("<name>") }}.
"""

from builder.labs import (ask, bm25, checker, chunking, hybrid, injection, permissions, prompt, quiz, recall, rerank,
                          tracer, winners)
from builder.labs import map as embedding_map

LABS = (chunking, bm25, winners, hybrid, rerank, prompt, checker, tracer, ask, embedding_map, permissions, injection,
        recall, quiz)
BY_NAME = {lab.NAME: lab for lab in LABS}


def lab_data(build) -> dict:
    """name -> what the lab's data step computed."""
    return {lab.NAME: lab.data(build) for lab in LABS}


def scripts_of(lab) -> tuple[str, ...]:
    return getattr(lab, "SCRIPTS", ())


def browser_data(lab, data: dict) -> dict:
    """What the lab's script reads: its data without the keys only the build uses."""
    return {key: value for key, value in data.items() if key not in getattr(lab, "BUILD_ONLY", ())}
