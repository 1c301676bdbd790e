"""Mythwind Innkeeper's Town Charter loader: typed, strict, closed, cached, and digested as before.

The format is the pydantic models of ``envs/mythwind_innkeeper/schema.py``; ``load_data`` reads a
file once per version (path, size, modification time) through the core ``DataFile``. The digest a
state's config records must never change for the same file.
"""

from __future__ import annotations

import copy
import json
import os

import pytest

from mythzoo.envs import mythwind_innkeeper_v5 as inn
from mythzoo.envs.mythwind_innkeeper.components import DEFAULT_DATA, InnDataError, load_data, parse_data

RAW = json.loads(DEFAULT_DATA.read_text())
DEFAULT_DIGEST = "d75bd7646a2beeea"  # recorded in every saved state's and checkpoint's config["data"]


def _broken(mutate) -> str:
    raw = copy.deepcopy(RAW)
    mutate(raw)
    with pytest.raises(InnDataError) as info:
        parse_data(raw, "charter.json")
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith("charter.json: ")
    return msg


def test_digest_of_the_default_file_is_unchanged_and_in_the_config() -> None:
    assert load_data().digest == DEFAULT_DIGEST
    assert inn.raw_env().config["data"] == DEFAULT_DIGEST
    # Key order and whitespace do not matter (canonical JSON); any value does.
    assert parse_data(json.loads(json.dumps(RAW, indent=3, sort_keys=False))).digest == DEFAULT_DIGEST


def test_envs_share_one_parse_and_an_edited_file_is_read_again(tmp_path) -> None:
    assert inn.raw_env().data is inn.raw_env().data is load_data(DEFAULT_DATA)
    p = tmp_path / "charter.json"
    p.write_text(json.dumps(RAW))
    first = load_data(p)
    assert load_data(p) is first and load_data(str(p)) is first
    raw = copy.deepcopy(RAW)
    raw["rules"]["starting_coins"] = 7
    p.write_text(json.dumps(raw))
    st = os.stat(p)
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # a new version even within one tick of the file clock
    second = load_data(p)
    assert second is not first and second.starting_coins == 7 and second.digest != first.digest


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda d: d["accommodations"][4].__setitem__("cost", True), r"accommodations\[4\]\.cost: .*integer"),
        (lambda d: d["guests"][0].__setitem__("level", 1.0), r"guests\[0\]\.level"),
        (lambda d: d["weather"]["deck"][2].__setitem__("event", 1), r"weather\.deck\[2\]\.event: .*boolean"),
        (lambda d: d["rules"].__setitem__("starting_coins", "10"), r"rules\.starting_coins"),
        (lambda d: d["skills"][0].__setitem__("name", 5), r"skills\[0\]\.name"),
    ],
    ids=["bool-as-int", "float-as-int", "int-as-bool", "text-as-int", "int-as-text"],
)
def test_strict_types(mutate, match: str) -> None:
    import re

    assert re.search(match, _broken(mutate))


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["guests"][5].__setitem__("colour", "red"), "guests[5].colour"),
        (lambda d: d["guests"][5]["requests"].__setitem__("drink", True), "guests[5].requests.drink"),
        (lambda d: d["rules"].__setitem__("starting_gold", 3), "rules.starting_gold"),
        (lambda d: d.__setitem__("guest", []), "guest"),
        (lambda d: d["worker_dice"].__setitem__("golem", {"count": 1, "faces": [1]}), "worker_dice.golem"),
    ],
)
def test_closed_objects_refuse_unknown_keys(mutate, where: str) -> None:
    assert f"{where}: unknown key" in _broken(mutate)


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d["renown_track"].__setitem__("party_min_slot", 10), "renown_track.party_min_slot"),
        (lambda d: d["renown_track"].__setitem__("levels", [1, 3, 2, 3, 3, 3, 3, 3, 3, 3]), "renown_track.levels"),
        (lambda d: d["rules"].__setitem__("skill_slots", 6), "rules.skill_slots"),  # one slot per Operate row at most
        (lambda d: d["rules"]["bag_by_renown_level"]["2"].__setitem__(1, 10), "rules.bag_by_renown_level.2[1]"),
        (lambda d: d["rules"]["bag_by_renown_level"].__setitem__("1", [0, 0, 0]), "rules.bag_by_renown_level.1"),
        (lambda d: d["rules"].__setitem__("starting_gossip_cards", 7), "rules.starting_gossip_cards"),
        (lambda d: d["guests"][7]["complaints"].append({"kind": "lose", "amount": 1}), "guests[7].complaints[0]"),
        (lambda d: d["guests"][7]["complaints"].append({"kind": "coins", "amount": 1, "type": "bar"}), "guests[7].complaints[0]"),
        (lambda d: d["guests"][7]["complaints"].extend([{"kind": "coins", "amount": 1}] * 11), "guests[7].complaints"),
        (lambda d: d["guests"][7]["requests"].__setitem__("services", ["drink", "drink"]), "guests[7].requests.services"),
        (lambda d: d["guests"][2].__setitem__("id", 7), "guests"),
        (lambda d: d["seasons"].clear(), "seasons"),
    ],
)
def test_ranges_and_cross_field_rules_name_the_field(mutate, where: str) -> None:
    assert _broken(mutate).startswith(f"charter.json: {where}")


def test_every_problem_is_counted_on_one_line() -> None:
    msg = _broken(lambda d: [d["accommodations"][i].__setitem__("cost", -1) for i in range(3)])
    assert "accommodations[0].cost" in msg and "(and 2 more problems)" in msg


def test_the_optional_notes_and_a_missing_season_text() -> None:
    raw = copy.deepcopy(RAW)
    for key in ("name", "version", "notes"):
        raw.pop(key, None)
    raw["seasons"][0].pop("text")
    data = parse_data(raw)
    assert data.seasons[0].text == "" and data.seasons[1].text == RAW["seasons"][1]["text"]
