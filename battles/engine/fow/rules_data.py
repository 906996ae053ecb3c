"""Flames of War rules data: every distance, die threshold and default as game data.

Distances are kept as the seed gives them, in inches AND centimetres
(``{"in": 16.0, "cm": 40.0}``); a battle measures in one of the two
(``battle_started.units``) and the engine compares with that one. Values from
the seeds carry their F- ID; ``PLACEHOLDERS`` have no seed basis (catalog
G-F1..G-F4); ``READINGS`` hold the catalog's ``reading:``.
"""
from __future__ import annotations

from typing import Any

DEFAULT_RULES: dict[str, Any] = {
    # F-DBL
    "double_enemy_min": {"in": 8.0, "cm": 20.0},  # F-DBL-3, F-DBL-6 (not closer than)
    "double_factor": 2,  # F-DBL-1 (and F-DBL-10: shooters roll twice the dice)
    "double_refused_when_pinned": "platoon",  # F-DBL-7 reading: every team of a Pinned Down platoon
    # F-DIG
    "pioneer_supply_distance": {"in": 2.0, "cm": 5.0},  # F-DIG-10 (within)
    # F-TRAIN (for the trains module)
    "train_move": {"in": 16.0, "cm": 40.0},  # F-TRAIN-19
    "train_escort_extra": {"in": 4.0, "cm": 10.0},  # F-TRAIN-25
    # F-BLD (for the buildings module)
    "infantry_move": {"in": 6.0, "cm": 15.0},  # F-BLD-11, F-BLD-17 (and G-F1 movement)
    # F-RECON (for the recon module)
    "recon_visible_limit": {"in": 16.0, "cm": 40.0},  # F-RECON-7, F-RECON-8, F-RECON-14
    "recon_enemy_min": {"in": 8.0, "cm": 20.0},  # F-RECON-4, F-RECON-9
    # G-F1 placeholders
    "skill_test_min": 4,  # the Skill test passes on 4+ (per-platoon ``skill`` prevails)
    "firepower_test_min": 4,
    "rof": {"stationary": 2, "moved": 1},  # dice per shooter (a team's own ``rof`` prevails)
    "movement": {  # by team kind, in both units (the seed's examples: infantry 6"/15 cm, tanks 12"/30 cm)
        "infantry": {"in": 6.0, "cm": 15.0},
        "gun": {"in": 6.0, "cm": 15.0},
        "tank": {"in": 12.0, "cm": 30.0},
        "vehicle": {"in": 12.0, "cm": 30.0},
        "train": {"in": 16.0, "cm": 40.0},
    },
    "die_sides": 6,  # G-F4
    # --- aircraft (F-AIR) ---
    "air_armour_facing": {"bombs": "top", "rockets": "top", "cannon": "side", "mg": "side"},  # F-AIR-2, F-AIR-3
    "air_save": {  # N+ on a d6 (G-F4) for teams other than armoured vehicles
        "unarmoured": 5,  # F-AIR-8
        "unarmoured_special": 3,  # F-AIR-9: Warrior, Independent, Reconnaissance (F-RECON-2)
        "infantry": 3,  # F-AIR-10
        "gun": 5,  # F-AIR-11
        "gun_gone_to_ground": 3,  # F-AIR-11
    },
    # --- recon (F-RECON) ---
    "recon_vehicle_save": 3,  # F-RECON-2: an unarmoured Reconnaissance vehicle saves on 3+
    "unarmoured_vehicle_save": 5,  # F-RECON-2 ("instead of the usual 5+"; cf. F-AIR-8)
}

PLACEHOLDERS: dict[str, str] = {
    "skill_test_min": "G-F1",
    "firepower_test_min": "G-F1",
    "rof": "G-F1",
    "movement": "G-F1",
    "die_sides": "G-F4",
}

READINGS: dict[str, str] = {
    "double_refused_when_pinned": "F-DBL-7: teams of a Pinned Down platoon cannot move At the Double",
    # --- aircraft (F-AIR) ---
    "air_save": "F-AIR-9: the 3+ save of Warrior, Independent and Reconnaissance teams is for unarmoured vehicles",
    # --- recon (F-RECON) ---
    "recon_visible_limit": "F-RECON-7, F-RECON-8, F-RECON-14: 'within 16\"/40 cm' includes exactly 16\"/40 cm (as the "
                           "body text L79-L80 says; the summary box's 'closer than' is read through it); a team in "
                           "sight beyond it may not come within it while in sight (F-RECON-14)",
    "recon_enemy_min": "F-RECON-4, F-RECON-9: 'not closer than 8\"/20 cm': exactly 8\"/20 cm is allowed; a team that "
                       "started closer may not get closer still",
    "recon_out_of_reach": "F-RECON-24: 'the whole platoon' moved out of reach only if every live team of it Disengaged",
}
