#!/usr/bin/env python3
"""Build the RAG explainer: corpus -> engine -> data -> pages in dist/.

    python build.py [--corpus DIR] [--out DIR] [--live-model auto|fp16|fp16-embeddings|fp32|off]
                                                     build the site (atomic: all or nothing)
    python build.py trace "any question"             one question through every retrieval stage
    python build.py claims                           every checked claim on the page, held or failed

The stages run in order and each prints one line. A corpus problem stops the build before
anything is computed, with every problem listed by file, line, id and field.
"""

import argparse
import signal
import sys
import time
from pathlib import Path


def _interrupted(signum, frame):
    # Raised as SystemExit wherever the build is, imports included: staged output is
    # discarded on the way out (builder/page/output.py), and no traceback is printed.
    print("build interrupted; the previous output is untouched.", file=sys.stderr)
    sys.exit(130)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, _interrupted)

from builder import trace as trace_command  # noqa: E402 (after the handler: these imports take a while)
from builder.fts5 import NoFTS5  # noqa: E402
from builder.live_model import CHOICES, LiveModelUnavailable  # noqa: E402
from builder.page.claims import ClaimFailed  # noqa: E402
from builder.pipeline import build_site, list_claims  # noqa: E402
from builder.page.errors import ProseError  # noqa: E402
from builder.page.errors import SampleError  # noqa: E402
from engine.problems import CorpusError  # noqa: E402

ROOT = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", default="build", choices=("build", "trace", "claims"),
                        help="what to do (default: build)")
    parser.add_argument("question", nargs="?", help="the question, for trace")
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus", help="corpus folder (default: corpus/)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist/)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache", help="cache folder (default: .cache/)")
    parser.add_argument("--live-model", choices=CHOICES, default="auto",
                        help="the embedding model shipped for questions typed in the browser: the smallest precision "
                             "that agrees with the build (auto, the default), one named, or off (no download offered)")
    parser.add_argument("--claims", choices=("fail", "warn"), default=None,
                        help="what a false claim, or hand-written data that no longer matches the numbers, does: "
                             "stop the build or only print a warning. Default: stop, for a corpus whose page.yaml "
                             "says 'strict: true' (the one the prose was written for); for another corpus, the "
                             "page leaves out what does not hold there and the build warns, one line each")
    args = parser.parse_args(argv)
    try:
        if args.command == "trace":
            if not args.question:
                parser.error('trace needs a question: python build.py trace "How do I export a PDF?"')
            trace_command.run(args.question, args.corpus, args.cache)
            return 0
        if args.command == "claims":
            return list_claims(args.corpus, args.cache)
        started = time.perf_counter()
        print(f"Building {args.out} from {args.corpus}")
        build_site(args.corpus, args.out, args.cache, strict_claims=None if args.claims is None else args.claims == "fail",
                   live=args.live_model)
        print(f"Built {args.out} in {time.perf_counter() - started:.2f} s")
        return 0
    except (CorpusError, ClaimFailed, ProseError, SampleError, LiveModelUnavailable, NoFTS5) as error:
        print(f"build failed: {error}", file=sys.stderr)
        print("Nothing was written; the previous output is untouched.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
