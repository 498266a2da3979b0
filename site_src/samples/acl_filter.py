# Who may read what: each passage lists the groups allowed to read it.
ACL = {
    "runbook-restore": ["staff"],
    "trash-workspace": ["public"],
    "runbook-unlock": ["staff"],
    "trash-business": ["public"],
    "refund-policy": ["public"],
    "export-workspace": ["public"],
}

# The search's ranking of every passage for one question, best first.
RANKED = ["runbook-restore", "trash-workspace", "runbook-unlock",
          "trash-business", "refund-policy", "export-workspace"]


def can_read(passage, groups):
    return any(group in groups for group in ACL[passage])


def pre_filter(ranked, groups, k):
    # Filter inside the search: only readable passages compete for the k places.
    return [p for p in ranked if can_read(p, groups)][:k]


def post_filter(ranked, groups, k):
    # Filter after the search: take the top k of everything, then drop what is hidden.
    return [p for p in ranked[:k] if can_read(p, groups)]


for reader, groups in (("customer", ["public"]), ("staff", ["public", "staff"])):
    for k in (1, 3):
        pre = pre_filter(RANKED, groups, k)
        post = post_filter(RANKED, groups, k)
        print(f"{reader:8} k={k}  pre:  {len(pre)} {', '.join(pre)}")
        print(f"{'':8} k={k}  post: {len(post)} {', '.join(post) or '(nothing)'}")
