import hashlib


def fingerprint(text):
    """A short content hash: the same text always gives the same fingerprint."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


# What the index holds for one document: chunk id -> fingerprint of the embedded text.
indexed = {
    "refunds#1": fingerprint("Paid plans can be refunded within 30 days of the payment."),
    "refunds#2": fingerprint("To ask for a refund, write to billing support."),
    "refunds#3": fingerprint("Refunds reach your card within 10 days."),
}

# The same document as it reads today, chunked the same way.
today = {
    "refunds#1": "Paid plans are refundable within 14 days of the payment.",
    "refunds#2": "To ask for a refund, write to billing support.",
    "refunds#4": "After 14 days, cancelling stops future charges.",
}


def plan(indexed, today):
    """What re-indexing must do, chunk by chunk: only changed text is embedded again."""
    steps = []
    for chunk_id, text in today.items():
        new = fingerprint(text)
        if chunk_id not in indexed:
            steps.append(("embed", chunk_id, new))
        elif indexed[chunk_id] != new:
            steps.append(("re-embed", chunk_id, new))
        else:
            steps.append(("keep", chunk_id, new))
    # A chunk the document no longer has must go, or search keeps finding it.
    for chunk_id in indexed:
        if chunk_id not in today:
            steps.append(("delete", chunk_id, indexed[chunk_id]))
    return steps


steps = plan(indexed, today)
for action, chunk_id, digest in steps:
    print(f"{action:9} {chunk_id:10} {digest}")
embedded = sum(1 for action, _, _ in steps if action in ("embed", "re-embed"))
print(f"{embedded} of {len(today)} chunks embedded; all steps in one transaction")
