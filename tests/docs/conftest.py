"""What the documents' tests share: one Node process per test module that runs the page's
documents scripts (tests/docs/node.py)."""

import pytest

from docs.node import DocsNode


@pytest.fixture(scope="module")
def node():
    process = DocsNode()
    yield process
    process.close()
