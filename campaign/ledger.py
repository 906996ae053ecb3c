"""The campaign log folded into what the pages show: pure functions, no ORM.

``fold`` takes campaign events (as ``Entry`` tuples, oldest first) and returns
the campaign view: each side's record, who holds each objective and since
when, progress battle by battle, and one row per character. The stored
projections (``Standing``, ``CampaignProjection``) are this fold written
down; "as of battle N" is the same fold over the events up to battle N.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

RANKS = ("corporal", "sergeant", "lieutenant", "captain")
# V-PP-1…5 budgets by rank and the V-PP-6 attacker bonus; the rosters' game
# data may override them (passed in as ``budgets``).
DEFAULT_BUDGETS = {"corporal": 8, "sergeant": 16, "lieutenant": 45, "captain": 80, "attacker_bonus": 40}


@dataclass(frozen=True, slots=True)
class Entry:
    id: int
    type: str
    data: Mapping[str, Any]
    character_id: int | None
    battle_id: int | None
    battle_number: int


@dataclass(slots=True)
class Row:
    character_id: int
    side: str = ""
    rank: str = "corporal"
    awards: int = 0
    battles: int = 0
    kills: int = 0
    casualties: int = 0
    prestige: int = 0


@dataclass(slots=True)
class View:
    last_event_id: int = 0
    sides: dict[str, dict[str, int]] = field(default_factory=lambda: {
        s: {"played": 0, "won": 0, "lost": 0, "drawn": 0, "objectives": 0} for s in ("attacker", "defender")})
    objectives: dict[str, dict[str, Any]] = field(default_factory=dict)
    progress: list[dict[str, Any]] = field(default_factory=list)
    rows: dict[int, Row] = field(default_factory=dict)

    @classmethod
    def from_json(cls, last_event_id: int, data: Mapping[str, Any] | None) -> View:
        view = cls()
        if data:
            view.sides, view.objectives, view.progress = data["sides"], data["objectives"], data["progress"]
            view.last_event_id = last_event_id
        return view

    def as_json(self) -> dict[str, Any]:
        return {"last_event_id": self.last_event_id, "sides": self.sides, "objectives": self.objectives,
                "progress": self.progress}


def prestige(rank: str, side: str, budgets: Mapping[str, int] = DEFAULT_BUDGETS) -> int:
    """V-PP: the budget of a character's rank, +40 on the attacking side (V-PP-6)."""
    return budgets.get(rank, 0) + (budgets.get("attacker_bonus", 0) if side == "attacker" else 0)


def _row(view: View, character_id: int) -> Row:
    row = view.rows.get(character_id)
    if row is None:
        row = view.rows[character_id] = Row(character_id)
    return row


def apply(view: View, e: Entry, budgets: Mapping[str, int] = DEFAULT_BUDGETS) -> None:
    """Apply one event. Unknown types change nothing (old readers stay valid)."""
    view.last_event_id = e.id
    d = e.data
    if e.type == "member_joined" and e.character_id is not None:
        row = _row(view, e.character_id)
        row.rank = d.get("rank", row.rank)
        row.side = d.get("side", row.side) or row.side
    elif e.type == "side_assigned" and e.character_id is not None:
        _row(view, e.character_id).side = d["side"]
    elif e.type == "promotion" and e.character_id is not None:
        _row(view, e.character_id).rank = d["to"]
    elif e.type == "award_granted" and e.character_id is not None:
        _row(view, e.character_id).awards += 1
    elif e.type == "battle_fought" and e.character_id is not None:
        row = _row(view, e.character_id)
        row.battles += 1
        row.kills += int(d.get("kills", 0))
        row.casualties += int(d.get("casualties", 0))
    elif e.type == "battle_result":
        winner = d["winner"]
        for side in ("attacker", "defender"):
            rec = view.sides[side]
            rec["played"] += 1
            if winner == "draw":
                rec["drawn"] += 1
            elif winner == side:
                rec["won"] += 1
            else:
                rec["lost"] += 1
        view.progress.append({"battle": e.battle_id, "number": e.battle_number, "winner": winner,
                              "attacker_won": view.sides["attacker"]["won"],
                              "defender_won": view.sides["defender"]["won"]})
    elif e.type == "objective_changed":
        key = str(d["objective"])
        old = view.objectives.get(key, {}).get("holder", "")
        if old in view.sides:
            view.sides[old]["objectives"] -= 1
        holder = d.get("to", "")
        view.objectives[key] = {"holder": holder, "since_battle": e.battle_number, "event": e.id}
        if holder in view.sides:
            view.sides[holder]["objectives"] += 1
    for row in ([view.rows[e.character_id]] if e.character_id in view.rows else []):
        row.prestige = prestige(row.rank, row.side, budgets)


def fold(entries: Iterable[Entry], view: View | None = None,
         budgets: Mapping[str, int] = DEFAULT_BUDGETS) -> View:
    view = view or View()
    for e in entries:
        apply(view, e, budgets)
    return view
