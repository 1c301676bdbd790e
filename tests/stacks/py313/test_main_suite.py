"""The main suite, less what needs torch, on Python 3.13 (see tests/stacks/main_suite.py)."""

from stacks.main_suite import run_main_suite


def test_main_suite_passes_on_python_3_13() -> None:
    run_main_suite("3.13")
