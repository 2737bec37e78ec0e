"""Writes a .pre-commit-config.yaml that takes the roofcheck-lint hook from a hooks repository at a commit.
usage: pre-commit-config.py HOOKS_REPO REV OUT"""
import sys

repo, rev, out = sys.argv[1:]
with open(out, "w") as f:
    f.write(f"repos:\n  - repo: {repo}\n    rev: {rev}\n    hooks:\n      - id: roofcheck-lint\n")
