"""Rosters (issue 4): game data the game master edits, rosters, and their validation.

- ``models``: game data (``RosterRules`` with budgets, limits and the catalog's
  readings; infantry/armour/gun classes, vehicle options, upgrade cards; every
  gap default flagged ``is_placeholder``), ``GameDataVersion``, and rosters
  (``Roster`` > ``Unit`` tree, ``Vehicle``, ``Fighter`` lines).
- ``domain``: pure-Python pricing and validation of every ``roster`` rule.
- ``selectors``: ``roster_validate``, ``roster_page``, ``roster_export`` ... at fixed query counts.
- ``services``: every write (create, parts, submit, lock, duplicate, import).
- ``api`` (``/api/rosters/...``, ``/api/game-data/``), ``views`` (``/rosters/...``), ``admin``.
- ``bench``: the figures ``make bench`` reports.
"""
