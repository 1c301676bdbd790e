"""The viewer's page in a real (headless) browser: each game's replay drawn, stepped, jumped and seen
from another seat; a screenshot that is not blank; a live game played to its end by clicking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from browser.browser_util import wait_for
from mythzoo.evaluation import load_records
from mythzoo.evaluation.play import play_game
from mythzoo.viewer import LiveSession, ReplaySession

GAMES = {  # game -> (players, refs, the board elements the drawing must hold: CSS selector -> count)
    "mythic_baths": (3, ["heuristic", "heuristic", "random"], {"g.bath": 5, "g.supply": 5, "g.player": 3}),
    "mythsgate": (3, ["heuristic", "heuristic", "heuristic"], {"g.space": 16, "line.bridge": 16, "g.hero-board": 2}),  # 4 bridges, 2 spaces to 2 each
    "mythwind_innkeeper": (None, ["heuristic"], {"g.slot": 25}),
}


def by_css(driver: Any, selector: str) -> list[Any]:
    return driver.find_elements("css selector", selector)


def frame(driver: Any) -> int:
    return int(driver.execute_script("return document.body.dataset.frame"))


def goto(driver: Any, button: str, expect: int) -> None:
    driver.find_element("id", button).click()
    wait_for(driver, lambda: frame(driver) == expect, f"frame {expect} after {button}")


def check_screenshot(driver: Any, path: Path) -> None:
    """Save a screenshot and check it shows a drawing: many colours, not one background."""
    driver.save_screenshot(str(path))
    img = Image.open(path).convert("RGB")
    assert img.size[0] >= 1000 and img.size[1] >= 700
    board = driver.find_element("css selector", "#board svg").rect
    crop = img.crop((int(board["x"]), int(board["y"]), int(board["x"] + board["width"]), int(min(board["y"] + board["height"], img.size[1]))))
    colours = crop.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 40, f"{path.name}: only {len(colours)} colours on the board"
    top = max(colours)[0] / (crop.size[0] * crop.size[1]) if colours else 0.0
    assert top < 0.8, f"{path.name}: {top:.0%} of the board is one colour"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_replay_is_drawn_stepped_and_seen_from_a_seat(game: str, driver: Any, open_page: Any, screenshots: Path) -> None:
    players, refs, elements = GAMES[game]
    record = play_game(game, players, refs, seed=5)
    open_page(ReplaySession(record))
    assert driver.find_element("id", "title").text.startswith({"mythic_baths": "Mythic Baths", "mythsgate": "Mythsgate", "mythwind_innkeeper": "Mythwind"}[game])
    for selector, count in elements.items():
        assert len(by_css(driver, f"#board svg {selector}")) == count, selector
    assert len(by_css(driver, "#log > li")) == record.decisions
    assert frame(driver) == 0 and driver.find_element("id", "prev").get_attribute("disabled")
    for i in range(1, 4):
        goto(driver, "next", i)
    caption = driver.find_element("id", "caption").text
    assert " played " in caption and "to move" in caption
    assert "current" in by_css(driver, "#log > li")[2].get_attribute("class")
    goto(driver, "prev", 2)
    # Jump: a click in the log shows the position after that decision.
    by_css(driver, "#log > li")[40].click()
    wait_for(driver, lambda: frame(driver) == 41, "the jump to frame 41")
    check_screenshot(driver, screenshots / f"{game}.png")
    # Another seat's view (the page reloads the frame from that seat).
    seat = driver.find_element("id", "seat")
    options = [o.get_attribute("value") for o in seat.find_elements("css selector", "option")]
    assert options == ["all", *map(str, range(record.num_players))]
    seat.find_elements("css selector", "option")[-1].click()
    wait_for(driver, lambda: frame(driver) == 41 and driver.find_element("id", "status").text, "the seat's view")
    if game == "mythic_baths":  # the last seat's view: the other hands hidden
        assert sum("hand hidden" in p.text for p in by_css(driver, "#board svg g.player")) == record.num_players - 1
    goto(driver, "last", record.decisions)
    result = driver.find_element("id", "result")
    assert result.is_displayed() and "Game over" in result.text
    assert driver.find_element("id", "next").get_attribute("disabled")
    goto(driver, "first", 0)


def test_play_at_a_speed_runs_forward_and_stops(driver: Any, open_page: Any) -> None:
    record = play_game("mythic_baths", 2, ["random", "random"], seed=2)
    open_page(ReplaySession(record))
    driver.find_element("css selector", "#speed option[value='50']").click()
    driver.find_element("id", "play").click()
    wait_for(driver, lambda: frame(driver) >= 10, "the replay to play on")
    driver.find_element("id", "play").click()  # pause
    paused = frame(driver)
    wait_for(driver, lambda: frame(driver) == paused or frame(driver) == paused + 1, "the pause")
    assert frame(driver) < record.decisions


def test_a_live_game_is_played_to_the_end_by_clicking(driver: Any, open_page: Any, tmp_path: Path, screenshots: Path) -> None:
    save = tmp_path / "live.json"
    session = LiveSession("mythwind_innkeeper", [], None, 7, env_kwargs={"days_per_season": 2, "seasons": 1}, save=str(save))
    open_page(session)
    assert driver.find_element("id", "live").is_displayed()
    board_clicks = list_clicks = 0
    for _ in range(400):
        buttons = by_css(driver, "#actions button.action")
        if not buttons:
            break
        before = frame(driver)
        targets = by_css(driver, "#board svg .clickable")
        if targets and board_clicks < 5:  # on the board where the action points at one element
            targets[0].click()
            hinted = by_css(driver, "#actions button.hinted")
            if hinted:
                hinted[0].click()
            board_clicks += 1
        else:
            buttons[0].click()
            list_clicks += 1
        wait_for(driver, lambda: frame(driver) > before and driver.execute_script("return document.body.dataset.busy") == "0", "the move")
    assert board_clicks >= 3 and list_clicks
    wait_for(driver, lambda: driver.find_element("id", "result").is_displayed(), "the result")
    assert "Game over" in driver.find_element("id", "result").text
    assert "saved" in driver.find_element("id", "saved").text
    check_screenshot(driver, screenshots / "mythwind_innkeeper_live.png")
    (record,) = load_records(save)
    assert record.finished and record.refs == ["human"] and record.decisions == len(session.log)
    assert len(by_css(driver, "#log > li")) == record.decisions


def test_live_mythic_baths_shows_only_the_persons_hand_and_takes_a_board_click(driver: Any, open_page: Any, screenshots: Path) -> None:
    session = LiveSession("mythic_baths", ["heuristic", "heuristic"], 1, 3)
    open_page(session)
    assert [o.text for o in by_css(driver, "#seat option")] == ["player_1 (you)"]
    hands = [p.text for p in by_css(driver, "#board svg g.player")]
    assert sum("hand hidden" in h for h in hands) == 2
    supply = by_css(driver, "#board svg g.supply.clickable")
    assert supply, "the supply's cards are clickable on the first turn"
    before = len(session.log)
    supply[0].click()
    wait_for(driver, lambda: len(session.log) > before and driver.execute_script("return document.body.dataset.busy") == "0", "the move")
    assert session.log[before].label.startswith("gather_supply") and session.log[before].seat == 1
    check_screenshot(driver, screenshots / "mythic_baths_live.png")
