"""The battle's state as the page shows it: the turn, the side to move and the
phase; per side every unit with its posture and morale result and its
fighters by fate; vehicles with damage against the reserve, running gear,
crew, passengers and riders; houses, pillboxes, wire, smoke and the mines
this reader may know of. Built from the state already filtered for the
reader (``battles.engine.visibility.state_for``); every engine value is put
into words (``battles.engine.terms``), every id into a name (``namer.Namer``).
A Flames of War state is told in its own words (``fow``: platoons, teams,
Bailed Out, Destroyed, Pinned Down..., and the Step of the turn), rendered by
``_state_fow.html``."""
from __future__ import annotations

from typing import Any

from battles.engine.terms import lang_of, term

from .namer import Namer

FATES = ("alive", "wounded", "dead", "captured")
FATE_WORDS = {"ru": {"alive": "в строю", "wounded": "ранен", "dead": "убит", "captured": "в плену"},
              "en": {"alive": "fit", "wounded": "wounded", "dead": "killed", "captured": "captured"}}


def fate(f: dict[str, Any]) -> str:
    """Each fighter counted once: dead, then captured, then wounded."""
    if f.get("dead"):
        return "dead"
    if f.get("captured"):
        return "captured"
    if f.get("wounded"):
        return "wounded"
    return "alive"


def _fighter_row(f: dict[str, Any], n: Namer, lang: str) -> dict[str, Any]:
    fid = f["id"]
    role = term("rank", f.get("rank"), lang)
    cls = term("cls", f.get("cls"), lang)
    if role and f.get("cls") != "officer":
        role = f"{role}, {cls}"
    where = []
    if f.get("aboard"):
        where.append(f"{term('aboard', f.get('aboard_as'), lang) or n.t('в технике', 'aboard')}: "
                     f"{n.vehicle(f['aboard'])}")
    if f.get("building"):
        where.append(n.thing(f["building"]))
    if f.get("bunker"):
        where.append(n.thing(f["bunker"]))
    if f.get("posture"):
        where.append(term("posture", f["posture"], lang))
    state = fate(f)
    return {"id": fid, "name": n.names.get(fid) or f"{role or cls} {fid}", "role": role or cls, "fate": state,
            "fate_text": FATE_WORDS[lang][state], "where": ", ".join(where),
            "captor": n.side(f.get("captor_side")) if state == "captured" and f.get("captor_side") else ""}


# Flames of War: teams and platoons in the rulebook's words (battles.engine.terms, Russian with the English term).
TEAM_STATUSES = ("destroyed", "bailed_out", "bogged", "gone_to_ground", "dug_in", "concealed", "bulletproof_cover")
FOW_HEADINGS = {
    "ru": {"team": "Отделение или техника (team)", "kind": "Тип", "status": "Состояние", "platoon": "взвод (platoon)",
           "in_action": "в строю", "destroyed": "Уничтоженные (Destroyed)", "bailed_out": "Покинутые (Bailed Out)",
           "pinned": "взводы, Прижатые Огнём (Pinned Down)", "fit": "в строю", "locomotive": "Локомотив", "off_table": "вне стола", "on_table": "на столе", "left": "покинул стол",
           "reserve": "в Резерве", "along": "по Линии", "aboard": "на поезде", "inside": "в здании",
           # the battle report's table (battle_detail.html includes _report_fow.html)
           "side": "Сторона", "mustered": "Выставлено отделений и техники", "vehicles_lost": "Потеряно техники",
           "steps": "Шаги хода"},
    "en": {"team": "Team", "kind": "Type", "status": "Status", "platoon": "platoon", "in_action": "in action",
           "destroyed": "Destroyed", "bailed_out": "Bailed Out", "pinned": "platoons Pinned Down", "fit": "in action",
           "locomotive": "Locomotive", "off_table": "off the table", "on_table": "on the table",
           "left": "left the table", "reserve": "in Reserve", "along": "along the line", "aboard": "aboard the train",
           "inside": "inside", "side": "Side", "mustered": "Teams mustered", "vehicles_lost": "Vehicles lost",
           "steps": "Steps of the turn"},
}


