"""``python -m vistlog``."""

from vistlog.cli import run

run()
