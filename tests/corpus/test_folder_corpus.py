"""A corpus that is a folder of documents (engine/folder_corpus.py), on the Plantry test corpus
(tests/corpus/fixtures/plantry/: Markdown, HTML and text files and a golden set, written for
these tests): which files are documents, the passages and their ids, the default metadata and
readers, what HTML leaves behind, and the problems that name their place and fix."""

import datetime
import shutil

import pytest

from engine.corpus import is_help_center, load_corpus
from engine.folder_corpus import MAX_WORDS, fit, passage_id, slug, unique
from engine.problems import CorpusError
from support.paths import ROOT

PLANTRY = ROOT / "tests" / "corpus" / "fixtures" / "plantry"


@pytest.fixture
def plantry(tmp_path):
    shutil.copytree(PLANTRY, tmp_path / "plantry")
    return tmp_path / "plantry"


def problems_of(folder):
    with pytest.raises(CorpusError) as raised:
        load_corpus(folder)
    return raised.value.problems


def test_the_folder_is_read_as_documents_cut_by_heading_with_readable_ids():
    corpus = load_corpus(PLANTRY)
    assert corpus.layout == "documents" and not is_help_center(PLANTRY) and corpus.warnings == ()
    assert [(p.id, p.document, p.section, p.line) for p in corpus.passages] == [
        ("billing-free-and-family-plans", "billing", "Free and Family plans", 7),
        ("billing-cancelling-a-subscription", "billing", "Cancelling a subscription", 11),
        ("expiry-how-reminders-work", "expiry", "How reminders work", 8),
        ("expiry-changing-the-reminder-time", "expiry", "Changing the reminder time", 14),
        ("expiry-reminders-on-a-shared-pantry", "expiry", "Reminders on a shared pantry", 20),
        ("getting-started", "getting-started", "Getting started with Plantry", 7),  # under the title itself
        ("getting-started-creating-a-pantry", "getting-started", "Creating a pantry", 12),
        ("getting-started-adding-items-by-barcode", "getting-started", "Adding items by barcode", 18),
        ("getting-started-sharing-with-a-household", "getting-started", "Sharing with a household", 24),
        ("recipes", "recipes", "recipes.txt", 1),  # text: no headings, titled by its name
        ("sync-working-offline", "sync", "Working offline", 8),
        ("sync-conflicting-edits", "sync", "Conflicting edits", 14),
    ]
    by_id = corpus.by_id
    assert by_id["getting-started-creating-a-pantry"].title == "Getting started with Plantry"
    assert by_id["getting-started-creating-a-pantry"].text.startswith(
        "A pantry is one list of stored food. Tap New pantry, give it a name such as Home or Cabin,")  # marks gone
    assert by_id["billing-free-and-family-plans"].title == "Plans and billing"  # an HTML file's first heading


def test_metadata_comes_from_front_matter_or_the_defaults():
    corpus = load_corpus(PLANTRY)
    offline = corpus.by_id["sync-working-offline"]
    assert (offline.kind, offline.acl, offline.superseded, offline.updated, offline.url) == (
        "help", ("public",), False, "2026-02-11", "sync.md#sync-working-offline")
    mtime = datetime.datetime.fromtimestamp((PLANTRY / "billing.html").stat().st_mtime, datetime.timezone.utc)
    assert corpus.by_id["billing-cancelling-a-subscription"].updated == mtime.date().isoformat()
    assert [(r.role, r.groups) for r in corpus.readers] == [("customer", ("public",))]
    assert corpus.tracers == ()
    assert [(g.id, g.answer_id) for g in corpus.golden][:2] == [
        ("g01", "getting-started-adding-items-by-barcode"), ("g02", "expiry-how-reminders-work")]


def test_what_the_html_document_leaves_out_is_not_in_any_passage():
    texts = " ".join(p.text for p in load_corpus(PLANTRY).passages)
    for hidden in ("trackVisit", "reviewed by the billing team", "openChat", "javascript", "margin"):
        assert hidden not in texts
    assert "Ask us if anything is unclear." in texts  # a link's text stays, its target goes


