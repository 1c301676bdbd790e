"""A part of the main suite, less what needs torch, on Python 3.12 (see tests/stacks/main_suite.py)."""

from stacks.main_suite import PY312_PART, run_main_suite


def test_main_suite_part_passes_on_python_3_12() -> None:
    run_main_suite("3.12", PY312_PART)
