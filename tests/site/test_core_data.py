"""The page's core data (builder/core_data.py), read from the site the session built: the checks
of the traced answers hold against only the passages each prompt carries."""

from engine.citations import Claim, check_citations


def test_traced_citations_hold_against_only_the_passages_sent(data):
    by_id = {p["id"]: p["text"] for p in data["passages"]}
    for tracer in data["tracers"]:
        sent = tracer["sent"]
        assert sent == [pid for pid, _ in data["runs"][tracer["id"]]["hybrid"][:data["settings"]["prompt_passages"]]]
        claims = [Claim(c["text"], c["source"], c["quote"]) for c in tracer["claims"]]
        narrow = check_citations(claims, {pid: by_id[pid] for pid in sent})
        assert [r.problems for r in narrow] == tracer["sent_problems"], tracer["id"]
        assert [r.problems for r in narrow] == [c["problems"] for c in tracer["claims"]], tracer["id"]
