"""The recon table (platoons, ``tb``, ``cm``) the recon behaviour files share (split out of test_recon.py, issue 26)."""
from __future__ import annotations

from .table import Table, team

RECON_A = {"id": "RA", "kind": "recon", "teams": [team("ra1"), team("raj", "vehicle"), team("rac", "tank", armoured=True)]}


RECON_A2 = {"id": "RA2", "kind": "recon", "teams": [team("rb1")]}


OTHER_A = {"id": "A1", "kind": "infantry", "teams": [team("a1"), team("a2"), team("obs", observer=True),
                                                     team("truck", "vehicle")]}


# the defender: a mixed platoon with scouts and one non-recon team, plus plain infantry, an Independent and a Warrior
SCOUTS_D = {"id": "DR", "kind": "other", "teams": [team("dr1", recon=True), team("drj", "vehicle", recon=True),
                                                   team("drx")]}


LONE_D = {"id": "DL", "kind": "recon", "teams": [team("dl1")]}


PLAIN_D = {"id": "D1", "kind": "infantry", "teams": [team("d1"), team("d2"), team("dw", warrior=True)]}


HQ_D = {"id": "DI", "kind": "independent", "teams": [team("di")]}


def tb(units: str = "in", first: str = "attacker") -> Table:
    return Table(units=units, first=first, platoons_a=(RECON_A, RECON_A2, OTHER_A),
                 platoons_d=(SCOUTS_D, LONE_D, PLAIN_D, HQ_D))


def cm(units: str, inches: float) -> float:
    return inches if units == "in" else inches * 2.5


def rmove(tid: str, dist: float = 1, *enemies: dict, **kw) -> tuple[str, dict]:
    return ("recon_deployment_move", {"team": tid, "distance": dist, "enemies": list(enemies), **kw})


def deploying(units: str = "in", first: str = "attacker") -> Table:
    t = tb(units)
    t.add(("recon_deployment_started", {"first": first}))
    return t