def _fow_team_row(tid: str, t: dict[str, Any], p: dict[str, Any], n: Namer, lang: str) -> dict[str, Any]:
    words = FOW_HEADINGS[lang]
    kind = term("fow_team_kind", t.get("kind") or "infantry", lang)
    notes = [words["locomotive"]] if t.get("locomotive") else []
    statuses = [term("fow_status", s, lang) for s in TEAM_STATUSES if t.get(s)]
    if t.get("wreck"):
        statuses.append(term("fow_status", "wreck", lang))
    if t.get("building"):
        statuses.append(f"{words['inside']} «{_building_name(t['building'], n)}»")
    return {"id": tid, "name": n.names.get(tid) or f"{kind} {tid}", "kind": kind + (f" ({', '.join(notes)})" if notes else ""),
            "destroyed": bool(t.get("destroyed")), "bailed_out": bool(t.get("bailed_out")), "statuses": statuses}


def _building_name(bid: str, n: Namer) -> str:
    b = (n.state.get("buildings") or {}).get(bid) or {}
    return b.get("name") or n.names.get(bid) or bid


def _fow_train(pid: str, state: dict[str, Any], n: Namer, lang: str) -> str:
    """Where an armoured train is (F-TRAIN-14, F-TRAIN-18, F-TRAIN-22) and which escorts ride it (F-TRAIN-25)."""
    tr = (state.get("trains") or {}).get(pid)
    if not tr:
        return ""
    words = FOW_HEADINGS[lang]
    where = tr.get("where") or "off_table"
    text = words.get(where, words["off_table"])
    if where == "off_table" and tr.get("reserve"):
        text += f", {words['reserve']}"
    if where == "on_table":
        text += f", {n.dist(tr.get('position', 0))} {words['along']}"
        if tr.get("escorts_aboard"):
            text += f"; {words['aboard']}: " + ", ".join(n.platoon(e) for e in tr["escorts_aboard"])
    return text


def _fow_sides(state: dict[str, Any], n: Namer, lang: str) -> list[dict[str, Any]]:
    """A FoW state: per side its platoons with their teams, each team's statuses in the rulebook's words."""
    teams = state.get("teams") or {}
    out = []
    for side in ("defender", "attacker"):
        census = {"in_action": 0, "destroyed": 0, "bailed_out": 0, "pinned": 0}
        platoons = []
        for pid, p in (state.get("platoons") or {}).items():
            if p.get("side") != side:
                continue
            rows = [_fow_team_row(tid, teams.get(tid, {}), p, n, lang) for tid in p.get("teams") or ()]
            census["in_action"] += sum(1 for r in rows if not r["destroyed"])
            census["destroyed"] += sum(1 for r in rows if r["destroyed"])
            census["bailed_out"] += sum(1 for r in rows if r["bailed_out"] and not r["destroyed"])
            census["pinned"] += bool(p.get("pinned"))
            platoons.append({
                "id": pid, "name": n.platoon(pid), "kind": term("fow_platoon_kind", p.get("kind") or "other", lang),
                "pinned": term("fow_status", "pinned", lang) if p.get("pinned") else "",
                "train": _fow_train(pid, state, n, lang), "teams": rows,
                "alive": sum(1 for r in rows if not r["destroyed"])})
        out.append({"side": side, "name": n.side(side), "platoons": platoons, "census": census,
                    "units": [], "loose": [], "vehicles": []})
    return out