def test_ids_are_slugs_cut_at_a_dash_and_made_unique():
    assert slug("Café: Ünïcode & QB-4021!") == "cafe-unicode-qb-4021"
    assert slug("日本語") == ""
    assert passage_id("日本語", ("見出し",)) == "document"
    assert passage_id("sync", ("Syncing", "Working offline"), "Syncing") == "sync-working-offline"
    assert passage_id("faq", ("FAQ",)) == "faq"
    assert passage_id("getting-started", ("Getting started on a phone",)) == "getting-started-on-a-phone"
    assert fit("a-very-long-name", 8) == "a-very" and fit("x" * 50) == "x" * 40
    assert len(passage_id("a" * 30, ("b" * 30,))) <= 40
    assert unique(["a", "b", "a", "a", "a-2"]) == ["a", "b", "a-2", "a-3", "a-2-2"]


def test_a_long_section_becomes_passages_of_whole_sentences(plantry):
    sentence = "Plantry counts every jar on the shelf twice a day. "  # 10 words
    (plantry / "long.md").write_text("# Long\n\n## Counting\n\n" + sentence * 30, "utf-8")
    parts = [p for p in load_corpus(plantry).passages if p.document == "long"]
    assert [p.id for p in parts] == ["long-counting", "long-counting-2", "long-counting-3"]
    assert [len(p.text.split()) for p in parts] == [MAX_WORDS, MAX_WORDS, 300 - 2 * MAX_WORDS]


def test_a_folder_without_documents_and_a_wrong_golden_answer_are_named_with_their_fix(plantry, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.md").write_text("# Notes about this folder\n\nNot a document.\n", "utf-8")
    assert [(p.file, p.message) for p in problems_of(empty)] == [("empty", "has no documents")]
    text = (plantry / "golden.yaml").read_text("utf-8").replace("answers: [sync-working-offline]", "answers: [sync-offline]")
    (plantry / "golden.yaml").write_text(text, "utf-8")
    problem, = problems_of(plantry)
    assert (problem.file, problem.line, problem.id, problem.field, problem.message) == (
        "plantry/golden.yaml", 9, "g03", "answers", "no passage 'sync-offline'")
    assert "sync-working-offline" in problem.fix and "sync-conflicting-edits" in problem.fix


def test_front_matter_metadata_is_checked_where_it_is_written(plantry):
    path = plantry / "sync.md"
    path.write_text(path.read_text("utf-8").replace("updated: 2026-02-11", "updated: 2026-2-11\nacl: staff\nkind: wiki"),
                    "utf-8")
    found = {(p.file, p.line, p.id, p.field, p.message) for p in problems_of(plantry)}
    assert ("plantry/sync.md", 3, "sync-working-offline", "updated", "is '2026-2-11', not a date") in found
    assert ("plantry/sync.md", 4, "sync-working-offline", "acl", "unknown group 'staff'") in found
    assert ("plantry/sync.md", 5, "sync-conflicting-edits", "kind", "is 'wiki'") in found


def test_a_help_folder_without_passage_ids_is_read_as_documents_with_a_warning(plantry):
    (plantry / "help").mkdir()
    (plantry / "help" / "extra.md").write_text("# Extra\n\n## Labels\n\nPrint labels for jars.\n", "utf-8")
    corpus = load_corpus(plantry)
    assert corpus.layout == "documents" and "help-extra-labels" not in corpus.by_id
    assert corpus.by_id["extra-labels"].text == "Print labels for jars." and corpus.by_id["extra-labels"].url == \
        "help/extra.md#extra-labels"
    assert corpus.warnings == ("plantry/help: holds no '## <id> | <section>' passages: the folder is read as "
                               "documents, each file cut into passages by heading",)
    assert load_corpus(ROOT / "corpus").layout == "help center"
