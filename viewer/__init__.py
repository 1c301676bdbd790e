"""The browser viewer (``mythzoo view``): recorded games stepped frame by frame and live games
against policies, drawn from each game's view model (``envs/<game>/view.py``) by a page with no
build step and no outside resources (``static/``), served on 127.0.0.1 by :mod:`.server`."""

from mythzoo.viewer.server import ViewerServer
from mythzoo.viewer.session import LiveSession, ReplaySession, Session, ViewerError, view_module

__all__ = ["LiveSession", "ReplaySession", "Session", "ViewerError", "ViewerServer", "view_module"]
