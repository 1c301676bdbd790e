"""One module per game: the design report's measurements (``main(argv)``); see ``design_report.py``."""
