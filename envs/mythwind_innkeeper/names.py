"""The names the Innkeeper journal prints, in their printed order: the vocabulary shared by the
data file (``schema``), the engine's tables (``components``), the action table and the observation.

A leaf module (it imports nothing of the game), so each of those can use it without a cycle.
"""

from __future__ import annotations

# "Innkeeper Journal: Components", "Basic Concepts", "Skill Index".
FURNITURE = ("window", "door", "table", "bar", "fireplace")
SERVICES = ("kitchen", "drink", "food", "stage", "music", "play")
ACC_TYPES = FURNITURE + SERVICES
STYLES = ("cultured", "imperial", "frontier")
WEATHER_TYPES = ("sunny", "cloudy", "rainy")
ALIGNMENTS = ("sprite", "villager")
DIE_TYPES = ("sprite", "villager")
SKILL_KEYS = (
    "musical_ear", "waxed_furniture", "rumormonger", "quartermaster",
    "waiting_list", "entertainer", "patron",
    "worker_encouragement", "favorite", "charming",
)
SKILL_LEVELS = (1, 1, 1, 1, 2, 2, 2, 3, 3, 3)
COMPLAINT_KINDS = ("coins", "renown", "lose", "draw")
EFFECT_KINDS = ("coins", "renown", "party")
PRINTED_COUNTS = {"guests": 30, "guests_by_level": (12, 9, 9), "accommodations": 29, "gossip_cards": 6, "skills": 10}
# The Operate rows of the character tray, top to bottom (a skill slot sits in each).
OPERATE = ("pamper", "improve", "serve", "mingle", "party")
NUM_ROWS = len(OPERATE)
