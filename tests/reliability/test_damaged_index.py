"""A damaged or foreign index file is refused in one line by every command, and left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythzoo.policies.registry import Registry

from .helpers import assert_one_line_error, cli


@pytest.mark.parametrize("args", [["ls"], ["show", "kept"], ["verify"], ["verify", "--clean", "--grace", "0"], ["rm", "kept"]], ids=" ".join)
def test_a_damaged_index_is_a_one_line_error(args, reg: Registry, kept) -> None:
    reg.index_path.write_bytes(b"this is not an SQLite database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(reg.index_path) + suffix).unlink(missing_ok=True)
    data = reg.index_path.read_bytes()
    assert_one_line_error(cli(*args, "--registry", str(reg.path)), "index.sqlite", "not a database")
    assert reg.index_path.read_bytes() == data
    assert (reg.checkpoint_dir(kept.id) / "spec.json").is_file()
