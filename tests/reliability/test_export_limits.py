"""An export never writes a file that an import would refuse for its size: it is refused in one line first."""

from __future__ import annotations

from pathlib import Path

from mythzoo.policies.registry import Registry
from mythzoo.policies.registry import archive
from mythzoo.policies.registry.cli import main as registry_main

from .helpers import save


def test_an_export_past_the_import_limits_is_refused_and_writes_nothing(reg: Registry, env_spec, tmp_path: Path, monkeypatch, capsys) -> None:
    info = save(reg, env_spec)
    monkeypatch.setattr(archive, "MAX_WEIGHTS_BYTES", info.weights_bytes - 1)
    out = tmp_path / "big.tar"
    assert registry_main(["export", info.ref, str(out), "--registry", str(reg.path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "more than the" in err[0] and "an import accepts" in err[0]
    assert not list(tmp_path.glob("*big.tar*"))
    monkeypatch.undo()
    assert registry_main(["export", info.ref, str(out), "--registry", str(reg.path)]) == 0
    assert Registry(tmp_path / "other").import_(out)[0].id == info.id
