"""The latest entries of each battle's log and the names its musters gave,
kept by this process for the battle page and its live answers.

The log is append-only (no row is ever changed or deleted), so rows read
once stay true: a reader at head seq N that this process has already served
at N costs no query, and one at a later head costs one query for the rows
after the last one held. Only what the rows say is kept; what depends on
the replay (outcomes, which entries are voided) is read fresh each time.
The recorder's user name is the one he had when the row was first read."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from battles.models import BattleEvent, BattleParticipant
from config import rows

KEEP = 200  # rows kept per battle: the page shows 50, a live answer a few
BATTLES = 256  # battles kept per process, the least recently used dropped


@dataclass
class Tail:
    head: int = 0  # the last seq read
    rows: list[BattleEvent] = field(default_factory=list)  # the latest rows, up to ``head``, in seq order
    mustered: dict[str, str] = field(default_factory=dict)  # names from every ``force_mustered`` up to ``head``


_TAILS: OrderedDict[int, Tail] = OrderedDict()
_LOCK = threading.Lock()


def clear() -> None:
    with _LOCK:
        _TAILS.clear()


def muster_names(data: dict[str, Any], into: dict[str, str]) -> None:
    """Add the display names a ``force_mustered`` payload gives (units, fighters, vehicles, FoW platoons
    and their teams) to ``into``, by id."""
    for group in ("units", "fighters", "vehicles", "platoons"):
        for spec in data.get(group) or ():
            if spec.get("name"):
                into[spec["id"]] = spec["name"]
            for team in spec.get("teams") or () if group == "platoons" else ():  # FoW: teams in platoons
                if team.get("name"):
                    into[team["id"]] = team["name"]


def tail(*, battle_id: int, head: int) -> Tail:
    """The battle's log up to seq ``head`` (its latest ``KEEP`` rows and its
    muster names): no query when this process holds it at ``head``, else the
    rows after what it holds (or all of it, the first time)."""
    with _LOCK:
        held = _TAILS.get(battle_id)
        if held is not None:
            _TAILS.move_to_end(battle_id)
    if held is not None and held.head == head:
        return held
    if held is None or held.head > head or head - held.head > KEEP:  # read afresh: the musters and the tail
        new = _rows(f"a.{_q('battle_id')} = %s AND a.{_q('seq')} <= %s "
                    f"AND (a.{_q('type')} = %s OR a.{_q('seq')} > %s)", [battle_id, head, "force_mustered", head - KEEP])
        mustered: dict[str, str] = {}
        for e in new:
            if e.type == "force_mustered":
                muster_names(e.data, mustered)
        fresh = Tail(head, [e for e in new if e.seq > head - KEEP], mustered)
    else:  # the rows after the last held
        new = _rows(f"a.{_q('battle_id')} = %s AND a.{_q('seq')} > %s AND a.{_q('seq')} <= %s",
                    [battle_id, held.head, head])
        mustered = dict(held.mustered)
        for e in new:
            if e.type == "force_mustered":
                muster_names(e.data, mustered)
        fresh = Tail(head, (held.rows + new)[-KEEP:], mustered)
    with _LOCK:
        now = _TAILS.get(battle_id)
        if now is None or now.head <= fresh.head:  # never replace a later tail with an earlier one
            _TAILS[battle_id] = fresh
            _TAILS.move_to_end(battle_id)
        while len(_TAILS) > BATTLES:
            _TAILS.popitem(last=False)
    return fresh


def _q(field_name: str) -> str:
    return connection.ops.quote_name(BattleEvent._meta.get_field(field_name).column)


def _rows(where: str, params: list[Any]) -> list[BattleEvent]:
    """The log rows ``where`` selects, in seq order, each with its recorder: one plain query
    (``config.rows``; the ORM compiled it anew for the first reader of each new entry)."""
    return rows.select_with_parent(BattleEvent, "recorded_by", f"{where} ORDER BY a.{_q('seq')}", params)


def participants(battle_id: int) -> list[tuple[str, int, int, str, str]]:
    """(side, character, its owner, player key, the character's name) of each of the battle's
    participants, in the order they joined, read fresh (the game master may still add one). One
    plain query, without the ORM's compiling of it: every request of a battle's page asks, twice
    (who the reader is at the table, and the names), and the compiling was most of its cost."""
    bp = BattleParticipant._meta
    character = bp.get_field("character").related_model._meta
    name = connection.ops.quote_name

    def q(meta: Any, field_name: str) -> str:
        return name(meta.get_field(field_name).column)

    with connection.cursor() as cur:
        cur.execute(f"SELECT p.{q(bp, 'side')}, p.{q(bp, 'character')}, c.{q(character, 'owner')}, "
                    f"p.{q(bp, 'player')}, c.{q(character, 'name')} "
                    f"FROM {name(bp.db_table)} p JOIN {name(character.db_table)} c "
                    f"ON c.{q(character, 'id')} = p.{q(bp, 'character')} "
                    f"WHERE p.{q(bp, 'battle')} = %s ORDER BY p.{q(bp, 'id')}", [battle_id])
        return cur.fetchall()


def names(*, battle_id: int, head: int, seats: Sequence[tuple[str, int, int, str, str]] | None = None) -> dict[str, str]:
    """``selectors.battle_names`` at ``head``: the players by their characters
    (read fresh: the game master may still add one; ``seats``: as this request
    read them already, ``access.battle_role``), then the muster names."""
    rows = participants(battle_id) if seats is None else seats
    out: dict[str, str] = {player: character for _, _, _, player, character in rows if player}
    out.update(tail(battle_id=battle_id, head=head).mustered)
    return out


def page(*, battle_id: int, head: int, limit: int) -> list[BattleEvent]:
    """The latest ``limit`` entries up to ``head``, in seq order."""
    return tail(battle_id=battle_id, head=head).rows[-limit:]
