"""The battle report: the log told turn by turn in readable sentences, in the
reader's language (Russian first, English).

Every event type has its own sentence: who did what (by the roster's names,
never a bare id), the dice with their provenance («бросок сервиса 14» or «с
кубика за столом 14»), distances in inches, and the catalog rule that decides
the outcome. A payload the reader may not see in full (a secret mine, see
``battles.engine.visibility``) reads as a sapper at work. No raw key, dict,
``None`` or ``True`` ever reaches the text: a value the report does not know
reads as «неизвестно».

This module tells v11.2's events, each event's outcome (its dice and the fates
it changed, for every ruleset) and groups the sentences by turn; a Flames of
War battle's events are told by ``battles.table.report_fow``; both name the
pieces through ``battles.table.namer``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from battles import engine
from battles.engine.terms import term
from battles.engine.visibility import REDACTED

from .namer import Namer, cite, inches
from .report_fow import fow_final_state, fow_sentence


def _sentence(type_: str, d: dict[str, Any], n: Namer) -> str:  # noqa: C901, PLR0911, PLR0912 - one case per type
    if n.state.get("ruleset", "v11.2") != "v11.2" and (fow := fow_sentence(type_, d, n)) is not None:
        return fow
    t = n.t
    if d.get(REDACTED):
        return t(f"Сапёр {n.fighter(d.get('sapper'))} занят скрытой работой (мины противника показываются, "
                 f"когда их обнаружит ваш сапёр)" + cite("V-MINE-14") + ".",
                 f"Sapper {n.fighter(d.get('sapper'))} is at hidden work (enemy mines are shown once your sapper "
                 f"detects them)" + cite("V-MINE-14") + ".")
    if type_ == "battle_started":
        a, b = d.get("attacker") or n.side("attacker"), d.get("defender") or n.side("defender")
        return t(f"Бой начался: {a} атакуют, {b} обороняются; первыми ходят обороняющиеся",
                 f"The battle began: {a} attack, {b} defend; the defender moves first") + cite("V-TURN-8") + "."
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
                 ) + cite("V-TURN-12") + "."
    if type_ == "correction" and d.get("side"):
        return t(f"{n.side(d['side'])} взяли назад свою запись №{d.get('voids_seq')}",
                 f"{n.side(d['side'])} took back their entry #{d.get('voids_seq')}") + cite("V-TURN-13") + "."
    if type_ == "correction":
        return t(f"Мастер отменил запись №{d.get('voids_seq')}: {d.get('reason', '')}",
                 f"The game master voided entry #{d.get('voids_seq')}: {d.get('reason', '')}") + cite("V-TURN-13")
    if type_ == "sapper_approached":
        return t(f"Сапёр {n.fighter(d.get('sapper'))} вышел к объекту «{n.thing(d.get('object'))}» на "
                 f"{inches(d.get('distance'))}", f"Sapper {n.fighter(d.get('sapper'))} stopped "
                 f"{inches(d.get('distance'))} from {n.thing(d.get('object'))}") + cite("V-SAP-2") + "."
    if type_ == "sapper_worked":
        s = n.fighter(d.get("sapper"))
        if d.get("action") == "lay":
            kind = term("mine_kind", d.get("kind"), n.lang) or t("мина", "mine")
            return t(f"Сапёр {s} установил: {kind} {d.get('object')}", f"Sapper {s} laid a {kind} {d.get('object')}"
                     ) + cite("V-MINE-1", "V-SAP-3") + "."
        return t(f"Сапёр {s} снял объект «{n.thing(d.get('object'))}»",
                 f"Sapper {s} removed {n.thing(d.get('object'))}") + cite("V-SAP-3") + "."
    if type_ == "mine_triggered":
        parts = [t(f"Сработала {n.mine(d.get('mine'))}: противник в {inches(d.get('distance'))}",
                   f"{n.mine(d.get('mine'))} went off: an enemy {inches(d.get('distance'))} away") + cite("V-MINE-2")]
        if d.get("vehicle"):
            if d.get("trawl"):
                parts.append(t(f"{n.vehicle(d['vehicle'])} принял взрыв на трал",
                               f"{n.vehicle(d['vehicle'])} took it on its trawl") + cite("V-MINE-9"))
            else:
                parts.append(t(f"подорвалась {n.vehicle(d['vehicle'])}", f"{n.vehicle(d['vehicle'])} hit it")
                             + cite("V-MINE-5", "V-MINE-6"))
        if d.get("victims"):
            parts.append(t("в радиусе: ", "in the blast: ") + _victims(d["victims"], n) + cite("V-MINE-4"))
        return "; ".join(parts) + "."
    if type_ == "charge_detonated":
        parts = [t(f"Сапёр {n.fighter(d.get('sapper'))} по приказу {n.fighter(d.get('officer'))} подорвал "
                   f"{n.mine(d.get('charge'))}", f"Sapper {n.fighter(d.get('sapper'))} on "
                   f"{n.fighter(d.get('officer'))}'s order set off {n.mine(d.get('charge'))}") + cite("V-MINE-10")]
        if d.get("victims"):
            parts.append(t("в радиусе: ", "in the blast: ") + _victims(d["victims"], n) + cite("V-MINE-11"))
        if d.get("objects"):
            parts.append(t("лёгким укрытием стали: ", "now light cover: ") + n.many(d["objects"]) + cite("V-MINE-12"))
        return "; ".join(parts) + "."
    if type_ == "mine_revealed":
        return t(f"Сапёр {n.fighter(d.get('sapper'))} в {inches(d.get('distance'))} обнаружил: "
                 f"{n.mine(d.get('mine'))}; владелец обязан её показать",
                 f"Sapper {n.fighter(d.get('sapper'))} {inches(d.get('distance'))} away detected "
                 f"{n.mine(d.get('mine'))}; its owner must show it") + cite("V-MINE-13", "V-MINE-14") + "."
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
        return t("Объекты поля боя согласованы", "Battlefield objects agreed") + cite("V-TURN-5") + (
            ": " + "; ".join(parts) if parts else "") + "."
    if type_ == "postures_declared":
        items = [f"{n.unit(u)} — {term('posture', p, n.lang)}" for u, p in (d.get("units") or {}).items()]
        items += [f"{n.fighter(f)} — {term('posture', p, n.lang)}" for f, p in (d.get("fighters") or {}).items()]
        return t(f"{n.side(d.get('side'))} объявили положения", f"{n.side(d.get('side'))} declared postures"
                 ) + cite("V-TURN-9") + (": " + "; ".join(items) if items else "") + "."
    if type_ == "fighters_moved":
        extra = []
        if d.get("road"):
            extra.append(t("по дороге", "along a road") + cite("V-TERR-7"))
        if d.get("enter_house"):
            extra.append(t(f"вошли в {n.thing(d['enter_house'])}", f"entered {n.thing(d['enter_house'])}"))
        if d.get("leave_house"):
            extra.append(t("вышли из дома", "left the house"))
        if d.get("through_opening") and (d.get("enter_house") or d.get("leave_house")):  # defaults to true
            extra.append(t("через проём", "through an opening") + cite("V-HOUSE-8"))
        if d.get("floors"):
            extra.append(t(f"этажей вверх: {d['floors']}", f"floors climbed: {d['floors']}") + cite("V-HOUSE-11"))
        if d.get("obstacle_height"):
            extra.append(t(f"через препятствие высотой {inches(d['obstacle_height'])}",
                           f"over an obstacle {inches(d['obstacle_height'])} high"))
        if d.get("wire"):
            extra.append(t("через: ", "through ") + n.many(d["wire"]) + cite("V-WIRE-1"))
        if d.get("water"):
            extra.append(t("по мосту через воду", "over water by a bridge") if d.get("bridge")
                         else t("вброд через воду", "across water"))
        if d.get("mg_spacing") is not None:
            extra.append(t(f"расчёт пулемёта в {inches(d['mg_spacing'])} друг от друга",
                           f"MG crew within {inches(d['mg_spacing'])} of each other") + cite("V-MG-5"))
        return t(f"{n.many(d.get('fighters'), n.fighter)} передвинулись на {inches(d.get('distance'))}",
                 f"{n.many(d.get('fighters'), n.fighter)} moved {inches(d.get('distance'))}") + cite("V-TURN-10") + (
            ", " + ", ".join(extra) if extra else "") + "."
    if type_ == "vehicle_moved":
        extra = []
        if d.get("road"):
            extra.append(t("по дороге", "along a road"))
        if d.get("railway"):
            extra.append(t("по железной дороге", "along a railway") + cite("V-TERR-5"))
        if d.get("wire"):
            extra.append(t("смяв: ", "crushing ") + n.many(d["wire"]) + cite("V-WIRE-3"))
        if d.get("towing"):
            extra.append(t(f"буксируя {n.vehicle(d['towing'])}", f"towing {n.vehicle(d['towing'])}"))
        return t(f"{n.vehicle(d.get('vehicle'))} прошёл {inches(d.get('distance'))}",
                 f"{n.vehicle(d.get('vehicle'))} moved {inches(d.get('distance'))}") + cite("V-TURN-10") + (
            ", " + ", ".join(extra) if extra else "") + "."
    if type_ == "fire":
        return _fire(d, n)
    if type_ == "smoke_fired":
        return t(f"{n.thing(d.get('shooter'))} ставит дымовую завесу {d.get('smoke')} по указанию "
                 f"{n.fighter(d.get('officer'))} (до центра {inches(d.get('officer_distance'))})",
                 f"{n.thing(d.get('shooter'))} lays smoke screen {d.get('smoke')} on {n.fighter(d.get('officer'))}'s "
                 f"call ({inches(d.get('officer_distance'))} to its centre)") + cite("V-SMOKE-1", "V-SMOKE-2") + "."
    if type_ == "fire_corrected":
        if d.get("via") == "radio":
            how = t(f"по радио через {n.many(d.get('radio_operators'), n.fighter)}",
                    f"by radio through {n.many(d.get('radio_operators'), n.fighter)}")
            if d.get("battery_officer"):
                how += t(f" до офицера батареи {n.fighter(d['battery_officer'])}",
                         f" to battery officer {n.fighter(d['battery_officer'])}")
            rule = cite("V-CORR-3", "V-RADIO-1")
        else:
            how = t(f"голосом, {inches(d.get('distance'))}", f"by voice, {inches(d.get('distance'))}")
            rule = cite("V-CORR-2")
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
                 f"{n.fighter(d.get('defender'))} at {inches(d.get('distance'))}") + cite("V-MELEE-1", "V-MELEE-2") + (
            t("; броски: ", "; rolls: ") + "; ".join(rolls) if rolls else "") + "."
    if type_ == "wound_test":
        text = t(f"Тест на ранение: {n.fighter(d.get('fighter'))}, {n.die(d.get('die'))}",
                 f"Wound test: {n.fighter(d.get('fighter'))}, {n.die(d.get('die'))}") + cite("V-MED-3")
        if d.get("medic"):
            text += t(f"; медик {n.fighter(d['medic'])} в {inches(d.get('medic_distance'))}",
                      f"; medic {n.fighter(d['medic'])} {inches(d.get('medic_distance'))} away")
            if d.get("reroll"):
                text += t(f", переброс: {n.die(d['reroll'])}", f", re-roll: {n.die(d['reroll'])}") + cite("V-MED-4")
        return text + "."
    if type_ == "morale_test":
        text = t(f"Тест на мораль: {n.unit(d.get('unit'))}, {n.die(d.get('die'))}",
                 f"Morale test: {n.unit(d.get('unit'))}, {n.die(d.get('die'))}") + cite("V-TEST-3…6")
        if d.get("officer_distances"):
            text += t("; офицеры: ", "; officers: ") + ", ".join(
                f"{n.fighter(k)} {inches(v)}" for k, v in d["officer_distances"].items())
        if d.get("radio_link"):
            text += t("; связь по радио", "; radio link") + cite("V-RADIO-4")
        if d.get("enemy_distances"):
            text += t("; противник: ", "; enemy: ") + ", ".join(
                f"{n.thing(k)} {inches(v)}" for k, v in d["enemy_distances"].items())
        if d.get("new_commander"):
            text += t(f"; командование принял {n.fighter(d['new_commander'])}",
                      f"; {n.fighter(d['new_commander'])} takes command") + cite("V-TEST-6")
        return text + "."
    if type_ == "order_given":
        text = t(f"{n.fighter(d.get('officer'))} отдал приказ: {n.unit(d.get('unit'))}",
                 f"{n.fighter(d.get('officer'))} gave an order to {n.unit(d.get('unit'))}") + cite("V-CMD-1")
        if d.get("distance") is not None:
            text += t(f", дальний боец в {inches(d['distance'])}", f", farthest fighter {inches(d['distance'])} away")
        if d.get("radio_operators"):
            text += t(f", по радио через {n.many(d['radio_operators'], n.fighter)}",
                      f", by radio through {n.many(d['radio_operators'], n.fighter)}") + cite("V-RADIO-2")
        if d.get("talk_distances"):
            text += t(", голосом: ", ", by voice: ") + ", ".join(inches(x) for x in d["talk_distances"])
        return text + "."
    if type_ == "prisoner_taken":
        text = t(f"{n.fighter(d.get('captor'))} взял в плен {n.fighter(d.get('prisoner'))} на "
                 f"{inches(d.get('distance'))}", f"{n.fighter(d.get('captor'))} took {n.fighter(d.get('prisoner'))} "
                 f"prisoner at {inches(d.get('distance'))}") + cite("V-POW-1", "V-POW-2")
        if d.get("nearest_fit_enemy") is not None:
            text += t(f"; ближайший невредимый враг в {inches(d['nearest_fit_enemy'])}",
                      f"; nearest unwounded enemy {inches(d['nearest_fit_enemy'])} away")
        return text + "."
    if type_ == "prisoner_handled":
        p = n.fighter(d.get("prisoner"))
        return {"kill": t(f"Пленный {p} убит", f"Prisoner {p} was killed") + cite("V-POW-4"),
                "leave": t(f"Пленного {p} оставили на месте", f"Prisoner {p} was left behind") + cite("V-POW-4"),
                "send": t(f"Пленного {p} отправили в тыл", f"Prisoner {p} was sent to the rear") + cite("V-POW-5"),
                }.get(d.get("action"), t(f"Решение о пленном {p}", f"A decision on prisoner {p}")) + "."
    if type_ == "prisoner_freed":
        text = t(f"{n.fighter(d.get('prisoner'))} освобождён из плена: офицер {n.fighter(d.get('officer'))} в "
                 f"{inches(d.get('officer_distance'))}", f"{n.fighter(d.get('prisoner'))} was freed: officer "
                 f"{n.fighter(d.get('officer'))} {inches(d.get('officer_distance'))} away") + cite("V-POW-7")
        if d.get("nearest_enemy") is not None:
            text += t(f"; ближайший враг в {inches(d['nearest_enemy'])}",
                      f"; nearest enemy {inches(d['nearest_enemy'])} away")
        return text + "."
    if type_ == "embarked":
        riders = d.get("role") == "riders"
        return t(f"{n.many(d.get('fighters'), n.fighter)} сели в {n.vehicle(d.get('vehicle'))} "
                 f"{'десантом на броне' if riders else 'пассажирами'}",
                 f"{n.many(d.get('fighters'), n.fighter)} boarded {n.vehicle(d.get('vehicle'))} "
                 f"{'as riders' if riders else 'as passengers'}") + cite("V-RIDE-1" if riders else "V-TRANS-1") + "."
    if type_ == "disembarked":
        return t(f"{n.many(d.get('fighters'), n.fighter)} высадились из {n.vehicle(d.get('vehicle'))} в "
                 f"{inches(d.get('distance'))} и окопались", f"{n.many(d.get('fighters'), n.fighter)} got off "
                 f"{n.vehicle(d.get('vehicle'))} within {inches(d.get('distance'))}, dug in") + cite("V-TRANS-3") + "."
    if type_ == "capture_attempted":
        who = ", ".join(f"{n.fighter(k)} {inches(v)}" for k, v in (d.get("infantry") or {}).items())
        text = t(f"Попытка захватить {n.vehicle(d.get('vehicle'))}: {who or 'никого'}",
                 f"An attempt to capture {n.vehicle(d.get('vehicle'))}: {who or 'no one'}")
        text += t("; техника окружена", "; the vehicle is surrounded") if d.get("surrounded") else ""
        if d.get("nearest_friendly") is not None:
            text += t(f"; ближайшие свои в {inches(d['nearest_friendly'])}",
                      f"; nearest friends {inches(d['nearest_friendly'])} away")
        return text + f"; {n.die(d.get('die'))}" + cite("V-CAPT-5") + "."
    if type_ == "vehicle_boarded":
        return t(f"{n.fighter(d.get('fighter'))} занял место в {n.vehicle(d.get('vehicle'))} (экипаж сожжён)",
                 f"{n.fighter(d.get('fighter'))} got into {n.vehicle(d.get('vehicle'))} (its crew burnt)"
                 ) + cite("V-FLAME-3", "V-FLAME-4") + "."
    if type_ == "crew_boarded":
        return t(f"{n.many(d.get('fighters'), n.fighter)} заняли места экипажа {n.vehicle(d.get('vehicle'))}",
                 f"{n.many(d.get('fighters'), n.fighter)} crewed {n.vehicle(d.get('vehicle'))}"
                 ) + cite("V-CREW-4", "V-FLAME-4") + "."
    if type_ == "crew_dismounted":
        return t(f"{n.many(d.get('fighters'), n.fighter)} покинули {n.vehicle(d.get('vehicle'))} и окопались в "
                 f"{inches(d.get('distance'))}", f"{n.many(d.get('fighters'), n.fighter)} left "
                 f"{n.vehicle(d.get('vehicle'))}, dug in within {inches(d.get('distance'))}") + cite("V-CREW-4") + "."
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
        notes.append(t("с высоты", "from a height") + cite("V-TERR-9"))
    if d.get("corrected"):
        notes.append(t("по корректировке", "on a correction") + cite("V-CORR-1"))
    if d.get("through_smoke"):
        notes.append(t(f"сквозь дым: {n.thing(d['through_smoke'])}", f"through {n.thing(d['through_smoke'])}"))
    if d.get("ambush"):
        notes.append(t("из засады", "from ambush") + cite("V-GUN-4"))
    if d.get("path_distance") is not None:
        notes.append(t(f"до линии прицела {inches(d['path_distance'])}",
                       f"{inches(d['path_distance'])} to the aim line") + cite("V-GUN-5"))
    if d.get("spot"):
        notes.append(t(f"обнаружение: {n.die(d['spot'])}", f"spotting: {n.die(d['spot'])}") + cite("V-SNIP-3"))
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
            bits.append(t("лёгкое укрытие", "light cover") + cite("V-COVER-2"))
        if x.get("embrasure"):
            bits.append(t("у амбразуры", "at the embrasure") + cite("V-BUNK-2"))
        struck.append(f"{n.fighter(x.get('fighter'))}" + (f" ({'; '.join(bits)})" if bits else ""))
    if struck:
        notes.append(t("под огнём: ", "under fire: ") + ", ".join(struck) + cite("G-2"))
    near = []
    for x in d.get("vehicles_struck") or ():
        if not isinstance(x, dict):
            continue
        where = ""
        if x.get("distance") is not None:
            where = " (" + t(f"в {inches(x['distance'])} от разрыва", f"{inches(x['distance'])} from the impact") + ")"
        near.append(n.vehicle(x.get("vehicle")) + where)
    if near:
        notes.append(t("техника в радиусе: ", "vehicles in the radius: ") + ", ".join(near) + cite("V-MORT-4"))
    rules = FIRE_RULES.get(d.get("weapon"), ()) + TARGET_RULES.get(d.get("target"), ())
    return text + (", " + ", ".join(notes) if notes else "") + cite("V-TURN-11", *rules) + "."


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
    wound = [e for e in effects if e.get("kind") == "roll" and e.get("test") in ("wound_test", "wound_reroll")]
    if wound and wound[-1].get("passed") is False and not any(e.get("kind") != "roll" for e in effects):
        # V-MED-3/V-MED-4: the last die failed and nothing changed: G-10's reading, in words
        fates.append(f"{n.fighter(wound[-1].get('id'))} — " + n.t("остаётся раненым, тест снова в свой следующий ход (G-10)",
                                                             "stays wounded and tests again on his next turn (G-10)"))
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
        return fow_final_state(state)
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