def _fow_steps(state: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """The Steps of the side to move's turn in order, the current one marked and the ones behind it past
    (fow/rules/steps.py, G-F1); none outside a running battle."""
    if state.get("status") != "running":
        return []
    order = ("movement", "shooting", "assault")
    now = order.index(state["step"]) if state.get("step") in order else 0
    return [{"name": term("fow_step", s, lang), "current": i == now, "past": i < now} for i, s in enumerate(order)]


def board(state: dict[str, Any], *, names: dict[str, str], language: str, sides: dict[str, str],
          vehicle_reserve: int, non_tank_reserve: int | None = None) -> dict[str, Any]:
    lang = lang_of(language)
    n = Namer(names, state, lang, sides)
    if state.get("ruleset") == "fow":
        return {"status": state.get("status") or "planned",
                "status_text": term("status", state.get("status") or "planned", lang), "turn": state.get("turn", 0),
                "side_to_move": n.side(state["side_to_move"]) if state.get("side_to_move") else "", "phase": "",
                "winner": (n.t("ничья", "a draw") if state.get("winner") == "draw" else n.side(state["winner"]))
                if state.get("winner") else "",
                "end_reason": state.get("end_reason") or "", "sides": _fow_sides(state, n, lang), "buildings": [],
                "bunkers": [], "wire": [], "smoke": [], "mines": [], "fow": True, "words": FOW_HEADINGS[lang],
                "steps": _fow_steps(state, lang)}
    units = state.get("units") or {}
    fighters = state.get("fighters") or {}
    vehicles = state.get("vehicles") or {}
    out_sides = []
    for side in ("defender", "attacker"):
        rows: dict[str, list[dict[str, Any]]] = {}
        census = dict.fromkeys(FATES, 0)
        loose = []
        for f in fighters.values():
            if f.get("side") != side:
                continue
            row = _fighter_row(f, n, lang)
            census[row["fate"]] += 1
            if f.get("unit") in units:
                rows.setdefault(f["unit"], []).append(row)
            else:
                loose.append(row)
        side_units = []
        for uid, u in units.items():
            if u.get("side") != side:
                continue
            members = rows.get(uid, [])
            side_units.append({
                "id": uid, "name": n.unit(uid), "kind": term("unit_kind", u.get("kind"), lang),
                "posture": term("posture", u.get("posture"), lang), "morale": term("morale", u.get("morale"), lang),
                "commander": n.fighter(u["commander"]) if u.get("commander") else "",
                "parent": n.unit(u["parent"]) if u.get("parent") else "",
                "fighters": members, "census": {k: sum(1 for r in members if r["fate"] == k) for k in FATES},
            })
        side_vehicles = []
        for vid, v in vehicles.items():
            if v.get("side") != side:
                continue
            status = (n.t("уничтожена", "destroyed") if v.get("destroyed") else
                      n.t("захвачена", "captured") if v.get("captured") else
                      n.t("брошена", "abandoned") if v.get("driven_off") else n.t("в строю", "in action"))
            side_vehicles.append({
                "id": vid, "name": n.vehicle(vid), "kind": term("vehicle_kind", v.get("kind"), lang),
                "armour": v.get("armour", 0), "gun": v.get("gun", 0),
                "weapon": term("weapon", v.get("weapon"), lang),
                "damage": v.get("damage", 0),
                "reserve": vehicle_reserve if v.get("kind") == "tank" or non_tank_reserve is None else non_tank_reserve,
                "running_gear": bool(v.get("running_gear")), "destroyed": bool(v.get("destroyed")),
                "status": status,
                "specialisations": ", ".join(term("specialisation", s, lang) for s in v.get("specialisations") or ()),
                "crew": [n.fighter(x) for x in v.get("crew") or ()],
                "passengers": [n.fighter(x) for x in v.get("passengers") or ()],
                "riders": [n.fighter(x) for x in v.get("riders") or ()],
            })
        out_sides.append({"side": side, "name": n.side(side), "units": side_units, "loose": loose,
                          "vehicles": side_vehicles, "census": census})
    buildings = [{"name": n.thing(b), "damage": x.get("damage", 0), "light_cover": bool(x.get("light_cover"))}
                 for b, x in (state.get("buildings") or {}).items()]
    bunkers = [{"name": n.thing(b), "hits": x.get("hits", 0), "light_cover": bool(x.get("light_cover")),
                "spotter": bool(x.get("spotter"))} for b, x in (state.get("bunkers") or {}).items()]
    wire = [{"name": n.thing(w), "removed": bool(x.get("removed"))} for w, x in (state.get("wire") or {}).items()]
    smoke = [{"name": n.thing(s), "side": n.side(x.get("side")), "by": n.thing(x["by"]) if x.get("by") else ""}
             for s, x in (state.get("smoke") or {}).items()]
    mines = [{"name": n.mine(m), "side": n.side(x.get("side")), "active": bool(x.get("active")),
              "revealed": bool(x.get("revealed")), "laid_by": n.fighter(x["laid_by"]) if x.get("laid_by") else ""}
             for m, x in (state.get("mines") or {}).items()]
    winner = state.get("winner")
    return {
        "status": state.get("status") or "planned",
        "status_text": term("status", state.get("status") or "planned", lang),
        "turn": state.get("turn", 0),
        "side_to_move": n.side(state["side_to_move"]) if state.get("side_to_move") else "",
        "phase": term("phase", state.get("phase"), lang) if state.get("status") == "running" else "",
        "winner": (n.t("ничья", "a draw") if winner == "draw" else n.side(winner)) if winner else "",
        "end_reason": state.get("end_reason") or "",
        "sides": out_sides, "buildings": buildings, "bunkers": bunkers, "wire": wire, "smoke": smoke,
        "mines": mines,
    }
