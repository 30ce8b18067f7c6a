#!/usr/bin/env python3
"""Prints lit's JSON results as one line: 'N passed, N failed, N skipped'."""
import json
import sys

with open(sys.argv[1]) as f:
    tests = json.load(f)["tests"]
codes = [t["code"] for t in tests]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
skipped = sum(c in ("UNSUPPORTED", "SKIPPED") for c in codes)
failed = len(codes) - passed - skipped
print(f"{passed} passed, {failed} failed, {skipped} skipped")
