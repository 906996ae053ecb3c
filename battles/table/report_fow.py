"""The log's sentences for a Flames of War battle (``battles.table.report``
calls ``fow_sentence`` for every event of a battle not played by v11.2): who
did what to whom by the roster's names (teams with their platoon), distances in
the battle's units, the dice with their provenance, what the table decided
where the seeds give no rule (G-F1), and the F- rule. ``fow_final_state``
counts a FoW battle's teams for the page's final tally.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from battles.engine.terms import term

from .namer import Namer, cite


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
        return t(f"{who}: поворот на месте", f"{who}: pivoted in place") + cite("G-F1") + "."
    double = bool(d.get("at_the_double"))
    text = t(f"{who}: движение на {n.dist(d.get('distance'))}", f"{who}: moved {n.dist(d.get('distance'))}")
    if double:
        text += t(" С Удвоенной Скоростью", " At the Double") + cite("F-DBL-1")
    extra = []
    if d.get("turned_for"):
        extra.append(t("повороты: ", "turning for ") + ", ".join(term("fow_turn_reason", r, n.lang)
                                                                 for r in d["turned_for"]) + (cite("F-DBL-3") if double else ""))
    if d.get("difficult_terrain"):
        extra.append(t("через Труднопроходимую Местность", "through Difficult Terrain"))
    if d.get("closest_enemy") is not None:
        extra.append(t(f"ближе всего к врагу — {n.dist(d['closest_enemy'])}",
                       f"closest to the enemy {n.dist(d['closest_enemy'])}") + (cite("F-DBL-6") if double else ""))
    if d.get("bulletproof_cover"):
        extra.append(t("оканчивает в Пуленепробиваемом Укрытии", "ends in Bulletproof Cover"))
    return text + ("; " + "; ".join(extra) if extra else "") + ("" if double else cite("G-F1")) + "."


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
    rule = cite("G-F1", "F-DBL-11") if kind != "direct" else cite("G-F1")
    return text + rule + "."


def _fow_status(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    who = n.platoon(d.get("subject")) if d.get("status") == "pinned" else n.piece(d.get("subject"))
    label = term("fow_status", d.get("status"), n.lang)
    now = f"{who} — {label}" if d.get("value", True) else t(f"{who} — снято: {label}", f"{who} — no longer {label}")
    text = t(f"По основным правилам стол решил: {now}", f"By the core rules the table decided: {now}")
    reason = str(d.get("reason") or "").strip()
    return text + (t(f"; причина: {reason}", f"; reason: {reason}") if reason else "") + cite("G-F1") + "."


def _fow_dig(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.platoon(d.get('platoon'))}: попытка Окопаться вместо движения, тест на Умение — {n.die(d.get('die'))}",
             f"{n.platoon(d.get('platoon'))}: tried to Dig In instead of moving, Skill test — {n.die(d.get('die'))}"
             ) + cite("F-DIG-1", "F-DIG-3")
    if d.get("reroll"):
        near = d.get("pioneer_supply_distance")
        where = t(f" в {n.dist(near)}", f" {n.dist(near)} away") if near is not None else ""
        text += t(f"; переброс с Сапёрной техникой Снабжения{where}: {n.die(d['reroll'])}",
                  f"; re-rolled with a Pioneer Supply vehicle{where}: {n.die(d['reroll'])}") + cite("F-DIG-10")
    if d.get("in_water"):
        text += t("; в воде, на мосту или броде (не окапываются): ", "; in water, on a bridge or ford (no digging): "
                  ) + _fow_teams(d["in_water"], n) + cite("F-DIG-11")
    if d.get("in_cover"):
        text += t("; уже в Пуленепробиваемом Укрытии: ", "; already in Bulletproof Cover: ") + _fow_teams(
            d["in_cover"], n) + cite("F-DIG-8")
    return text + "."


def _fow_dig_reroll(d: dict[str, Any], n: Namer) -> str:
    t, near = n.t, n.dist(d.get("pioneer_supply_distance"))
    return t(f"{n.platoon(d.get('platoon'))}: переброс неудавшегося теста на Окапывание с Сапёрной техникой Снабжения "
             f"в {near} — {n.die(d.get('die'))}",
             f"{n.platoon(d.get('platoon'))}: failed Dig In test re-rolled with a Pioneer Supply vehicle {near} away — "
             f"{n.die(d.get('die'))}") + cite("F-DIG-10") + "."


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
        ", ".join(hits) or t("нет", "none")) + cite("F-AIR-1")
    return text + t("; взводы с попаданиями Прижаты Огнём", "; every platoon hit is Pinned Down") + cite("F-AIR-15") + t(
        "; самолёты ушли на базу перевооружаться", "; the aircraft return to base to re-arm") + cite("F-AIR-16") + "."


def _fow_air_hit(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    hits = [f"{n.team(h.get('team'))} ({term('fow_air_weapon', h.get('weapon'), n.lang)})"
            for h in d.get("hits") or () if isinstance(h, dict)]
    who = d.get("aircraft") or t("самолёты", "aircraft")
    return t(f"Воздушная атака ({n.side(d.get('side'))}), самолёты «{who}»: попадания — ",
             f"Air attack ({n.side(d.get('side'))}), aircraft «{who}»: hits — ") + ", ".join(hits) + t(
        "; спасброски — по одному", "; the saves follow one at a time") + cite("F-AIR-1") + t(
        "; взводы с попаданиями Прижаты Огнём", "; every platoon hit is Pinned Down") + cite("F-AIR-15") + "."


def _fow_air_save(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.team(d.get('team'))}: спасбросок против попадания самолётов «{d.get('aircraft')}» — {n.die(d.get('save'))}",
             f"{n.team(d.get('team'))}: save against the hit of aircraft «{d.get('aircraft')}» — {n.die(d.get('save'))}")
    if d.get("firepower_die"):
        text += t(f"; тест на Огневую Мощь {n.die(d['firepower_die'])}", f"; Firepower test {n.die(d['firepower_die'])}")
    return text + cite("F-AIR-1") + "."


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
        ", ".join(openings) or t("нет", "none")) + cite("F-BLD-1")
    if d.get("inside"):
        text += t("; внутри: ", "; inside: ") + _fow_teams(d["inside"], n) + cite("F-BLD-2")
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
                       f"Skill test (Contested building) — {n.die(d['die'])}") + cite("F-BLD-8"))
    if d.get("base_width") is not None:
        extra.append(t(f"ширина подставки {n.dist(d['base_width'])}", f"base {n.dist(d['base_width'])} wide"))
    if d.get("bulletproof_cover"):
        extra.append(t("оканчивает в Пуленепробиваемом Укрытии", "ends in Bulletproof Cover"))
    return text + ("; " + "; ".join(extra) if extra else "") + cite("F-BLD-7") + "."


def _fow_line(d: dict[str, Any], n: Namer) -> str:
    t, side = n.t, n.side(d.get("side"))
    if d.get("existing"):
        return t(f"{side}: Железнодорожной Линией служит та, что уже есть на столе",
                 f"{side}: the table's own Railway Line is used") + cite("F-TRAIN-2") + "."
    text = t(f"{side} проложили Железнодорожную Линию", f"{side} laid the Railway Line")
    if d.get("length"):
        text += t(f" длиной {n.dist(d['length'])}", f", {n.dist(d['length'])} long")
    text += cite("F-TRAIN-7")
    if d.get("bridges"):
        text += t(f"; мостов через реки и ручьи — {d['bridges']}", f"; bridges over rivers and streams: {d['bridges']}"
                  ) + cite("F-TRAIN-9")
    if d.get("buildings_moved"):
        text += t("; отодвинуты здания: ", "; buildings moved aside: ") + ", ".join(
            str(b) for b in d["buildings_moved"]) + cite("F-TRAIN-10")
    if d.get("through_hills"):
        text += t("; идёт через холм", "; runs over a hill") + cite("F-TRAIN-11")
    if d.get("through_buildings"):
        text += t("; на линии оставлено здание", "; a building is left on the line") + cite("F-TRAIN-10")
    if d.get("crosses_deployment_area") is False:
        text += t("; не пересекает Зону Расстановки", "; does not cross the Deployment Area") + cite("F-TRAIN-16")
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
             f"Platoons is {n.dist(d.get('train_length'))} long") + cite("F-TRAIN-14", "F-TRAIN-15", "F-TRAIN-16") + "."


def _fow_train_moved(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    way = t("назад", "back") if d.get("direction") == "backward" else t("вперёд", "forward")
    text = t(f"{_fow_train(d, n)}: движение по Линии {way} на {n.dist(d.get('distance'))}",
             f"{_fow_train(d, n)}: moved {way} {n.dist(d.get('distance'))} along the line") + cite("F-TRAIN-19")
    if d.get("wrecks_pushed"):
        text += t("; столкнул с пути Обломки: ", "; pushed Wreckage off the track: ") + _fow_teams(
            d["wrecks_pushed"], n) + cite("F-TRAIN-23")
    if d.get("leaves_table"):
        text += t("; уходит со стола", "; goes off the table") + cite("F-TRAIN-22")
    return text + "."


def _fow_escort(d: dict[str, Any], n: Namer) -> str:
    p = (n.state.get("platoons") or {}).get(str(d.get("platoon") or "")) or {}
    train = n.t(f" ({n.platoon(p['train'])})", f" ({n.platoon(p['train'])})") if p.get("train") else ""
    return n.t(f"{n.platoon(d.get('platoon'))} сходит с бронепоезда{train} и проходит ещё {n.dist(d.get('distance'))}",
               f"{n.platoon(d.get('platoon'))} leaves the armoured train{train}, moving an extra "
               f"{n.dist(d.get('distance'))}") + cite("F-TRAIN-25") + "."


def _fow_recon_move(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.team(d.get('team'))}: Передвижение Разведки При Расстановке на {n.dist(d.get('distance'))}",
             f"{n.team(d.get('team'))}: recon deployment move of {n.dist(d.get('distance'))}")
    if d.get("at_the_double"):
        text += t(" С Удвоенной Скоростью", " At the Double") + cite("F-RECON-11")
    text += cite("F-RECON-6")
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
        text += t("; враги — ", "; enemies — ") + "; ".join(enemies) + cite("F-RECON-7", "F-RECON-8", "F-RECON-9")
    return text + "."


def _fow_disengaged(d: dict[str, Any], n: Namer) -> str:
    t = n.t
    text = t(f"{n.platoon(d.get('platoon'))}: «Отходим!», тест на Умение — {n.die(d.get('die'))}",
             f"{n.platoon(d.get('platoon'))}: Disengage, Skill test — {n.die(d.get('die'))}") + cite("F-RECON-18")
    moves = [f"{n.team(m.get('team'))} {n.dist(m.get('distance'))}" for m in d.get("moves") or ()
             if isinstance(m, dict)]
    if moves:
        text += t("; отходят: ", "; falling back: ") + ", ".join(moves) + cite("F-RECON-19")
    if d.get("out_of_reach"):
        text += t("; весь взвод вне Дистанции Стрельбы, Линии Видимости или Сектора Стрельбы",
                  "; the whole platoon is out of Range, Line of Sight or Field of Fire") + cite("F-RECON-24")
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
    if type_ == "step_ended":  # G-F1: the Steps of a turn in order (Movement, Shooting, Assault)
        ended, nxt = ("movement", "shooting") if d.get("step") == "movement" else ("shooting", "assault")
        return t(f"{n.side(d.get('side'))}: {term('fow_step', ended, 'ru')} окончен, начинается "
                 f"{term('fow_step', nxt, 'ru')}",
                 f"{n.side(d.get('side'))}: the {term('fow_step', ended, 'en')} is over, the "
                 f"{term('fow_step', nxt, 'en')} begins") + cite("G-F1") + "."
    if type_ == "assault_launched":
        against = t(f" на {n.platoon(d['against'])}", f" on {n.platoon(d['against'])}") if d.get("against") else ""
        return t(f"Атака в ближнем бою{against}: атакуют {_fow_teams(d.get('teams'), n)}",
                 f"Assault{against}: {_fow_teams(d.get('teams'), n)} assault") + cite("G-F1") + t(
            "; итог решает стол по основным правилам.", "; the table decides it by the core rules.")
    if type_ == "went_to_ground":
        return t("Залегли (Gone to Ground), не двигаясь и не стреляя в этот ход: ",
                 "Gone to Ground, having neither moved nor shot this turn: ") + _fow_teams(d.get("teams"), n) + cite(
            "G-F1") + "."
    if type_ == "foxholes_marked":
        return t(f"{n.platoon(d.get('platoon'))}: позиции Окопанных отделений помечены перед Контратакой",
                 f"{n.platoon(d.get('platoon'))}: its Dug In positions are marked before the Counterattack"
                 ) + cite("F-DIG-19") + "."
    if type_ == "foxholes_reoccupied":
        return t(f"{n.platoon(d.get('platoon'))}: снова в своих окопах — {_fow_teams(d.get('teams'), n)}",
                 f"{n.platoon(d.get('platoon'))}: back in its foxholes — {_fow_teams(d.get('teams'), n)}"
                 ) + cite("F-DIG-20") + t("; остальные больше не Окопаны", "; the others are no longer Dug In") + cite(
            "F-DIG-21") + "."
    if type_ == "railway_edges_chosen":
        return t(f"{n.side(d.get('side'))} выбрали края стола для Железнодорожной Линии: "
                 f"{term('fow_edges', d.get('edges'), n.lang)}",
                 f"{n.side(d.get('side'))} chose the table edges for the Railway Line: "
                 f"{term('fow_edges', d.get('edges'), n.lang)}") + cite("F-TRAIN-4") + "."
    if type_ == "railway_point_chosen":
        edge = term("fow_edge", d.get("edge"), n.lang)
        return t(f"{n.side(d.get('side'))}: точка Железнодорожной Линии на {edge} краю стола, "
                 f"{n.dist(d.get('position'))} от его левого угла",
                 f"{n.side(d.get('side'))}: a Railway Line point on the {edge} edge, {n.dist(d.get('position'))} "
                 f"from its left corner") + cite("F-TRAIN-5", "F-TRAIN-6") + "."
    if type_ == "train_deployed":
        return t(f"{_fow_train(d, n)} Расставлен (не в Резерве): въедет на стол в начале своего первого Шага Движения",
                 f"{_fow_train(d, n)} Deployed (not in Reserve): it enters the table at the start of its first "
                 "Movement Step") + cite("F-TRAIN-14") + "."
    if type_ == "train_held_back":
        if d.get("held_in") == "ambush":
            return t(f"{_fow_train(d, n)} оставлен вне стола в Засаде", f"{_fow_train(d, n)} held back in Ambush"
                     ) + cite("F-TRAIN-17") + "."
        return t(f"{_fow_train(d, n)} оставлен вне стола в Резерве", f"{_fow_train(d, n)} held back in Reserve"
                 ) + cite("F-TRAIN-18") + "."
    if type_ == "ambush_placed":
        seen = [f"{n.team(s.get('team'))} {n.dist(s.get('distance'))}" for s in d.get("recon_in_sight") or ()
                if isinstance(s, dict)]
        return t(f"{n.team(d.get('team'))}: размещение из Засады", f"{n.team(d.get('team'))}: placed from Ambush") + (
            t("; вражеская Разведка в Линии Видимости: ", "; enemy Reconnaissance in Line of Sight: ") + ", ".join(seen)
            if seen else "") + cite("F-RECON-4") + "."
    if type_ == "passengers_changed":
        return t(f"{n.team(d.get('team'))}: Пассажиры — {_fow_teams(d.get('passengers'), n)}",
                 f"{n.team(d.get('team'))}: Passengers — {_fow_teams(d.get('passengers'), n)}") + cite(
            "F-RECON-3", "F-RECON-12") + "."
    if type_ == "recon_deployment_started":
        return t(f"Расстановка Разведки: первыми выбирают взвод {n.side(d.get('first'))}",
                 f"Recon deployment: {n.side(d.get('first'))} choose a platoon first") + cite(
            "F-RECON-6", "F-RECON-13") + "."
    if type_ == "recon_deployment_ended":
        note = str(d.get("note") or "").strip()
        return t("Расстановка Разведки окончена", "Recon deployment over") + cite("F-RECON-6") + (
            f": {note}" if note else "") + "."
    if type_ == "disengage_declared":
        return t(f"{n.platoon(d.get('platoon'))} заявляет «Отходим!» под огнём: {_fow_teams(d.get('shooters'), n)}; "
                 "каждый из них сначала стреляет один раз",
                 f"{n.platoon(d.get('platoon'))} declares Disengage under fire from {_fow_teams(d.get('shooters'), n)}; "
                 "each of them first fires one shot") + cite("F-RECON-16", "F-RECON-17") + "."
    if type_ == "unarmoured_save_rolled":
        fire = t("против артобстрела", "against a bombardment") if d.get("fire") == "artillery" else t(
            "против прямого огня", "against direct fire")
        return t(f"{n.team(d.get('team'))}: спасбросок небронированной техники {fire} — {n.die(d.get('die'))}",
                 f"{n.team(d.get('team'))}: unarmoured vehicle save {fire} — {n.die(d.get('die'))}") + cite(
            "F-RECON-2") + "."
    return None


_FOW_SENTENCES: dict[str, Callable[[dict[str, Any], Namer], str]] = {
    "force_mustered": _fow_force, "team_moved": _fow_moved, "team_shot": _fow_shot, "status_set": _fow_status,
    "dig_in_attempted": _fow_dig, "dig_in_rerolled": _fow_dig_reroll, "air_attack_resolved": _fow_air,
    "air_attack_hit": _fow_air_hit, "air_save_rolled": _fow_air_save, "building_placed": _fow_building_placed,
    "building_move": _fow_building_move, "railway_line_laid": _fow_line, "train_entered": _fow_train_entered,
    "train_moved": _fow_train_moved, "escort_left_train": _fow_escort, "recon_deployment_move": _fow_recon_move,
    "disengaged": _fow_disengaged,
}


def fow_sentence(type_: str, d: dict[str, Any], n: Namer) -> str | None:
    """A Flames of War event as a sentence: who did what to whom by the roster's
    names (teams with their platoon), distances in the battle's units, the
    dice with their provenance, what the table decided where the seeds give no
    rule (G-F1), and the F- rule. None leaves the event to the shared cases
    (battle_ended, correction); the outcome clause (``outcome``) follows."""
    if type_ in _FOW_SENTENCES:
        return _FOW_SENTENCES[type_](d, n)
    return _fow_simple(d, n, type_)


FOW_VEHICLES = ("tank", "vehicle", "train")


def fow_final_state(state: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for side in ("defender", "attacker"):
        teams = [t for t in (state.get("teams") or {}).values() if t.get("side") == side]
        dead = sum(1 for t in teams if t.get("destroyed"))
        vehicles = [t for t in teams if t.get("kind") in FOW_VEHICLES]
        out.append({"side": side, "alive": len(teams) - dead, "wounded": 0, "dead": dead, "captured": 0,
                    "mustered": len(teams), "vehicles": len(vehicles),
                    "vehicles_destroyed": sum(1 for t in vehicles if t.get("destroyed"))})
    return out
