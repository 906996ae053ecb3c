"""The battle report: the log told turn by turn in readable sentences, in the
reader's language (Russian first, English).

Every event type has its own sentence: who did what (by the roster's names,
never a bare id), the dice with their provenance («бросок сервиса 14» or «с
кубика за столом 14»), distances in inches, and the catalog rule that decides
the outcome. A payload the reader may not see in full (a secret mine, see
``battles.engine.visibility``) reads as a sapper at work. No raw key, dict,
``None`` or ``True`` ever reaches the text: a value the report does not know
reads as «неизвестно».
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from battles import engine
from battles.engine.terms import lang_of, term
from battles.engine.visibility import REDACTED


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


def _rule(*ids: str) -> str:
    return f" ({', '.join(ids)})"


def _fow_teams(ids: Any, n: Namer) -> str:
    return n.many(ids, n.team)


def _fow_force(d: dict[str, Any], n: Namer) -> str:
    """«РККА выставили силы: Бронепоезд «Илья Муромец» (вагонов бронепоезда — 3), …» (each platoon with its teams by kind)."""
    t = n.t
    parts = []
    for p in d.get("platoons") or ():
        if not isinstance(p, dict):
            continue
        kinds: dict[str, int] = {}
        for x in p.get("teams") or ():
            if isinstance(x, dict):
                kinds[x.get("kind") or "infantry"] = kinds.get(x.get("kind") or "infantry", 0) + 1
        counted = ", ".join(f"{term('fow_team_kinds', k, n.lang)} — {c}" for k, c in kinds.items())
        name = p.get("name") or n.platoon(p.get("id"))
        parts.append(f"{name} ({counted})" if counted else name)
    return t(f"{n.side(d.get('side'))} выставили силы: ", f"{n.side(d.get('side'))} mustered: ") + (
        "; ".join(parts) or t("ничего", "nothing")) + "."


def _fow_moved(d: dict[str, Any], n: Namer) -> str:
    t, who = n.t, n.team(d.get("team"))
    if d.get("pivot_only"):
        return t(f"{who}: поворот на месте", f"{who}: pivoted in place") + _rule("G-F1") + "."
    double = bool(d.get("at_the_double"))
    text = t(f"{who}: движение на {n.dist(d.get('distance'))}", f"{who}: moved {n.dist(d.get('distance'))}")
    if double:
        text += t(" С Удвоенной Скоростью", " At the Double") + _rule("F-DBL-1")
    extra = []
    if d.get("turned_for"):
        extra.append(t("повороты: ", "turning for ") + ", ".join(term("fow_turn_reason", r, n.lang)
                                                                 for r in d["turned_for"]) + (_rule("F-DBL-3") if double else ""))
    if d.get("difficult_terrain"):
        extra.append(t("через Труднопроходимую Местность", "through Difficult Terrain"))
    if d.get("closest_enemy") is not None:
        extra.append(t(f"ближе всего к врагу — {n.dist(d['closest_enemy'])}",
                       f"closest to the enemy {n.dist(d['closest_enemy'])}") + (_rule("F-DBL-6") if double else ""))
    if d.get("bulletproof_cover"):
        extra.append(t("оканчивает в Пуленепробиваемом Укрытии", "ends in Bulletproof Cover"))
    return text + ("; " + "; ".join(extra) if extra else "") + ("" if double else _rule("G-F1")) + "."


def _fow_shot(d: dict[str, Any], n: Namer) -> str:
    """G-F1: the seeds give no to-hit numbers for shooting, so the table decides and the sentence says so."""
    t = n.t
    kind = d.get("kind") or "direct"
    how = term("fow_fire", kind, n.lang)
    text = t(f"{n.team(d.get('shooter'))}: {how} по цели {n.team(d.get('target'))}",
             f"{n.team(d.get('shooter'))}: {how} at {n.team(d.get('target'))}")
    if d.get("distance") is not None:
        text += t(f" на {n.dist(d['distance'])}", f" at {n.dist(d['distance'])}")
    dice = [x for x in d.get("dice") or () if isinstance(x, dict)]
    text += t(f"; кубиков — {len(dice)}: {n.dice(dice)}", f"; dice ({len(dice)}): {n.dice(dice)}")
    decided = []
    if d.get("hits") is not None:
        decided.append(t(f"попаданий — {d['hits']}", f"hits: {d['hits']}"))
    if d.get("result"):
        decided.append(term("fow_result", d["result"], n.lang))
    if d.get("pinned"):
        decided.append(t("взвод цели Прижат Огнём (Pinned Down)", "the target platoon Pinned Down"))
    if decided:
        text += t("; решение стола: ", "; the table decided: ") + ", ".join(decided)
    else:
        text += t("; попадания и их итог решает стол", "; the table decides the hits and what they do")
    rule = _rule("G-F1", "F-DBL-11") if kind != "direct" else _rule("G-F1")
    return text + rule + "."


def _fow_status(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    who = n.platoon(d.get("subject")) if d.get("status") == "pinned" else n.piece(d.get("subject"))
    label = term("fow_status", d.get("status"), n.lang)
    now = f"{who} — {label}" if d.get("value", True) else t(f"{who} — снято: {label}", f"{who} — no longer {label}")
    text = t(f"По основным правилам стол решил: {now}", f"By the core rules the table decided: {now}")
    reason = str(d.get("reason") or "").strip()
    return text + (t(f"; причина: {reason}", f"; reason: {reason}") if reason else "") + _rule("G-F1") + "."


def _fow_dig(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.platoon(d.get('platoon'))}: попытка Окопаться вместо движения, тест на Умение — {n.die(d.get('die'))}",
             f"{n.platoon(d.get('platoon'))}: tried to Dig In instead of moving, Skill test — {n.die(d.get('die'))}"
             ) + _rule("F-DIG-1", "F-DIG-3")
    if d.get("reroll"):
        near = d.get("pioneer_supply_distance")
        where = t(f" в {n.dist(near)}", f" {n.dist(near)} away") if near is not None else ""
        text += t(f"; переброс с Сапёрной техникой Снабжения{where}: {n.die(d['reroll'])}",
                  f"; re-rolled with a Pioneer Supply vehicle{where}: {n.die(d['reroll'])}") + _rule("F-DIG-10")
    if d.get("in_water"):
        text += t("; в воде, на мосту или броде (не окапываются): ", "; in water, on a bridge or ford (no digging): "
                  ) + _fow_teams(d["in_water"], n) + _rule("F-DIG-11")
    if d.get("in_cover"):
        text += t("; уже в Пуленепробиваемом Укрытии: ", "; already in Bulletproof Cover: ") + _fow_teams(
            d["in_cover"], n) + _rule("F-DIG-8")
    return text + "."


def _fow_air(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    hits = []
    for h in d.get("hits") or ():
        if not isinstance(h, dict):
            continue
        bits = [term("fow_air_weapon", h.get("weapon"), n.lang), t(f"спасбросок {n.die(h.get('save'))}",
                                                                     f"save {n.die(h.get('save'))}")]
        if h.get("anti_tank") is not None:
            bits.append(t(f"Бронебойность {h['anti_tank']}", f"Anti-tank {h['anti_tank']}"))
        if h.get("firepower_die"):
            need = f" ({h['firepower']}+)" if h.get("firepower") is not None else ""
            bits.append(t(f"тест на Огневую Мощь{need} {n.die(h['firepower_die'])}",
                          f"Firepower test{need} {n.die(h['firepower_die'])}"))
        hits.append(f"{n.team(h.get('team'))} ({'; '.join(bits)})")
    who = d.get("aircraft") or t("самолёты", "aircraft")
    text = t(f"Воздушная атака ({n.side(d.get('side'))}), самолёты «{who}»: попадания — ",
             f"Air attack ({n.side(d.get('side'))}), aircraft «{who}»: hits — ") + (
        ", ".join(hits) or t("нет", "none")) + _rule("F-AIR-1")
    return text + t("; взводы с попаданиями Прижаты Огнём", "; every platoon hit is Pinned Down") + _rule("F-AIR-15") + t(
        "; самолёты ушли на базу перевооружаться", "; the aircraft return to base to re-arm") + _rule("F-AIR-16") + "."


def _fow_building(bid: Any, n: Namer) -> str:
    b = (n.state.get("buildings") or {}).get(str(bid or "")) or {}
    name = b.get("name") or n.names.get(str(bid or ""))
    return n.t(f"здание «{name}»", f"building «{name}»") if name else n.t(f"здание {bid}", f"building {bid}")


def _fow_building_placed(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    openings = []
    for o in d.get("openings") or ():
        if not isinstance(o, dict):
            continue
        bits = [t("первый этаж", "ground floor") if o.get("ground_floor", True) else t("верхний этаж", "upper floor")]
        if o.get("width") is not None:
            bits.append(t(f"ширина {n.dist(o['width'])}", f"{n.dist(o['width'])} wide"))
        openings.append(f"{o.get('id')} ({', '.join(bits)})")
    name = d.get("name") or d.get("id")
    text = t(f"Здание «{name}» на столе; Проёмы: ", f"Building «{name}» on the table; Openings: ") + (
        ", ".join(openings) or t("нет", "none")) + _rule("F-BLD-1")
    if d.get("inside"):
        text += t("; внутри: ", "; inside: ") + _fow_teams(d["inside"], n) + _rule("F-BLD-2")
    return text + "."


def _fow_building_move(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.team(d.get('team'))}: движение в {_fow_building(d.get('building'), n)} на {n.dist(d.get('distance'))}",
             f"{n.team(d.get('team'))}: moved {n.dist(d.get('distance'))} in {_fow_building(d.get('building'), n)}")
    extra = []
    if d.get("enter_by"):
        extra.append(t(f"входит через Проём {d['enter_by']}", f"enters through Opening {d['enter_by']}"))
    if d.get("leave_by"):
        extra.append(t(f"выходит через Проём {d['leave_by']}", f"leaves through Opening {d['leave_by']}"))
    if d.get("ends_at"):
        extra.append(t(f"останавливается снаружи у Проёма {d['ends_at']}", f"ends outside at Opening {d['ends_at']}"))
    if d.get("die"):
        extra.append(t(f"тест на Умение (Оспариваемое Здание) — {n.die(d['die'])}",
                       f"Skill test (Contested building) — {n.die(d['die'])}") + _rule("F-BLD-8"))
    if d.get("base_width") is not None:
        extra.append(t(f"ширина подставки {n.dist(d['base_width'])}", f"base {n.dist(d['base_width'])} wide"))
    if d.get("bulletproof_cover"):
        extra.append(t("оканчивает в Пуленепробиваемом Укрытии", "ends in Bulletproof Cover"))
    return text + ("; " + "; ".join(extra) if extra else "") + _rule("F-BLD-7") + "."


def _fow_line(d: dict[str, Any], n: Namer) -> str:
    t, side = n.t, n.side(d.get("side"))
    if d.get("existing"):
        return t(f"{side}: Железнодорожной Линией служит та, что уже есть на столе",
                 f"{side}: the table's own Railway Line is used") + _rule("F-TRAIN-2") + "."
    text = t(f"{side} проложили Железнодорожную Линию", f"{side} laid the Railway Line")
    if d.get("length"):
        text += t(f" длиной {n.dist(d['length'])}", f", {n.dist(d['length'])} long")
    text += _rule("F-TRAIN-7")
    if d.get("bridges"):
        text += t(f"; мостов через реки и ручьи — {d['bridges']}", f"; bridges over rivers and streams: {d['bridges']}"
                  ) + _rule("F-TRAIN-9")
    if d.get("buildings_moved"):
        text += t("; отодвинуты здания: ", "; buildings moved aside: ") + ", ".join(
            str(b) for b in d["buildings_moved"]) + _rule("F-TRAIN-10")
    if d.get("through_hills"):
        text += t("; идёт через холм", "; runs over a hill") + _rule("F-TRAIN-11")
    if d.get("through_buildings"):
        text += t("; на линии оставлено здание", "; a building is left on the line") + _rule("F-TRAIN-10")
    if d.get("crosses_deployment_area") is False:
        text += t("; не пересекает Зону Расстановки", "; does not cross the Deployment Area") + _rule("F-TRAIN-16")
    return text + "."


def _fow_train(d: dict[str, Any], n: Namer) -> str:
    return n.platoon(d.get("train"))


def _fow_train_entered(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    where = (t("с края стола, ближайшего к Зоне Расстановки", "from the table edge nearest the Deployment Area")
             if d.get("entry") == "nearest_edge" else
             t("там, где Линия пересекает Зону Расстановки", "where the line crosses the Deployment Area"))
    return t(f"{_fow_train(d, n)} въезжает на стол {where}: на {n.dist(d.get('distance'))}; поезд с Танковыми "
             f"Взводами Поддержки длиной {n.dist(d.get('train_length'))}",
             f"{_fow_train(d, n)} enters {where}: {n.dist(d.get('distance'))}; the train with its Tank Support "
             f"Platoons is {n.dist(d.get('train_length'))} long") + _rule("F-TRAIN-14", "F-TRAIN-15", "F-TRAIN-16") + "."


def _fow_train_moved(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    way = t("назад", "back") if d.get("direction") == "backward" else t("вперёд", "forward")
    text = t(f"{_fow_train(d, n)}: движение по Линии {way} на {n.dist(d.get('distance'))}",
             f"{_fow_train(d, n)}: moved {way} {n.dist(d.get('distance'))} along the line") + _rule("F-TRAIN-19")
    if d.get("wrecks_pushed"):
        text += t("; столкнул с пути Обломки: ", "; pushed Wreckage off the track: ") + _fow_teams(
            d["wrecks_pushed"], n) + _rule("F-TRAIN-23")
    if d.get("leaves_table"):
        text += t("; уходит со стола", "; goes off the table") + _rule("F-TRAIN-22")
    return text + "."


def _fow_escort(d: dict[str, Any], n: Namer) -> str:
    p = (n.state.get("platoons") or {}).get(str(d.get("platoon") or "")) or {}
    train = n.t(f" ({n.platoon(p['train'])})", f" ({n.platoon(p['train'])})") if p.get("train") else ""
    return n.t(f"{n.platoon(d.get('platoon'))} сходит с бронепоезда{train} и проходит ещё {n.dist(d.get('distance'))}",
               f"{n.platoon(d.get('platoon'))} leaves the armoured train{train}, moving an extra "
               f"{n.dist(d.get('distance'))}") + _rule("F-TRAIN-25") + "."


def _fow_recon_move(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.team(d.get('team'))}: Передвижение Разведки При Расстановке на {n.dist(d.get('distance'))}",
             f"{n.team(d.get('team'))}: recon deployment move of {n.dist(d.get('distance'))}")
    if d.get("at_the_double"):
        text += t(" С Удвоенной Скоростью", " At the Double") + _rule("F-RECON-11")
    text += _rule("F-RECON-6")
    enemies = []
    for c in d.get("enemies") or ():
        if not isinstance(c, dict):
            continue
        bit = t(f"{n.team(c.get('enemy'))}: в начале {n.dist(c.get('start_distance'))}, ближе всего "
                f"{n.dist(c.get('closest'))}", f"{n.team(c.get('enemy'))}: {n.dist(c.get('start_distance'))} at the start, "
                f"closest {n.dist(c.get('closest'))}")
        if c.get("in_sight_at_start"):
            bit += t(", видел в начале", ", in its sight at the start")
        if c.get("closest_in_sight") is not None:
            bit += t(f", в его Линии Видимости ближе всего {n.dist(c['closest_in_sight'])}",
                     f", closest in its Line of Sight {n.dist(c['closest_in_sight'])}")
        enemies.append(bit)
    if enemies:
        text += t("; враги — ", "; enemies — ") + "; ".join(enemies) + _rule("F-RECON-7", "F-RECON-8", "F-RECON-9")
    return text + "."


def _fow_disengaged(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.platoon(d.get('platoon'))}: «Отходим!», тест на Умение — {n.die(d.get('die'))}",
             f"{n.platoon(d.get('platoon'))}: Disengage, Skill test — {n.die(d.get('die'))}") + _rule("F-RECON-18")
    moves = [f"{n.team(m.get('team'))} {n.dist(m.get('distance'))}" for m in d.get("moves") or ()
             if isinstance(m, dict)]
    if moves:
        text += t("; отходят: ", "; falling back: ") + ", ".join(moves) + _rule("F-RECON-19")
    if d.get("out_of_reach"):
        text += t("; весь взвод вне Дистанции Стрельбы, Линии Видимости или Сектора Стрельбы",
                  "; the whole platoon is out of Range, Line of Sight or Field of Fire") + _rule("F-RECON-24")
    return text + "."


def _fow_simple(d: dict[str, Any], n: Namer, type_: str) -> str | None:  # noqa: C901, PLR0911 - one case per type
    t = n.t
    if type_ == "battle_started":
        unit = t("сантиметрах", "centimetres") if d.get("units") == "cm" else t("дюймах", "inches")
        return t(f"Бой начался (Flames of War): {n.side('attacker')} атакуют, {n.side('defender')} обороняются; "
                 f"первыми ходят {n.side(d.get('first_mover', 'attacker'))}; расстояния в {unit}.",
                 f"The battle began (Flames of War): {n.side('attacker')} attack, {n.side('defender')} defend; "
                 f"{n.side(d.get('first_mover', 'attacker'))} move first; distances in {unit}.")
    if type_ == "turn_ended":
        return t(f"«Ход»: {n.side(d.get('side'))} завершили ход {d.get('turn')}.",
                 f"«Ход»: {n.side(d.get('side'))} ended turn {d.get('turn')}.")
    if type_ == "assault_launched":
        against = t(f" на {n.platoon(d['against'])}", f" on {n.platoon(d['against'])}") if d.get("against") else ""
        return t(f"Атака в ближнем бою{against}: атакуют {_fow_teams(d.get('teams'), n)}",
                 f"Assault{against}: {_fow_teams(d.get('teams'), n)} assault") + _rule("G-F1") + t(
            "; итог решает стол по основным правилам.", "; the table decides it by the core rules.")
    if type_ == "went_to_ground":
        return t("Залегли (Gone to Ground), не двигаясь и не стреляя в этот ход: ",
                 "Gone to Ground, having neither moved nor shot this turn: ") + _fow_teams(d.get("teams"), n) + _rule(
            "G-F1") + "."
    if type_ == "foxholes_marked":
        return t(f"{n.platoon(d.get('platoon'))}: позиции Окопанных отделений помечены перед Контратакой",
                 f"{n.platoon(d.get('platoon'))}: its Dug In positions are marked before the Counterattack"
                 ) + _rule("F-DIG-19") + "."
    if type_ == "foxholes_reoccupied":
        return t(f"{n.platoon(d.get('platoon'))}: снова в своих окопах — {_fow_teams(d.get('teams'), n)}",
                 f"{n.platoon(d.get('platoon'))}: back in its foxholes — {_fow_teams(d.get('teams'), n)}"
                 ) + _rule("F-DIG-20") + t("; остальные больше не Окопаны", "; the others are no longer Dug In") + _rule(
            "F-DIG-21") + "."
    if type_ == "railway_edges_chosen":
        return t(f"{n.side(d.get('side'))} выбрали края стола для Железнодорожной Линии: "
                 f"{term('fow_edges', d.get('edges'), n.lang)}",
                 f"{n.side(d.get('side'))} chose the table edges for the Railway Line: "
                 f"{term('fow_edges', d.get('edges'), n.lang)}") + _rule("F-TRAIN-4") + "."
    if type_ == "railway_point_chosen":
        edge = term("fow_edge", d.get("edge"), n.lang)
        return t(f"{n.side(d.get('side'))}: точка Железнодорожной Линии на {edge} краю стола, "
                 f"{n.dist(d.get('position'))} от его левого угла",
                 f"{n.side(d.get('side'))}: a Railway Line point on the {edge} edge, {n.dist(d.get('position'))} "
                 f"from its left corner") + _rule("F-TRAIN-5", "F-TRAIN-6") + "."
    if type_ == "train_held_back":
        if d.get("held_in") == "ambush":
            return t(f"{_fow_train(d, n)} оставлен вне стола в Засаде", f"{_fow_train(d, n)} held back in Ambush"
                     ) + _rule("F-TRAIN-17") + "."
        return t(f"{_fow_train(d, n)} оставлен вне стола в Резерве", f"{_fow_train(d, n)} held back in Reserve"
                 ) + _rule("F-TRAIN-18") + "."
    if type_ == "ambush_placed":
        seen = [f"{n.team(s.get('team'))} {n.dist(s.get('distance'))}" for s in d.get("recon_in_sight") or ()
                if isinstance(s, dict)]
        return t(f"{n.team(d.get('team'))}: размещение из Засады", f"{n.team(d.get('team'))}: placed from Ambush") + (
            t("; вражеская Разведка в Линии Видимости: ", "; enemy Reconnaissance in Line of Sight: ") + ", ".join(seen)
            if seen else "") + _rule("F-RECON-4") + "."
    if type_ == "passengers_changed":
        return t(f"{n.team(d.get('team'))}: Пассажиры — {_fow_teams(d.get('passengers'), n)}",
                 f"{n.team(d.get('team'))}: Passengers — {_fow_teams(d.get('passengers'), n)}") + _rule(
            "F-RECON-3", "F-RECON-12") + "."
    if type_ == "recon_deployment_started":
        return t(f"Расстановка Разведки: первыми выбирают взвод {n.side(d.get('first'))}",
                 f"Recon deployment: {n.side(d.get('first'))} choose a platoon first") + _rule(
            "F-RECON-6", "F-RECON-13") + "."
    if type_ == "recon_deployment_ended":
        note = str(d.get("note") or "").strip()
        return t("Расстановка Разведки окончена", "Recon deployment over") + _rule("F-RECON-6") + (
            f": {note}" if note else "") + "."
    if type_ == "disengage_declared":
        return t(f"{n.platoon(d.get('platoon'))} заявляет «Отходим!» под огнём: {_fow_teams(d.get('shooters'), n)}; "
                 "каждый из них сначала стреляет один раз",
                 f"{n.platoon(d.get('platoon'))} declares Disengage under fire from {_fow_teams(d.get('shooters'), n)}; "
                 "each of them first fires one shot") + _rule("F-RECON-16", "F-RECON-17") + "."
    if type_ == "unarmoured_save_rolled":
        fire = t("против артобстрела", "against a bombardment") if d.get("fire") == "artillery" else t(
            "против прямого огня", "against direct fire")
        return t(f"{n.team(d.get('team'))}: спасбросок небронированной техники {fire} — {n.die(d.get('die'))}",
                 f"{n.team(d.get('team'))}: unarmoured vehicle save {fire} — {n.die(d.get('die'))}") + _rule(
            "F-RECON-2") + "."
    return None


_FOW_SENTENCES: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "force_mustered": _fow_force, "team_moved": _fow_moved, "team_shot": _fow_shot, "status_set": _fow_status,
    "dig_in_attempted": _fow_dig, "air_attack_resolved": _fow_air, "building_placed": _fow_building_placed,
    "building_move": _fow_building_move, "railway_line_laid": _fow_line, "train_entered": _fow_train_entered,
    "train_moved": _fow_train_moved, "escort_left_train": _fow_escort, "recon_deployment_move": _fow_recon_move,
    "disengaged": _fow_disengaged,
}


def _fow_sentence(type_: str, d: dict[str, Any], n: Namer) -> str | None:
    """A Flames of War event as a sentence: who did what to whom by the roster's
    names (teams with their platoon), distances in the battle's units, the
    dice with their provenance, what the table decided where the seeds give no
    rule (G-F1), and the F- rule. None leaves the event to the shared cases
    (battle_ended, correction); the outcome clause (``outcome``) follows."""
    if type_ in _FOW_SENTENCES:
        return _FOW_SENTENCES[type_](d, n)
    return _fow_simple(d, n, type_)


def _sentence(type_: str, d: dict[str, Any], n: Namer) -> str:  # noqa: C901, PLR0911, PLR0912 - one case per type
    if n.state.get("ruleset", "v11.2") != "v11.2" and (fow := _fow_sentence(type_, d, n)) is not None:
        return fow
    t = n.t
    if d.get(REDACTED):
        return t(f"Сапёр {n.fighter(d.get('sapper'))} занят скрытой работой (мины противника показываются, "
                 f"когда их обнаружит ваш сапёр)" + _rule("V-MINE-14") + ".",
                 f"Sapper {n.fighter(d.get('sapper'))} is at hidden work (enemy mines are shown once your sapper "
                 f"detects them)" + _rule("V-MINE-14") + ".")
    if type_ == "battle_started":
        a, b = d.get("attacker") or n.side("attacker"), d.get("defender") or n.side("defender")
        return t(f"Бой начался: {a} атакуют, {b} обороняются; первыми ходят обороняющиеся",
                 f"The battle began: {a} attack, {b} defend; the defender moves first") + _rule("V-TURN-8") + "."
    if type_ == "turn_ended":
        return t(f"«Ход»: {n.side(d.get('side'))} завершили ход {d.get('turn')}.",
                 f"«Ход»: {n.side(d.get('side'))} ended turn {d.get('turn')}.")
    if type_ == "battle_ended":
        w = d.get("winner")
        text = (t("Бой окончен вничью.", "The battle ended in a draw.") if w == "draw" else
                t(f"Бой окончен: победили {n.side(w)}.", f"The battle ended: {n.side(w)} won."))
        reason = (d.get("reason") or "").strip()
        return f"{text} {t('Причина', 'Reason')}: {reason}" if reason else text
    if type_ == "player_done":
        who = n.names.get(str(d.get("player") or ""), t("игрок", "a player"))
        return t(f"{who} ({n.side(d.get('side'))}) сказал «Ход» за свой ростер в ходу {d.get('turn')}",
                 f"{who} ({n.side(d.get('side'))}) said «Ход» for his roster in turn {d.get('turn')}"
                 ) + _rule("V-TURN-12") + "."
    if type_ == "correction" and d.get("side"):
        return t(f"{n.side(d['side'])} взяли назад свою запись №{d.get('voids_seq')}",
                 f"{n.side(d['side'])} took back their entry #{d.get('voids_seq')}") + _rule("V-TURN-13") + "."
    if type_ == "correction":
        return t(f"Мастер отменил запись №{d.get('voids_seq')}: {d.get('reason', '')}",
                 f"The game master voided entry #{d.get('voids_seq')}: {d.get('reason', '')}") + _rule("V-TURN-13")
    if type_ == "sapper_approached":
        return t(f"Сапёр {n.fighter(d.get('sapper'))} вышел к объекту «{n.thing(d.get('object'))}» на "
                 f"{inches(d.get('distance'))}", f"Sapper {n.fighter(d.get('sapper'))} stopped "
                 f"{inches(d.get('distance'))} from {n.thing(d.get('object'))}") + _rule("V-SAP-2") + "."
    if type_ == "sapper_worked":
        s = n.fighter(d.get("sapper"))
        if d.get("action") == "lay":
            kind = term("mine_kind", d.get("kind"), n.lang) or t("мина", "mine")
            return t(f"Сапёр {s} установил: {kind} {d.get('object')}", f"Sapper {s} laid a {kind} {d.get('object')}"
                     ) + _rule("V-MINE-1", "V-SAP-3") + "."
        return t(f"Сапёр {s} снял объект «{n.thing(d.get('object'))}»",
                 f"Sapper {s} removed {n.thing(d.get('object'))}") + _rule("V-SAP-3") + "."
    if type_ == "mine_triggered":
        parts = [t(f"Сработала {n.mine(d.get('mine'))}: противник в {inches(d.get('distance'))}",
                   f"{n.mine(d.get('mine'))} went off: an enemy {inches(d.get('distance'))} away") + _rule("V-MINE-2")]
        if d.get("vehicle"):
            if d.get("trawl"):
                parts.append(t(f"{n.vehicle(d['vehicle'])} принял взрыв на трал",
                               f"{n.vehicle(d['vehicle'])} took it on its trawl") + _rule("V-MINE-9"))
            else:
                parts.append(t(f"подорвалась {n.vehicle(d['vehicle'])}", f"{n.vehicle(d['vehicle'])} hit it")
                             + _rule("V-MINE-5", "V-MINE-6"))
        if d.get("victims"):
            parts.append(t("в радиусе: ", "in the blast: ") + _victims(d["victims"], n) + _rule("V-MINE-4"))
        return "; ".join(parts) + "."
    if type_ == "charge_detonated":
        parts = [t(f"Сапёр {n.fighter(d.get('sapper'))} по приказу {n.fighter(d.get('officer'))} подорвал "
                   f"{n.mine(d.get('charge'))}", f"Sapper {n.fighter(d.get('sapper'))} on "
                   f"{n.fighter(d.get('officer'))}'s order set off {n.mine(d.get('charge'))}") + _rule("V-MINE-10")]
        if d.get("victims"):
            parts.append(t("в радиусе: ", "in the blast: ") + _victims(d["victims"], n) + _rule("V-MINE-11"))
        if d.get("objects"):
            parts.append(t("лёгким укрытием стали: ", "now light cover: ") + n.many(d["objects"]) + _rule("V-MINE-12"))
        return "; ".join(parts) + "."
    if type_ == "mine_revealed":
        return t(f"Сапёр {n.fighter(d.get('sapper'))} в {inches(d.get('distance'))} обнаружил: "
                 f"{n.mine(d.get('mine'))}; владелец обязан её показать",
                 f"Sapper {n.fighter(d.get('sapper'))} {inches(d.get('distance'))} away detected "
                 f"{n.mine(d.get('mine'))}; its owner must show it") + _rule("V-MINE-13", "V-MINE-14") + "."
    if type_ == "force_mustered":
        units = [n.unit(u.get("id")) for u in d.get("units") or () if isinstance(u, dict)]
        vehicles = [n.vehicle(v.get("id")) for v in d.get("vehicles") or () if isinstance(v, dict)]
        text = t(f"{n.side(d.get('side'))} выставили силы: бойцов — {len(d.get('fighters') or ())}",
                 f"{n.side(d.get('side'))} mustered: {len(d.get('fighters') or ())} fighters")
        if units:
            text += t("; подразделения: ", "; units: ") + ", ".join(units)
        if vehicles:
            text += t("; техника: ", "; vehicles: ") + ", ".join(vehicles)
        return text + "."
    if type_ == "terrain_placed":
        groups = [("houses", "дома", "houses"), ("bunkers", "ДОТы", "pillboxes"),
                  ("spotter_bunkers", "ДОТы-корректировщики", "spotter pillboxes"),
                  ("wire", "проволока", "wire"), ("fences", "заборы", "fences")]
        parts = [f"{t(ru, en)}: {', '.join(str(x) for x in d[k])}" for k, ru, en in groups if d.get(k)]
        return t("Объекты поля боя согласованы", "Battlefield objects agreed") + _rule("V-TURN-5") + (
            ": " + "; ".join(parts) if parts else "") + "."
    if type_ == "postures_declared":
        items = [f"{n.unit(u)} — {term('posture', p, n.lang)}" for u, p in (d.get("units") or {}).items()]
        items += [f"{n.fighter(f)} — {term('posture', p, n.lang)}" for f, p in (d.get("fighters") or {}).items()]
        return t(f"{n.side(d.get('side'))} объявили положения", f"{n.side(d.get('side'))} declared postures"
                 ) + _rule("V-TURN-9") + (": " + "; ".join(items) if items else "") + "."
    if type_ == "fighters_moved":
        extra = []
        if d.get("road"):
            extra.append(t("по дороге", "along a road") + _rule("V-TERR-7"))
        if d.get("enter_house"):
            extra.append(t(f"вошли в {n.thing(d['enter_house'])}", f"entered {n.thing(d['enter_house'])}"))
        if d.get("leave_house"):
            extra.append(t("вышли из дома", "left the house"))
        if d.get("through_opening") and (d.get("enter_house") or d.get("leave_house")):  # defaults to true
            extra.append(t("через проём", "through an opening") + _rule("V-HOUSE-8"))
        if d.get("floors"):
            extra.append(t(f"этажей вверх: {d['floors']}", f"floors climbed: {d['floors']}") + _rule("V-HOUSE-11"))
        if d.get("obstacle_height"):
            extra.append(t(f"через препятствие высотой {inches(d['obstacle_height'])}",
                           f"over an obstacle {inches(d['obstacle_height'])} high"))
        if d.get("wire"):
            extra.append(t("через: ", "through ") + n.many(d["wire"]) + _rule("V-WIRE-1"))
        if d.get("water"):
            extra.append(t("по мосту через воду", "over water by a bridge") if d.get("bridge")
                         else t("вброд через воду", "across water"))
        if d.get("mg_spacing") is not None:
            extra.append(t(f"расчёт пулемёта в {inches(d['mg_spacing'])} друг от друга",
                           f"MG crew within {inches(d['mg_spacing'])} of each other") + _rule("V-MG-5"))
        return t(f"{n.many(d.get('fighters'), n.fighter)} передвинулись на {inches(d.get('distance'))}",
                 f"{n.many(d.get('fighters'), n.fighter)} moved {inches(d.get('distance'))}") + _rule("V-TURN-10") + (
            ", " + ", ".join(extra) if extra else "") + "."
    if type_ == "vehicle_moved":
        extra = []
        if d.get("road"):
            extra.append(t("по дороге", "along a road"))
        if d.get("railway"):
            extra.append(t("по железной дороге", "along a railway") + _rule("V-TERR-5"))
        if d.get("wire"):
            extra.append(t("смяв: ", "crushing ") + n.many(d["wire"]) + _rule("V-WIRE-3"))
        if d.get("towing"):
            extra.append(t(f"буксируя {n.vehicle(d['towing'])}", f"towing {n.vehicle(d['towing'])}"))
        return t(f"{n.vehicle(d.get('vehicle'))} прошёл {inches(d.get('distance'))}",
                 f"{n.vehicle(d.get('vehicle'))} moved {inches(d.get('distance'))}") + _rule("V-TURN-10") + (
            ", " + ", ".join(extra) if extra else "") + "."
    if type_ == "fire":
        return _fire(d, n)
    if type_ == "smoke_fired":
        return t(f"{n.thing(d.get('shooter'))} ставит дымовую завесу {d.get('smoke')} по указанию "
                 f"{n.fighter(d.get('officer'))} (до центра {inches(d.get('officer_distance'))})",
                 f"{n.thing(d.get('shooter'))} lays smoke screen {d.get('smoke')} on {n.fighter(d.get('officer'))}'s "
                 f"call ({inches(d.get('officer_distance'))} to its centre)") + _rule("V-SMOKE-1", "V-SMOKE-2") + "."
    if type_ == "fire_corrected":
        if d.get("via") == "radio":
            how = t(f"по радио через {n.many(d.get('radio_operators'), n.fighter)}",
                    f"by radio through {n.many(d.get('radio_operators'), n.fighter)}")
            if d.get("battery_officer"):
                how += t(f" до офицера батареи {n.fighter(d['battery_officer'])}",
                         f" to battery officer {n.fighter(d['battery_officer'])}")
            rule = _rule("V-CORR-3", "V-RADIO-1")
        else:
            how = t(f"голосом, {inches(d.get('distance'))}", f"by voice, {inches(d.get('distance'))}")
            rule = _rule("V-CORR-2")
        return t(f"{n.thing(d.get('corrector'))} корректирует огонь {n.thing(d.get('shooter'))} по цели "
                 f"«{n.thing(d.get('target'))}» ({how})",
                 f"{n.thing(d.get('corrector'))} directs {n.thing(d.get('shooter'))}'s fire at "
                 f"{n.thing(d.get('target'))} ({how})") + rule + "."
    if type_ == "melee":
        rolls = [t(f"{n.die(r.get('attacker'))} против {n.die(r.get('defender'))}",
                   f"{n.die(r.get('attacker'))} against {n.die(r.get('defender'))}")
                 for r in d.get("rolls") or () if isinstance(r, dict)]
        return t(f"Рукопашная: {n.fighter(d.get('attacker'))} против {n.fighter(d.get('defender'))} на "
                 f"{inches(d.get('distance'))}", f"Melee: {n.fighter(d.get('attacker'))} against "
                 f"{n.fighter(d.get('defender'))} at {inches(d.get('distance'))}") + _rule("V-MELEE-1", "V-MELEE-2") + (
            t("; броски: ", "; rolls: ") + "; ".join(rolls) if rolls else "") + "."
    if type_ == "wound_test":
        text = t(f"Тест на ранение: {n.fighter(d.get('fighter'))}, {n.die(d.get('die'))}",
                 f"Wound test: {n.fighter(d.get('fighter'))}, {n.die(d.get('die'))}") + _rule("V-MED-3")
        if d.get("medic"):
            text += t(f"; медик {n.fighter(d['medic'])} в {inches(d.get('medic_distance'))}",
                      f"; medic {n.fighter(d['medic'])} {inches(d.get('medic_distance'))} away")
            if d.get("reroll"):
                text += t(f", переброс: {n.die(d['reroll'])}", f", re-roll: {n.die(d['reroll'])}") + _rule("V-MED-4")
        return text + "."
    if type_ == "morale_test":
        text = t(f"Тест на мораль: {n.unit(d.get('unit'))}, {n.die(d.get('die'))}",
                 f"Morale test: {n.unit(d.get('unit'))}, {n.die(d.get('die'))}") + _rule("V-TEST-3…6")
        if d.get("officer_distances"):
            text += t("; офицеры: ", "; officers: ") + ", ".join(
                f"{n.fighter(k)} {inches(v)}" for k, v in d["officer_distances"].items())
        if d.get("radio_link"):
            text += t("; связь по радио", "; radio link") + _rule("V-RADIO-4")
        if d.get("enemy_distances"):
            text += t("; противник: ", "; enemy: ") + ", ".join(
                f"{n.thing(k)} {inches(v)}" for k, v in d["enemy_distances"].items())
        if d.get("new_commander"):
            text += t(f"; командование принял {n.fighter(d['new_commander'])}",
                      f"; {n.fighter(d['new_commander'])} takes command") + _rule("V-TEST-6")
        return text + "."
    if type_ == "order_given":
        text = t(f"{n.fighter(d.get('officer'))} отдал приказ: {n.unit(d.get('unit'))}",
                 f"{n.fighter(d.get('officer'))} gave an order to {n.unit(d.get('unit'))}") + _rule("V-CMD-1")
        if d.get("distance") is not None:
            text += t(f", дальний боец в {inches(d['distance'])}", f", farthest fighter {inches(d['distance'])} away")
        if d.get("radio_operators"):
            text += t(f", по радио через {n.many(d['radio_operators'], n.fighter)}",
                      f", by radio through {n.many(d['radio_operators'], n.fighter)}") + _rule("V-RADIO-2")
        if d.get("talk_distances"):
            text += t(", голосом: ", ", by voice: ") + ", ".join(inches(x) for x in d["talk_distances"])
        return text + "."
    if type_ == "prisoner_taken":
        text = t(f"{n.fighter(d.get('captor'))} взял в плен {n.fighter(d.get('prisoner'))} на "
                 f"{inches(d.get('distance'))}", f"{n.fighter(d.get('captor'))} took {n.fighter(d.get('prisoner'))} "
                 f"prisoner at {inches(d.get('distance'))}") + _rule("V-POW-1", "V-POW-2")
        if d.get("nearest_fit_enemy") is not None:
            text += t(f"; ближайший невредимый враг в {inches(d['nearest_fit_enemy'])}",
                      f"; nearest unwounded enemy {inches(d['nearest_fit_enemy'])} away")
        return text + "."
    if type_ == "prisoner_handled":
        p = n.fighter(d.get("prisoner"))
        return {"kill": t(f"Пленный {p} убит", f"Prisoner {p} was killed") + _rule("V-POW-4"),
                "leave": t(f"Пленного {p} оставили на месте", f"Prisoner {p} was left behind") + _rule("V-POW-4"),
                "send": t(f"Пленного {p} отправили в тыл", f"Prisoner {p} was sent to the rear") + _rule("V-POW-5"),
                }.get(d.get("action"), t(f"Решение о пленном {p}", f"A decision on prisoner {p}")) + "."
    if type_ == "prisoner_freed":
        text = t(f"{n.fighter(d.get('prisoner'))} освобождён из плена: офицер {n.fighter(d.get('officer'))} в "
                 f"{inches(d.get('officer_distance'))}", f"{n.fighter(d.get('prisoner'))} was freed: officer "
                 f"{n.fighter(d.get('officer'))} {inches(d.get('officer_distance'))} away") + _rule("V-POW-7")
        if d.get("nearest_enemy") is not None:
            text += t(f"; ближайший враг в {inches(d['nearest_enemy'])}",
                      f"; nearest enemy {inches(d['nearest_enemy'])} away")
        return text + "."
    if type_ == "embarked":
        riders = d.get("role") == "riders"
        return t(f"{n.many(d.get('fighters'), n.fighter)} сели в {n.vehicle(d.get('vehicle'))} "
                 f"{'десантом на броне' if riders else 'пассажирами'}",
                 f"{n.many(d.get('fighters'), n.fighter)} boarded {n.vehicle(d.get('vehicle'))} "
                 f"{'as riders' if riders else 'as passengers'}") + _rule("V-RIDE-1" if riders else "V-TRANS-1") + "."
    if type_ == "disembarked":
        return t(f"{n.many(d.get('fighters'), n.fighter)} высадились из {n.vehicle(d.get('vehicle'))} в "
                 f"{inches(d.get('distance'))} и окопались", f"{n.many(d.get('fighters'), n.fighter)} got off "
                 f"{n.vehicle(d.get('vehicle'))} within {inches(d.get('distance'))}, dug in") + _rule("V-TRANS-3") + "."
    if type_ == "capture_attempted":
        who = ", ".join(f"{n.fighter(k)} {inches(v)}" for k, v in (d.get("infantry") or {}).items())
        text = t(f"Попытка захватить {n.vehicle(d.get('vehicle'))}: {who or 'никого'}",
                 f"An attempt to capture {n.vehicle(d.get('vehicle'))}: {who or 'no one'}")
        text += t("; техника окружена", "; the vehicle is surrounded") if d.get("surrounded") else ""
        if d.get("nearest_friendly") is not None:
            text += t(f"; ближайшие свои в {inches(d['nearest_friendly'])}",
                      f"; nearest friends {inches(d['nearest_friendly'])} away")
        return text + f"; {n.die(d.get('die'))}" + _rule("V-CAPT-5") + "."
    if type_ == "vehicle_boarded":
        return t(f"{n.fighter(d.get('fighter'))} занял место в {n.vehicle(d.get('vehicle'))} (экипаж сожжён)",
                 f"{n.fighter(d.get('fighter'))} got into {n.vehicle(d.get('vehicle'))} (its crew burnt)"
                 ) + _rule("V-FLAME-3", "V-FLAME-4") + "."
    if type_ == "crew_boarded":
        return t(f"{n.many(d.get('fighters'), n.fighter)} заняли места экипажа {n.vehicle(d.get('vehicle'))}",
                 f"{n.many(d.get('fighters'), n.fighter)} crewed {n.vehicle(d.get('vehicle'))}"
                 ) + _rule("V-CREW-4", "V-FLAME-4") + "."
    if type_ == "crew_dismounted":
        return t(f"{n.many(d.get('fighters'), n.fighter)} покинули {n.vehicle(d.get('vehicle'))} и окопались в "
                 f"{inches(d.get('distance'))}", f"{n.many(d.get('fighters'), n.fighter)} left "
                 f"{n.vehicle(d.get('vehicle'))}, dug in within {inches(d.get('distance'))}") + _rule("V-CREW-4") + "."
    entry = engine.REGISTRY.get(type_) or engine.RULESETS["fow"].registry.get(type_)
    title = (entry.title_ru if n.lang == "ru" else entry.title_en) if entry else t("Запись", "An entry")
    # Another ruleset's type without a sentence of its own: its title and the pieces it names, by their names.
    named = [d.get(k) for k in ("team", "platoon", "shooter", "subject") if isinstance(d.get(k), str)]
    named += [x for x in (d.get("teams") or ()) if isinstance(x, str)]
    if named:
        return f"{title}: {', '.join(n.piece(x) for x in named)}."
    return f"{title}."


def _victims(victims: Any, n: Namer) -> str:
    out = []
    for x in victims or ():
        if not isinstance(x, dict):
            continue
        where = n.t(" на подставке объекта", " on the object's base") if x.get("on_object_base") else ""
        out.append(f"{n.fighter(x.get('fighter'))} {inches(x.get('distance', 0))}{where}")
    return ", ".join(out) or n.t("никого", "no one")


FIRE_RULES = {
    "lmg": ("V-MG-1",), "hmg": ("V-MG-1",), "vehicle_mg": ("V-MG-1",), "aa_autocannon": ("V-AA-1",),
    "flamethrower": ("V-FLAME-1",), "mortar": ("V-MORT-1",), "rocket_mortar": ("V-ROCKET-1",),
    "at_grenade_launcher": ("V-ATGL-1",), "at_rifle": ("V-ATGL-1",), "gun": ("V-GUN-1",), "at_gun": ("V-GUN-1",),
    "aa_gun": ("V-AA-1",), "sniper_rifle": ("V-SNIP-3",),
}
TARGET_RULES = {"vehicle": ("V-VDMG-2",), "house": ("V-HOUSE-3",), "bunker": ("V-BUNK-1",), "aircraft": ("V-AA-2",)}


def _fire(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    weapon = term("weapon", d.get("weapon"), n.lang)
    target = term("target", d.get("target"), n.lang)
    text = t(f"{n.thing(d.get('shooter'))} стреляет ({weapon}) {target}",
             f"{n.thing(d.get('shooter'))} fires ({weapon}) {target}")
    if d.get("target_id"):
        text += f" «{n.thing(d['target_id'])}»"
    text += t(f" на {inches(d.get('distance'))}", f" at {inches(d.get('distance'))}")
    notes = []
    if d.get("visual_contact") is False:
        notes.append(t("без визуального контакта", "without visual contact"))
    if d.get("on_height"):
        notes.append(t("с высоты", "from a height") + _rule("V-TERR-9"))
    if d.get("corrected"):
        notes.append(t("по корректировке", "on a correction") + _rule("V-CORR-1"))
    if d.get("through_smoke"):
        notes.append(t(f"сквозь дым: {n.thing(d['through_smoke'])}", f"through {n.thing(d['through_smoke'])}"))
    if d.get("ambush"):
        notes.append(t("из засады", "from ambush") + _rule("V-GUN-4"))
    if d.get("path_distance") is not None:
        notes.append(t(f"до линии прицела {inches(d['path_distance'])}",
                       f"{inches(d['path_distance'])} to the aim line") + _rule("V-GUN-5"))
    if d.get("spot"):
        notes.append(t(f"обнаружение: {n.die(d['spot'])}", f"spotting: {n.die(d['spot'])}") + _rule("V-SNIP-3"))
    if d.get("hit"):
        notes.append(t(f"попадание: {n.die(d['hit'])}", f"to hit: {n.die(d['hit'])}"))
    struck = []
    for x in d.get("struck") or ():
        if not isinstance(x, dict):
            continue
        bits = [n.die(x["die"])] if x.get("die") else []
        if x.get("distance") is not None:
            bits.append(t(f"в {inches(x['distance'])} от разрыва", f"{inches(x['distance'])} from the impact"))
        if x.get("light_cover"):
            bits.append(t("лёгкое укрытие", "light cover") + _rule("V-COVER-2"))
        if x.get("embrasure"):
            bits.append(t("у амбразуры", "at the embrasure") + _rule("V-BUNK-2"))
        struck.append(f"{n.fighter(x.get('fighter'))}" + (f" ({'; '.join(bits)})" if bits else ""))
    if struck:
        notes.append(t("под огнём: ", "under fire: ") + ", ".join(struck) + _rule("G-2"))
    near = []
    for x in d.get("vehicles_struck") or ():
        if not isinstance(x, dict):
            continue
        where = ""
        if x.get("distance") is not None:
            where = " (" + t(f"в {inches(x['distance'])} от разрыва", f"{inches(x['distance'])} from the impact") + ")"
        near.append(n.vehicle(x.get("vehicle")) + where)
    if near:
        notes.append(t("техника в радиусе: ", "vehicles in the radius: ") + ", ".join(near) + _rule("V-MORT-4"))
    rules = FIRE_RULES.get(d.get("weapon"), ()) + TARGET_RULES.get(d.get("target"), ())
    return text + (", " + ", ".join(notes) if notes else "") + _rule("V-TURN-11", *rules) + "."


_TEST_WORDS = {  # what each die was for, as the table says it
    "hit": ("попадание", "to hit"), "spot": ("обнаружение", "spotting"), "g2": ("", ""),
    "wound_test": ("тест на ранение", "wound test"), "wound_reroll": ("переброс медика", "the medic's re-roll"),
    "capture": ("захват", "capture"), "morale": ("мораль", "morale"),
    # Flames of War (battles.engine.fow.effects)
    "skill": ("тест на Умение", "Skill test"), "skill_reroll": ("переброс теста на Умение", "Skill test re-roll"),
    "save": ("спасбросок", "save"), "firepower": ("тест на Огневую Мощь", "Firepower test"),
}
_FOW_TESTS = ("skill", "skill_reroll", "save", "firepower")
_FATES_RU = {"wounded": "ранен", "killed": "погиб", "captured": "взят в плен", "freed": "освобождён из плена",
             "recovered": "поправился"}
_FATES_EN = {"wounded": "wounded", "killed": "killed", "captured": "taken prisoner", "freed": "freed",
             "recovered": "recovered"}
_FOW_STATUS = {  # Flames of War's own words for a team's or platoon's status
    "bailed_out": ("покинул машину (Bailed Out)", "Bailed Out"), "not_bailed_out": ("экипаж вернулся", "remounted"),
    "destroyed": ("уничтожен (Destroyed)", "Destroyed"), "bogged": ("застрял (Bogged Down)", "Bogged Down"),
    "not_bogged": ("выбрался", "no longer Bogged Down"),
    "gone_to_ground": ("залёг (Gone to Ground)", "Gone to Ground"),
    "not_gone_to_ground": ("поднялся", "no longer Gone to Ground"), "dug_in": ("окопался (Dug In)", "Dug In"),
    "not_dug_in": ("вышел из окопа", "no longer Dug In"), "pinned": ("прижат огнём (Pinned Down)", "Pinned Down"),
    "not_pinned": ("больше не прижат", "no longer Pinned Down"),
}


def _roll_words(e: dict[str, Any], n: Namer) -> str:
    """«Стрелок №1, 1-е отделение: 15 — попадание (нужно ≥ 11)»."""
    t = n.t
    ru, en = _TEST_WORDS.get(e.get("test"), ("бросок", "roll"))
    who = n.fighter(e["id"]) if e.get("test") in ("g2", "wound_test", "wound_reroll") and e.get("id") else ""
    if e.get("test") in _FOW_TESTS and e.get("id"):
        who = n.piece(e["id"])
    if e.get("test") in ("g2", "hit"):  # the verdict names the test: «16 — попадание»
        head = who
        verdict = t("попадание", "hit") if e.get("passed") else t("промах", "miss")
    else:
        head = ", ".join(x for x in (t(ru, en), who) if x)
        verdict = t("пройден", "passed") if e.get("passed") else t("не пройден", "failed")
    if "passed" not in e:
        return f"{head}: {e.get('value')}"
    told = f"{e.get('value')} — {verdict}, {t('нужно', 'needed')} ≥ {e.get('need')}"
    return f"{head}: {told}" if head else told


def die_meaning(e: dict[str, Any], n: Namer) -> str:
    """What one die meant, beside the die shown large: «промах, нужно ≥ 11»."""
    return _roll_words(e, n).rsplit(f"{e.get('value')} — ", 1)[-1] if "passed" in e else ""


def _fate_words(e: dict[str, Any], n: Namer) -> str:  # noqa: PLR0911 - one case per fate
    t, kind, oid = n.t, e.get("kind", ""), e.get("id")
    if kind in _FATES_RU:
        return f"{n.fighter(oid)} — {t(_FATES_RU[kind], _FATES_EN[kind])}"
    if kind == "vehicle_destroyed":
        return f"{n.vehicle(oid)} — " + t("уничтожен", "destroyed")
    if kind == "vehicle_damaged":
        return f"{n.vehicle(oid)} — " + t(f"повреждён (повреждений: {e.get('damage')})",
                                          f"damaged ({e.get('damage')} damage)")
    if kind == "running_gear":
        return f"{n.vehicle(oid)} — " + t("повреждена ходовая", "running gear damaged")
    if kind == "vehicle_captured":
        return f"{n.vehicle(oid)} — " + t(f"захвачен ({n.side(e.get('side'))})", f"captured ({n.side(e.get('side'))})")
    if kind == "driven_off":
        return f"{n.vehicle(oid)} — " + t("отогнан", "driven off")
    if kind == "morale":
        return f"{n.unit(oid)} — {term('morale', e.get('result'), n.lang)}"
    if kind == "house_damaged":
        dmg = int(e.get("damage") or 0)
        return f"{n.thing(oid)} — " + (t("разрушен", "destroyed") if dmg >= 3 else
                                       t(f"повреждение {dmg} из 3", f"damage {dmg} of 3"))
    if kind == "bunker_hit":
        return f"{n.thing(oid)} — " + t(f"попаданий: {e.get('hits')}", f"hits: {e.get('hits')}")
    if kind.startswith("mine_") and str(oid) not in (n.state.get("mines") or {}):
        return ""  # a mine this reader may not know of (V-MINE-14): no word of it
    if kind == "mine_gone":
        return f"{n.mine(oid)} — " + t("больше не действует", "gone")
    if kind == "mine_revealed":
        return f"{n.mine(oid)} — " + t("обнаружена", "revealed")
    if kind in _FOW_STATUS:
        who = n.platoon(oid) if kind.endswith("pinned") else n.team(oid)
        return f"{who} — {t(*_FOW_STATUS[kind])}"
    if kind == "train_left":
        return f"{n.platoon(oid)} — " + t("покинул стол навсегда (F-TRAIN-22)", "left the table for good (F-TRAIN-22)")
    return ""


def outcome(effects: list[dict[str, Any]] | None, n: Namer) -> str:
    """What the event did, as one clause: the dice with what they needed, then
    every fate it changed; a die that passed and changed nothing says so."""
    if not effects:
        return ""
    rolls = [_roll_words(e, n) for e in effects if e.get("kind") == "roll"]
    fates = [w for e in effects if e.get("kind") != "roll" and (w := _fate_words(e, n))]
    if not fates and any(e.get("passed") for e in effects if e.get("kind") == "roll"):
        fates = [n.t("без последствий", "no effect")]
    return n.t("Итог: ", "Result: ") + "; ".join(rolls + fates) + "."


def sentence(type_: str, data: dict[str, Any], language: str = "ru", *, names: dict[str, str] | None = None,
             state: dict[str, Any] | None = None, sides: dict[str, str] | None = None) -> str:
    """One event as a sentence for a reader (``data`` already filtered for
    him by ``visibility.event_for``)."""
    return _sentence(type_, data if isinstance(data, dict) else {},
                     Namer(names, state or {}, language, sides))


@dataclass
class Line:
    seq: int
    text: str
    voided: bool
    recorded_by: str = ""
    recorded_at: Any = None
    outcome: str = ""


@dataclass
class TurnChapter:
    number: int
    side: str
    lines: list[Line]


def report(events: list[Any], state: dict[str, Any], language: str = "ru", *, names: dict[str, str] | None = None,
           sides: dict[str, str] | None = None,
           data_for: Callable[[Any], dict[str, Any]] | None = None,
           outcomes: dict[int, list[dict[str, Any]]] | None = None) -> list[TurnChapter]:
    """Group the given events' sentences by the turns recorded in the state.
    ``data_for(event)`` gives each event's payload as the reader may see it
    (default: as stored); ``outcomes`` each event's effects by seq (what it
    did, ``engine.effects``), told after its sentence."""
    outcomes = outcomes or {}
    voided = set(state.get("voided", []))
    namer = Namer(names, state, language, sides)
    chapters: list[TurnChapter] = [TurnChapter(0, "", [])]
    bounds = [(t["first_seq"], t["number"], t["side"]) for t in state.get("turns", [])]
    i = 0
    for e in events:
        while i < len(bounds) and e.seq >= bounds[i][0]:
            if chapters[-1].lines or chapters[-1].number:
                chapters.append(TurnChapter(bounds[i][1], bounds[i][2], []))
            else:
                chapters[-1] = TurnChapter(bounds[i][1], bounds[i][2], [])
            i += 1
        data = data_for(e) if data_for else e.data
        by = getattr(getattr(e, "recorded_by", None), "username", "") or ""
        chapters[-1].lines.append(Line(e.seq, _sentence(e.type, data if isinstance(data, dict) else {}, namer),
                                       e.seq in voided, by, getattr(e, "recorded_at", None),
                                       "" if e.seq in voided or (isinstance(data, dict) and data.get(REDACTED))
                                       else outcome(outcomes.get(e.seq), namer)))
    return [c for c in chapters if c.lines]


def final_state(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Per side: fighters by fate and vehicles lost (from the stored projection).
    A Flames of War battle counts teams: destroyed ones as killed, vehicles by kind."""
    if state.get("ruleset") == "fow":
        return _fow_final_state(state)
    out = []
    for side in ("defender", "attacker"):
        fate = {"alive": 0, "wounded": 0, "dead": 0, "captured": 0}
        for f in (state.get("fighters") or {}).values():
            if f.get("side") != side:
                continue
            key = ("dead" if f.get("dead") else "captured" if f.get("captured")
                   else "wounded" if f.get("wounded") else "alive")
            fate[key] += 1
        vehicles = [v for v in (state.get("vehicles") or {}).values() if v.get("side") == side]
        out.append({"side": side, **fate, "mustered": sum(fate.values()), "vehicles": len(vehicles),
                    "vehicles_destroyed": sum(1 for v in vehicles if v.get("destroyed"))})
    return out


FOW_VEHICLES = ("tank", "vehicle", "train")


def _fow_final_state(state: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for side in ("defender", "attacker"):
        teams = [t for t in (state.get("teams") or {}).values() if t.get("side") == side]
        dead = sum(1 for t in teams if t.get("destroyed"))
        vehicles = [t for t in teams if t.get("kind") in FOW_VEHICLES]
        out.append({"side": side, "alive": len(teams) - dead, "wounded": 0, "dead": dead, "captured": 0,
                    "mustered": len(teams), "vehicles": len(vehicles),
                    "vehicles_destroyed": sum(1 for t in vehicles if t.get("destroyed"))})
    return out
