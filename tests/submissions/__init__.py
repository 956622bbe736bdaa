"""Synthetic submissions per notebook (`SUBMISSIONS` in NN_name.py), for tests/test_roundtrip.py."""
