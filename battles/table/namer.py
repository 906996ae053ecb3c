"""How the table names things for one reader. ``Namer`` calls every piece by
its roster name (with its class or rank; a FoW team with its platoon), every
side by the campaign's name, and puts terrain, mines, smoke, distances and
dice into words; ``inches`` writes a distance, ``cite`` the catalog rules a
sentence ends with. The log's sentences (``report``, ``report_fow``), the
board, the recording panel and Flames of War's quick panel all name through
it, so a piece reads the same everywhere.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from battles.engine.terms import lang_of, term


def inches(v: Any) -> str:
    """A distance in inches: 5″, 2.5″."""
    try:
        return f"{float(v):g}″"
    except (TypeError, ValueError):
        return "?″"


class Namer:
    """Names of everything on the table for one reader: the roster's names
    (``battle_names``) with the class or rank, the campaign's side names, and
    readable labels for terrain, mines and smoke."""

    def __init__(self, names: dict[str, str] | None, state: dict[str, Any], language: str = "ru",
                 sides: dict[str, str] | None = None) -> None:
        self.names = names or {}
        self.state = state or {}
        self.lang = lang_of(language)
        self.sides = {k: v for k, v in (sides or {}).items() if v}

    def t(self, ru: str, en: str) -> str:
        return ru if self.lang == "ru" else en

    def side(self, side: Any) -> str:
        if side in self.sides:
            return self.sides[side]
        return term("side", side, self.lang) or self.t("неизвестная сторона", "an unknown side")

    def fighter(self, fid: Any, *, with_unit: bool = True) -> str:
        fid = str(fid or "")
        f = (self.state.get("fighters") or {}).get(fid) or {}
        role = term("rank", f.get("rank"), self.lang) or term("cls", f.get("cls"), self.lang)
        name = self.names.get(fid)
        if name:
            # A named officer's name carries his nation's rank word already («Младший сержант №1»).
            named = f"{name} ({role})" if role and not f.get("rank") and role.lower() not in name.lower() else name
            unit = self._unit_of(fid) if with_unit else ""
            return f"{named}, {unit}" if unit else named  # both sides have a «Стрелок №1» (issue 25)
        return f"{role or self.t('боец', 'fighter')} {fid}".strip()

    def _unit_of(self, fid: str) -> str:
        """The roster name of the fighter's unit, when his own name does not say it already."""
        f = (self.state.get("fighters") or {}).get(fid) or {}
        unit = self.names.get(f.get("unit") or "", "")
        return unit if unit and unit not in self.names.get(fid, "") else ""

    def fighters(self, ids: Iterable[Any]) -> str:
        """Fighters named once each, their unit once after those of it: «Сержант №1, Стрелок №1
        (1-е отделение)»."""
        groups: list[tuple[str, list[str]]] = []
        for fid in ids or ():
            unit = self._unit_of(str(fid))
            if not groups or groups[-1][0] != unit:
                groups.append((unit, []))
            groups[-1][1].append(self.fighter(fid, with_unit=False))
        parts = [", ".join(names) + (f" ({unit})" if unit else "") for unit, names in groups]
        return ", ".join(parts) if parts else self.t("никого", "no one")

    def vehicle(self, vid: Any) -> str:
        vid = str(vid or "")
        v = (self.state.get("vehicles") or {}).get(vid) or {}
        name = self.names.get(vid)
        kind = term("vehicle_kind", v.get("kind"), self.lang) or self.t("техника", "vehicle")
        return f"{name} ({kind})" if name else f"{kind} {vid}"

    def unit(self, uid: Any) -> str:
        uid = str(uid or "")
        u = (self.state.get("units") or {}).get(uid) or {}
        name = self.names.get(uid)
        return name or f"{term('unit_kind', u.get('kind') or 'squad', self.lang)} {uid}"

    def mine(self, mid: Any) -> str:
        mid = str(mid or "")
        m = (self.state.get("mines") or {}).get(mid) or {}
        return f"{term('mine_kind', m.get('kind'), self.lang) or self.t('мина', 'mine')} {mid}"

    def thing(self, oid: Any) -> str:
        """Anything on the table by id: a fighter, vehicle, unit, house,
        pillbox, wire, mine or smoke screen."""
        oid = str(oid or "")
        s = self.state
        if oid in (s.get("fighters") or {}):
            return self.fighter(oid)
        if oid in (s.get("vehicles") or {}):
            return self.vehicle(oid)
        if oid in (s.get("units") or {}):
            return self.unit(oid)
        if oid in (s.get("buildings") or {}):
            return self.t(f"дом {oid}", f"house {oid}")
        if oid in (s.get("bunkers") or {}):
            return self.t(f"ДОТ {oid}", f"pillbox {oid}")
        if oid in (s.get("wire") or {}):
            fence = (s["wire"][oid] or {}).get("kind") == "fence"
            return self.t(f"забор {oid}", f"fence {oid}") if fence else self.t(f"проволока {oid}", f"wire {oid}")
        if oid in (s.get("mines") or {}):
            return self.mine(oid)
        if oid in (s.get("smoke") or {}):
            return self.t(f"дымовая завеса {oid}", f"smoke screen {oid}")
        return self.names.get(oid) or self.t(f"объект {oid}", f"object {oid}")

    def many(self, ids: Iterable[Any], how: Callable[[Any], str] | None = None) -> str:
        if how == self.fighter:
            return self.fighters(ids)
        how = how or self.thing
        items = [how(i) for i in ids or ()]
        return ", ".join(items) if items else self.t("никого", "no one")

    # Flames of War: teams and platoons, named by the roster (a team with its platoon: both sides have a
    # «Средний танк №1») and otherwise by their kind, never «отделение» for a tank.
    def team(self, tid: Any) -> str:
        tid = str(tid or "")
        t = (self.state.get("teams") or {}).get(tid) or {}
        name = self.names.get(tid) or f"{term('fow_team_kind', t.get('kind') or 'infantry', self.lang)} {tid}"
        platoon = self.names.get(t.get("platoon") or "", "")
        return f"{name}, {platoon}" if platoon and platoon not in name else name

    def platoon(self, pid: Any) -> str:
        pid = str(pid or "")
        p = (self.state.get("platoons") or {}).get(pid) or {}
        return self.names.get(pid) or f"{term('fow_platoon_kind', p.get('kind') or 'other', self.lang)} {pid}"

    def piece(self, oid: Any) -> str:
        """A FoW team or platoon by id."""
        if str(oid or "") in (self.state.get("platoons") or {}) and str(oid) not in (self.state.get("teams") or {}):
            return self.platoon(oid)
        return self.team(oid)

    def dist(self, v: Any) -> str:
        """A distance in the FoW battle's units (inches or centimetres, ``battle_started.units``)."""
        if self.state.get("measure") != "cm":
            return inches(v)
        try:
            return f"{float(v):g}" + self.t(" см", " cm")
        except (TypeError, ValueError):
            return "?" + self.t(" см", " cm")

    def dice(self, dice: Any) -> str:
        """d6s with their provenance: «с кубиков за столом 5, 2», «броски сервиса 6, 1»."""
        dice = [x for x in dice or () if isinstance(x, dict) and "value" in x]
        if not dice:
            return self.t("кубики не указаны", "no dice given")
        rolled = [str(x["value"]) for x in dice if x.get("source") == "rolled"]
        entered = [str(x["value"]) for x in dice if x.get("source") != "rolled"]
        parts = []
        if entered:
            parts.append(self.t(f"с кубиков за столом {', '.join(entered)}", f"table dice {', '.join(entered)}"))
        if rolled:
            parts.append(self.t(f"броски сервиса {', '.join(rolled)}", f"service rolls {', '.join(rolled)}"))
        return "; ".join(parts)

    def die(self, d: Any) -> str:
        """A d20 with its provenance (dice are entered or rolled, never both)."""
        if not isinstance(d, dict) or "value" not in d:
            return self.t("бросок не указан", "no roll given")
        if d.get("source") == "rolled":
            return self.t(f"бросок сервиса {d['value']}", f"service roll {d['value']}")
        return self.t(f"с кубика за столом {d['value']}", f"table die {d['value']}")


def cite(*ids: str) -> str:
    """The catalog rules a sentence ends with: `` (V-TURN-11, G-2)``."""
    return f" ({', '.join(ids)})"
