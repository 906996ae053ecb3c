"""The battle's state as the page shows it: the turn, the side to move and the
phase; per side every unit with its posture and morale result and its
fighters by fate; vehicles with damage against the reserve, running gear,
crew, passengers and riders; houses, pillboxes, wire, smoke and the mines
this reader may know of. Built from the state already filtered for the
reader (``battles.engine.visibility.state_for``); every engine value is put
into words (``battles.terms``), every id into a name (``report.Namer``)."""
from __future__ import annotations

from typing import Any

from .report import Namer
from .terms import lang_of, term

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


FOW_WORDS = {
    "ru": {"bogged": "застряло", "bailed_out": "покинуто", "gone_to_ground": "залегло", "concealed": "сокрыто",
           "bulletproof_cover": "в пуленепробиваемом укрытии", "dug_in": "окопано", "pinned": "прижат огнём",
           "infantry": "пехота", "gun": "орудие", "tank": "танк", "vehicle": "техника", "train": "вагон бронепоезда",
           "recon": "разведка", "armoured_train": "бронепоезд", "independent": "независимые", "other": "прочие"},
    "en": {"bogged": "bogged down", "bailed_out": "bailed out", "gone_to_ground": "gone to ground",
           "concealed": "concealed", "bulletproof_cover": "in bulletproof cover", "dug_in": "dug in",
           "pinned": "pinned down", "infantry": "infantry", "gun": "gun", "tank": "tank", "vehicle": "vehicle",
           "train": "armoured train wagon", "recon": "reconnaissance", "armoured_train": "armoured train",
           "independent": "independent", "other": "other"},
}
TEAM_STATUSES = ("dug_in", "concealed", "bulletproof_cover", "gone_to_ground", "bogged", "bailed_out")


def _fow_sides(state: dict[str, Any], n: Namer, lang: str) -> list[dict[str, Any]]:
    """A FoW state on the same board: platoons as units, teams as their rows, statuses in words."""
    words = FOW_WORDS[lang]
    teams = state.get("teams") or {}
    out = []
    for side in ("defender", "attacker"):
        census = dict.fromkeys(FATES, 0)
        side_units = []
        for pid, p in (state.get("platoons") or {}).items():
            if p.get("side") != side:
                continue
            rows = []
            for tid in p.get("teams") or ():
                t = teams.get(tid, {})
                gone = "dead" if t.get("destroyed") else "alive"
                census[gone] += 1
                kind = words.get(t.get("kind", ""), "")
                rows.append({"id": tid, "name": n.names.get(tid) or f"{kind} {tid}", "role": kind, "fate": gone,
                             "fate_text": n.t("уничтожено", "destroyed") if gone == "dead" else FATE_WORDS[lang]["alive"],
                             "where": ", ".join(words[s] for s in TEAM_STATUSES if t.get(s)), "captor": ""})
            side_units.append({
                "id": pid, "name": n.names.get(pid) or f"{words.get(p.get('kind', ''), '')} {pid}",
                "kind": words.get(p.get("kind", ""), ""), "posture": "",
                "morale": words["pinned"] if p.get("pinned") else "", "commander": "", "parent": "",
                "fighters": rows, "census": {k: sum(1 for r in rows if r["fate"] == k) for k in FATES}})
        out.append({"side": side, "name": n.side(side), "units": side_units, "loose": [], "vehicles": [],
                    "census": census})
    return out


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
                "bunkers": [], "wire": [], "smoke": [], "mines": []}
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
