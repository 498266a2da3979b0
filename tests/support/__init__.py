"""What the tests share besides fixtures (those are in the conftest.py at the root): paths, the browser
harness, the lab helpers, the small valid corpus. Tests import these as `support.<module>`."""
