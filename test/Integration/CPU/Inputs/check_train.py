#!/usr/bin/env python3
"""Checks on amp-train outputs for the integration tests.

  check_train.py losses REF.csv OTHER.csv --rtol R [--steps N]
      every step's loss of OTHER within relative R of REF's (first N steps)
  check_train.py accuracy REF.out OTHER.out --max-diff PP
      test accuracies within PP percentage points
  check_train.py learns OUT --min-accuracy A / --max-accuracy A
"""
import argparse
import csv
import re
import sys


def losses(path):
    return [float(row["loss"]) for row in csv.DictReader(open(path))]


def accuracy(path):
    match = re.search(r"test accuracy ([0-9.]+)%", open(path).read())
    if not match:
        sys.exit(f"{path}: no test accuracy line")
    return float(match.group(1))


parser = argparse.ArgumentParser()
sub = parser.add_subparsers(dest="command", required=True)
p = sub.add_parser("losses")
p.add_argument("ref")
p.add_argument("other")
p.add_argument("--rtol", type=float, required=True)
p.add_argument("--steps", type=int, default=None)
p = sub.add_parser("accuracy")
p.add_argument("ref")
p.add_argument("other")
p.add_argument("--max-diff", type=float, required=True)
p = sub.add_parser("learns")
p.add_argument("out")
p.add_argument("--min-accuracy", type=float)
p.add_argument("--max-accuracy", type=float)
args = parser.parse_args()

if args.command == "losses":
    ref, other = losses(args.ref), losses(args.other)
    n = args.steps or len(ref)
    if len(ref) < n or len(other) < n:
        sys.exit(f"fewer than {n} steps logged")
    worst = max(abs(o - r) / abs(r) for r, o in zip(ref[:n], other[:n]))
    print(f"max relative loss difference over {n} steps: {worst:.2e}")
    sys.exit(0 if worst <= args.rtol else 1)
if args.command == "accuracy":
    a, b = accuracy(args.ref), accuracy(args.other)
    print(f"accuracy {a:.2f}% vs {b:.2f}%")
    sys.exit(0 if abs(a - b) <= args.max_diff else 1)
a = accuracy(args.out)
print(f"accuracy {a:.2f}%")
if args.min_accuracy is not None and a < args.min_accuracy:
    sys.exit(1)
if args.max_accuracy is not None and a > args.max_accuracy:
    sys.exit(1)
