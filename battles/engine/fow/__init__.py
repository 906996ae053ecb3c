"""The Flames of War ruleset (seeds 000, 001, 004; catalog F- rows).

Its own event registry (``REGISTRY``), state (``FowState``), rules data
(``DEFAULT_RULES``: distances in inches and centimetres) and recorder policy
(``POLICY``), side by side with v11.2 and sharing the log, the fold, dice
provenance (a d6 here, G-F4), corrections and the refusal shape. See
README.md beside this file for adding a rule area.
"""
from . import effects as _effects  # noqa: F401  (the log's outcomes read FoW dice and trains)
from . import rules as _rules  # noqa: F401  (registers the FoW event types)
from .registry import OFF_TURN, POLICY, REGISTRY
from .rules_data import DEFAULT_RULES, PLACEHOLDERS, READINGS
from .state import FowState

ENGINE_VERSION = 9  # bump when replay of the same FoW log would give a different state (or outcomes)

__all__ = ["OFF_TURN", "DEFAULT_RULES", "ENGINE_VERSION", "PLACEHOLDERS", "POLICY", "READINGS", "REGISTRY", "FowState"]
