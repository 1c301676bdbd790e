"""Text from a file is printed escaped: a spec whose ``algo``, env name or ``role`` holds escape
sequences or a newline cannot drive the terminal or forge a line of ``registry ls`` / ``show``."""

from __future__ import annotations

from pathlib import Path

from mythzoo.policies.registry import Registry

from .helpers import cli, forge

ESCAPES = "\x1b[2J\x1b]0;x\x07"


def _hostile(s: dict) -> None:
    s["algo"] = "ppo" + ESCAPES
    s["env"]["name"] = "mythic_baths_v1" + ESCAPES
    s["role"] = "player\nforged  line  here"


def test_ls_and_show_print_control_characters_escaped(reg: Registry, export: Path, tmp_path: Path) -> None:
    bad = forge(export, tmp_path / "bad.tar", spec=_hostile)
    assert cli("import", str(bad), "--registry", str(reg.path)).returncode == 0  # valid JSON values: it is stored as is
    ls = cli("ls", "--registry", str(reg.path))
    show = cli("show", "shipped", "--registry", str(reg.path))
    for out in (ls, show):
        assert out.returncode == 0, out.stderr
        assert not any(c in out.stdout for c in "\x1b\x07"), repr(out.stdout)
        assert "\\x1b[2J\\x1b]0;x\\x07" in out.stdout
        assert "player\\nforged" in out.stdout
    assert len(ls.stdout.strip().splitlines()) == 3  # header, rule, one row: no forged line
    assert not any(line.startswith("forged") for line in show.stdout.splitlines())


def test_an_error_naming_hostile_input_is_escaped(reg: Registry, kept) -> None:
    out = cli("show", "nope\x1b[2J\nforged", "--registry", str(reg.path))
    assert out.returncode == 2
    assert "\x1b" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
