"""docs/viewer.md works as written: its Python block runs, and every command of its ``sh`` block
runs in a fresh folder, in order (each ``mythzoo view`` with ``--no-browser``: it must print its
address, serve the game, and a live game's record is saved through the API for the next line)."""

from __future__ import annotations

import http.client
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "viewer.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(DOC.read_text()) if lang == language]


def test_the_readme_links_the_page_and_its_python_block_runs() -> None:
    assert "(docs/viewer.md)" in (ROOT / "README.md").read_text()
    (code,) = blocks("python")
    exec(compile(code, "docs/viewer.md python block", "exec"), {"__name__": "viewer_doc"})


def _call(port: int, method: str, path: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request(method, path, body=b"{}" if method == "POST" else None, headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    body = json.loads(r.read())
    assert r.status == 200, body
    return body


@pytest.mark.slow
def test_every_command_runs_as_written(tmp_path: Path) -> None:
    (commands,) = blocks("sh")
    lines = [line for line in commands.splitlines() if line.startswith("mythzoo ")]
    assert sum(line.startswith("mythzoo view") for line in lines) >= 5
    for line in lines:
        argv = [sys.executable, "-m", "mythzoo", *shlex.split(line)[1:]]
        if argv[3] != "view":
            done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, (line, done.stderr[-2000:])
            continue
        with subprocess.Popen([*argv, "--no-browser"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
            try:
                first = proc.stdout.readline()
                m = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
                assert m, (line, first, proc.stderr.read() if proc.poll() is not None else "")
                port = int(m.group(1))
                meta = _call(port, "GET", "/api/game")
                assert meta["frames"] >= 1 and _call(port, "GET", "/api/frame?i=0")["view"]["game"] == meta["game"]
                if meta["mode"] == "live" and "--save" in line:
                    _call(port, "POST", "/api/save")
            finally:
                proc.terminate()
                proc.wait(timeout=30)
