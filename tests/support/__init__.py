"""What the tests share besides fixtures (those are in tests/conftest.py): paths, the browser
harness, the lab helpers, the small valid corpus. Tests import these as `support.<module>`."""
