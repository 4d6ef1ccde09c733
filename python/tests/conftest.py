"""Shared paths for the binding's tests: the repository's root, and every
shipped rules file (the tests run from any directory)."""

import glob
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.dirname(os.path.abspath(__file__))


def rules(name):
    return os.path.join(ROOT, name)


def shipped_rules():
    files = glob.glob(os.path.join(ROOT, "rules", "*.rules"))
    files += glob.glob(os.path.join(ROOT, "rules", "*", "*.rules"))
    files += glob.glob(os.path.join(ROOT, "examples", "*.rules"))
    files.append(os.path.join(HERE, "two_cards.rules"))
    return sorted(files)
