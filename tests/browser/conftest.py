"""The browser tests' browser: headless Chromium from the system's packages (Debian's ``chromium``
and ``chromium-driver``), driven by Selenium with those executables (nothing is downloaded).

Without Chromium, its driver or Selenium the tests skip, saying what to install, unless
``MYTHZOO_BROWSER=required`` (``make test-browser`` sets it, and so CI), where they fail.
``MYTHZOO_SCREENSHOTS=DIR`` keeps the screenshots the tests take in DIR.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browser_util import wait_for
from mythzoo.viewer import ViewerServer

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
DRIVERS = ("chromedriver",)
DRIVER_PATHS = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.browser)


def _which(names: tuple[str, ...], paths: tuple[str, ...] = ()) -> str | None:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return next((p for p in paths if os.path.exists(p)), None)


def _missing(what: str) -> None:
    message = f"browser tests need {what} (make test-browser installs it)"
    if os.environ.get("MYTHZOO_BROWSER") == "required":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def driver() -> Iterator[Any]:
    """One headless Chromium for the session (1400x1000)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("Selenium (pip install -c constraints.txt -e '.[browser]')")
    browser, chromedriver = _which(BROWSERS), _which(DRIVERS, DRIVER_PATHS)
    if browser is None:
        _missing("Chromium (apt-get install chromium)")
    if chromedriver is None:
        _missing("ChromeDriver (apt-get install chromium-driver)")
    options = Options()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
                "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    d = webdriver.Chrome(options=options, service=Service(chromedriver))
    d.set_page_load_timeout(60)
    yield d
    d.quit()


@pytest.fixture
def open_page(driver: Any) -> Iterator[Callable[..., ViewerServer]]:
    """``open_page(session, query="")``: serve the session, load its page, wait until it is drawn."""
    servers: list[ViewerServer] = []

    def open_(session: Any, query: str = "") -> ViewerServer:
        server = ViewerServer(session)
        server.start()
        servers.append(server)
        driver.get(server.url + query)
        wait_for(driver, lambda: driver.execute_script("return document.body.dataset.ready") == "1", "the page to draw")
        return server

    yield open_
    for s in servers:
        s.stop()


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where screenshots go: ``MYTHZOO_SCREENSHOTS`` if set, else the test's tmp folder."""
    folder = Path(os.environ.get("MYTHZOO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
