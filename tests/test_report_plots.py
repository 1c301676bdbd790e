"""What the evaluation plots say: readable titles, and each overall rate with its split by opponent."""

from __future__ import annotations

from pathlib import Path

import pytest

from mythzoo.evaluation.report import _ink, _wrap, format_env_kwargs, opponent_split


def test_env_kwargs_read_as_words_in_titles() -> None:
    assert format_env_kwargs({"num_heroes": 2}) == "2 heroes"
    assert format_env_kwargs({"num_heroes": 1}) == "1 hero"
    assert format_env_kwargs({"num_players": 3, "reward_mode": "dense"}) == "3 players, reward_mode=dense"
    assert format_env_kwargs({}) == "" and format_env_kwargs(None) == ""


def test_long_labels_wrap_and_heatmap_text_contrasts() -> None:
    from matplotlib.colors import Normalize
    from matplotlib.pyplot import get_cmap

    assert all(len(line) <= 18 for line in _wrap("invoker:mythsgate_v2-ppo-invoker@best").splitlines())
    cmap, norm = get_cmap("RdBu"), Normalize(0, 1)
    assert _ink(cmap, norm, 0.0) == "white" and _ink(cmap, norm, 1.0) == "white" and _ink(cmap, norm, 0.5) == "black"


def test_a_policys_rate_is_shown_with_its_split_by_opponent(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from mythzoo.evaluation import tournament

    sym = tournament("mythic_baths", ["random", "heuristic"], games=8, num_players=2, workers=1, seed=0, progress=False)
    split = opponent_split(sym, "heuristic")
    assert [(o, g) for o, _, g in split] == [("random", 8)]
    assert split[0][1] == pytest.approx(sym.cross_play[sym.labels.index("heuristic")][sym.labels.index("random")])
    roles = tournament("mythsgate", ["invoker:random", "invoker:heuristic", "hero:random", "hero:heuristic"], games=4, num_players=3,
                       workers=1, seed=0, progress=False)
    split = opponent_split(roles, "invoker:heuristic")
    assert sorted(o for o, _, _ in split) == ["hero:heuristic", "hero:random"]
    texts: list[str] = []
    import matplotlib.figure

    save = matplotlib.figure.Figure.savefig

    def grab(fig, *a, **kw):  # the text drawn on the figure, suptitle included
        texts.extend(t.get_text() for t in fig.findobj(matplotlib.text.Text))
        return save(fig, *a, **kw)

    matplotlib.figure.Figure.savefig = grab  # type: ignore[method-assign]
    try:
        roles.plot(tmp_path / "roles.png")
        sym.plot(tmp_path / "sym.png")
    finally:
        matplotlib.figure.Figure.savefig = save  # type: ignore[method-assign]
    assert any("(2 heroes)" in t for t in texts) and not any("{'num_heroes'" in t for t in texts)
    assert any("vs hero:random" in t for t in texts) and any("vs random" in t for t in texts)
    assert (tmp_path / "roles.png").stat().st_size > 0 and (tmp_path / "sym.png").stat().st_size > 0
