"""Permissions before or after the top-k cut: a pre-filter keeps k readable results, a
post-filter silently returns fewer; neither ever shows a staff-only passage to a customer."""

import pytest

from engine.access import can_read, post_filter, pre_filter

# Ranked best first; the two staff runbooks rank high, as internal notes often do.
RANKED = ["runbook-refund", "refund-new", "runbook-billing", "refund-old", "bill-invoice"]
ACL = {
    "runbook-refund": ["staff"],
    "refund-new": ["public"],
    "runbook-billing": ["staff"],
    "refund-old": ["public"],
    "bill-invoice": ["public", "staff"],
}
CUSTOMER = ["public"]
STAFF = ["public", "staff"]
STAFF_ONLY = {"runbook-refund", "runbook-billing"}


def test_can_read_needs_one_shared_group():
    assert can_read(["public"], CUSTOMER)
    assert can_read(["staff", "public"], CUSTOMER)
    assert not can_read(["staff"], CUSTOMER)
    assert not can_read([], STAFF)


def test_pre_filter_keeps_k_readable_results():
    # Drop the two runbooks first, then cut: the customer still gets 3.
    assert pre_filter(RANKED, ACL, CUSTOMER, k=3) == ["refund-new", "refund-old", "bill-invoice"]


def test_post_filter_returns_fewer():
    # Cut the top 3 first (runbook-refund, refund-new, runbook-billing), then drop 2: 3 - 2 = 1 left.
    assert post_filter(RANKED, ACL, CUSTOMER, k=3) == ["refund-new"]


@pytest.mark.parametrize("k", range(0, len(RANKED) + 2))
@pytest.mark.parametrize("filter_", [pre_filter, post_filter])
def test_a_staff_only_passage_never_reaches_a_customer(filter_, k):
    results = filter_(RANKED, ACL, CUSTOMER, k=k)
    assert STAFF_ONLY.isdisjoint(results)
    assert len(results) <= k


@pytest.mark.parametrize("filter_", [pre_filter, post_filter])
def test_staff_sees_the_runbooks_in_rank_order(filter_):
    assert filter_(RANKED, ACL, STAFF, k=3) == ["runbook-refund", "refund-new", "runbook-billing"]


def test_with_nothing_to_drop_both_filters_agree():
    assert pre_filter(RANKED, ACL, STAFF, k=5) == post_filter(RANKED, ACL, STAFF, k=5) == RANKED
