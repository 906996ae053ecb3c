"""Infantry matters decided between fighters: melee (V-MELEE), the wound test
and the medic (V-MED), morale (V-MORALE, V-TEST-3..7), orders and command
distances (V-CMD, V-OFF, V-RADIO), and prisoners (V-POW)."""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.dice import Die, value
from battles.engine.events import Context, event_type
from battles.engine.schema import Payload
from battles.engine.state import BattleState, Fighter

from .common import (
    capture,
    command_distance,
    commanded_by_officers,
    credit_of,
    enemy,
    fighter,
    is_officer,
    kill,
    posture_of,
    refuse,
    require_alive,
    require_fit,
    require_own_turn,
    success,
    unit_commander,
    wound,
)
from .core import require_running

Id = Annotated[str, Meta(min_length=1, max_length=64)]


# --- melee -------------------------------------------------------------------------
class MeleeRoll(Payload):
    attacker: Die
    defender: Die


class Melee(Payload):
    """Melee at 1" (V-MELEE-1): simultaneous d20 rolls plus bonuses; the lower
    loses and is wounded (V-MELEE-2, -3). Ties are re-rolled (G-13): every roll
    but the last is a tie. Against a wounded opponent no rolls (V-MELEE-4)."""

    attacker: Id
    defender: Id
    distance: Annotated[float, Meta(ge=0)]
    rolls: Annotated[list[MeleeRoll], Meta(max_length=20)] = []


melee = event_type(
    "melee", Melee, rules=("V-MELEE-1", "V-MELEE-2", "V-MELEE-3", "V-MELEE-4", "V-MELEE-5", "V-MED-1"),
    title_ru="Рукопашный бой", title_en="Melee",
)


def melee_bonus(f: Fighter, r: dict[str, Any]) -> int:
    table = r["melee_bonus"]
    return f.melee_bonus + table.get(f.cls, 0) + (table.get(f.rank, 0) if f.rank else 0)


@melee.check
def _check_melee(state: BattleState, p: Melee, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    a, d = fighter(state, p.attacker), fighter(state, p.defender)
    require_fit(state, a, r)  # the attacker's own status before turn order
    require_own_turn(state, a.side)
    require_alive(d)
    if not enemy(a.side, d.side):
        raise refuse("S-TARGET", "Рукопашная — только с противником.", "Melee is fought only with an enemy.")
    if p.distance > r["melee_distance"]:
        raise refuse("V-MELEE-1", "Рукопашный бой возможен только на расстоянии 1\".",
                     "Melee is possible only at 1\" between the fighters.")
    if not r["postures"][posture_of(state, a)]["melee"]:
        raise refuse("V-MELEE-1", "В этом положении рукопашная не начинается (G-4).",
                     "Melee cannot be started in this posture (G-4).")
    for f in (a, d):
        if f.melee_turn == state.turn:
            raise refuse("V-MELEE-5", f"Боец {f.id} уже вёл рукопашный бой в этом ходу.",
                         f"Fighter {f.id} has already fought a melee this turn.")
    if d.wounded:
        if p.rolls:
            raise refuse("V-MELEE-4", "С раненым — без теста: броски не нужны.",
                         "Against a wounded fighter no test is rolled.")
        return
    if not p.rolls:
        raise refuse("V-MELEE-2", "Нужны одновременные броски обеих сторон.", "Both sides' simultaneous rolls are needed.")
    ba, bd = melee_bonus(a, r), melee_bonus(d, r)
    totals = [(value(x.attacker) + ba, value(x.defender) + bd) for x in p.rolls]
    if r["melee_tie"] != "reroll":  # G-13 set otherwise: one roll, a tie settled by the rules data
        if len(totals) != 1:
            raise refuse("V-MELEE-2", "Ничья не перебрасывается (G-13): нужен один бросок.",
                         "Ties are not re-rolled (G-13): give one roll.")
    elif any(x != y for x, y in totals[:-1]) or totals[-1][0] == totals[-1][1]:
        raise refuse("V-MELEE-2", "Ничья перебрасывается: все броски, кроме последнего, — ничьи (G-13).",
                     "Ties are re-rolled: every roll but the last must be a tie (G-13).")


@melee.mutator
def _apply_melee(state: BattleState, p: Melee, ctx: Context) -> None:
    r = ctx.rules
    a, d = state.fighters[p.attacker], state.fighters[p.defender]
    a.melee_turn = d.melee_turn = state.turn
    if d.wounded:
        kill(state, d, a)  # V-MELEE-4
        return
    last = p.rolls[-1]
    ta, td = value(last.attacker) + melee_bonus(a, r), value(last.defender) + melee_bonus(d, r)
    if ta == td and r["melee_tie"] != "reroll":  # G-13: the tie as the rules data settle it
        if r["melee_tie"] == "attacker":
            wound(state, d, a, r)
        elif r["melee_tie"] == "defender":
            wound(state, a, d, r)
        return  # "none": nobody is hurt
    if ta > td:
        wound(state, d, a, r)
    else:
        wound(state, a, d, r)


# --- wound_test ------------------------------------------------------------------------
class WoundTest(Payload):
    """On the owner's next turn a wounded fighter tests (V-MED-3); a failed test
    may be re-rolled once with a medic within 4" (V-MED-4)."""

    fighter: Id
    die: Die
    medic: Annotated[str, Meta(max_length=64)] | None = None
    medic_distance: Annotated[float, Meta(ge=0)] | None = None
    reroll: Die | None = None


wound_test = event_type(
    "wound_test", WoundTest, rules=("V-MED-3", "V-MED-4", "V-MED-5", "V-MED-6", "V-TEST-1", "V-POW-3"),
    title_ru="Тест на ранение", title_en="Wound test",
)


@wound_test.check
def _check_wound_test(state: BattleState, p: WoundTest, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    f = fighter(state, p.fighter)
    if f.dead:
        raise refuse("S-DEAD", f"Боец {f.id} погиб.", f"Fighter {f.id} is dead.")
    if not f.wounded:
        raise refuse("V-MED-3", f"Боец {f.id} не ранен.", f"Fighter {f.id} is not wounded.")
    require_own_turn(state, f.side)
    if f.wounded_ply >= state.ply:
        raise refuse("V-MED-3", "Тест на ранение — в следующий ход игрока.", "The wound test comes on the player's next turn.")
    if f.tested_ply == state.ply:
        raise refuse("V-MED-3", "Тест на ранение уже прокинут в этом ходу.", "The wound test was already rolled this turn.")
    if p.reroll is not None:
        if success(p.die, r):
            raise refuse("V-MED-4", "Перебрасывается только неудачный тест.", "Only a failed test may be re-rolled.")
        if p.medic is None or p.medic_distance is None:
            raise refuse("V-MED-4", "Переброс — только при медике рядом.", "A re-roll needs a medic nearby.")
        m = fighter(state, p.medic)
        if m.cls != "medic" or m.side != f.side:
            raise refuse("V-MED-4", f"{m.id} — не ваш медик.", f"{m.id} is not your medic.")
        require_fit(state, m, r)
        if p.medic_distance > r["medic_distance"]:
            raise refuse("V-MED-4", "Медик должен быть в пределах 4\".", "The medic must be within 4\".")
        if r["medic_rerolls"] < 1:
            raise refuse("V-MED-4", "Переброс отключён правилами.", "Re-rolls are disabled by the rules data.")


@wound_test.mutator
def _apply_wound_test(state: BattleState, p: WoundTest, ctx: Context) -> None:
    f = state.fighters[p.fighter]
    f.tested_ply = state.ply
    die = p.reroll if p.reroll is not None else p.die
    if success(die, ctx.rules):
        f.wounded = False
        f.recovering_ply = state.ply  # V-MED-5; from the next turn all functions (V-MED-6)
        if p.reroll is not None and p.medic is not None:
            for c in credit_of(state, state.fighters.get(p.medic)):
                c.saves += 1
    # G-10: otherwise he stays wounded and tests again next turn


# --- morale_test --------------------------------------------------------------------------
class MoraleTest(Payload):
    """A unit out of command tests morale once (V-MORALE-1, V-TEST-7). The table
    states, per friendly officer, his distance to the unit's farthest fighter,
    whether radio operators link the unit, and each fighter's distance to the
    nearest enemy (for surrender, V-TEST-3)."""

    unit: Id
    die: Die
    officer_distances: dict[str, float] = {}
    radio_link: bool = False
    enemy_distances: dict[str, float] = {}
    new_commander: Annotated[str, Meta(max_length=64, description="On 16-20 (V-TEST-6)")] | None = None


morale_test = event_type(
    "morale_test", MoraleTest,
    rules=("V-MORALE-1", "V-MORALE-2", "V-MORALE-3", "V-CMD-7", "V-RADIO-4", "V-SNIP-2", "V-TEST-3", "V-TEST-4",
           "V-TEST-5", "V-TEST-6", "V-TEST-7"),
    title_ru="Тест на мораль", title_en="Morale test",
)


def _members(state: BattleState, uid: str) -> list[Fighter]:
    return [f for f in state.fighters.values() if f.unit == uid and not f.dead and not f.captured]


@morale_test.check
def _check_morale(state: BattleState, p: MoraleTest, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    u = state.units.get(p.unit)
    if u is None:
        raise refuse("S-UNKNOWN", f"Подразделение {p.unit!r} не найдено.", f"No unit {p.unit!r}.")
    present = _members(state, p.unit)
    if not present:  # every fighter dead or taken prisoner: there is no unit left to test
        raise refuse("V-MORALE-1", "В подразделении не осталось бойцов: тест проходить некому.",
                     "The unit has no fighters left: nobody takes the test.")
    members = [f for f in present if f.cls != "sniper"]
    if not members:
        raise refuse("V-SNIP-2", "Некому проходить тест (снайперы свободны от командной дистанции).",
                     "Nobody to test (snipers are free of command distance).")
    if u.morale and u.morale_officer == u.under:
        raise refuse("V-TEST-7", "Тест на мораль прокидывается 1 раз; результат действует до смены командира.",
                     "Morale is tested once; the result holds until the unit comes under another officer.")
    if p.radio_link:
        raise refuse("V-RADIO-4", "Подразделение на связи через радистов — тест не нужен.",
                     "The unit is linked by radio operators: no test is needed.")
    for oid, dist in p.officer_distances.items():
        o = fighter(state, oid)
        if o.side != u.side or not is_officer(o) or o.dead or o.captured:
            continue
        if dist <= command_distance(o, r, over_officers=commanded_by_officers(state, o, p.unit)):
            raise refuse("V-MORALE-1", f"Подразделение в командной дистанции офицера {oid}: теста нет.",
                         f"The unit is within officer {oid}'s command distance: no test.")
    if p.new_commander is not None and p.new_commander not in {f.id for f in members}:
        raise refuse("V-TEST-6", "Новый командир — боец этого подразделения.", "The new commander must be of this unit.")
    bonus = max((f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.rank), default=0)
    if value(p.die) + bonus > r["morale_dig_in_max"] and p.new_commander is None:
        raise refuse("V-TEST-6", "При 16–20 на должность капрала назначается боец подразделения: укажите new_commander.",
                     "On 16-20 a fighter of the unit is appointed to a corporal's post: name new_commander.")


@morale_test.mutator
def _apply_morale(state: BattleState, p: MoraleTest, ctx: Context) -> None:
    r = ctx.rules
    u = state.units[p.unit]
    state.morale_tests += 1
    members = [f for f in _members(state, p.unit) if f.cls != "sniper"]
    bonus = max((f.morale_bonus + r["morale_bonus"].get(f.rank, 0) for f in members if f.rank), default=0)  # V-MORALE-3
    roll = value(p.die) + bonus
    u.morale_officer = u.under
    if roll <= r["morale_surrender_max"]:  # V-TEST-3, per fighter
        near = r["morale_surrender_distance"]
        captor = "defender" if u.side == "attacker" else "attacker"
        close = [f for f in members if (d := p.enemy_distances.get(f.id)) is not None and d <= near]
        if close and not r["surrender_per_fighter"]:
            close = members  # the whole unit surrenders when the enemy is near any of them
        for f in close:
            capture(state, f, captor, "", None)
        u.morale = "retreat" if any(not f.captured for f in members) else "surrendered"
        u.posture = "march"
    elif roll <= r["morale_retreat_max"]:
        u.morale, u.posture = "retreat", "march"  # V-TEST-4
    elif roll <= r["morale_dig_in_max"]:
        u.morale, u.posture = "dug_in", "dug_in"  # V-TEST-5
    else:
        u.morale = "carry_on"  # V-TEST-6
        if p.new_commander is not None:
            nc = state.fighters[p.new_commander]
            if not nc.rank:
                nc.rank = "corporal"
            u.commander = nc.id


# --- order_given -------------------------------------------------------------------------------
class OrderGiven(Payload):
    """An officer passes an order to a unit (one way: only his command distance
    counts, V-CMD-1), directly or through two radio operators (V-RADIO-2..4)."""

    officer: Id
    unit: Id
    distance: Annotated[float, Meta(ge=0, description="Officer to the unit's farthest fighter")] | None = None
    radio_operators: Annotated[list[str], Meta(max_length=2)] = []
    talk_distances: Annotated[list[float], Meta(
        max_length=2,
        description="Officer to 1st radio operator, 2nd radio operator to the unit")] = []


order_given = event_type(
    "order_given", OrderGiven,
    rules=("V-CMD-1", "V-CMD-2", "V-CMD-3", "V-CMD-4", "V-CMD-5", "V-CMD-6", "V-OFF-1", "V-OFF-2", "V-OFF-3",
           "V-OFF-4", "V-RADIO-2", "V-RADIO-3", "V-RADIO-4", "V-MOTOR-8", "V-VEH-9", "V-MORALE-2"),
    title_ru="Приказ отдан", title_en="Order given",
)


@order_given.check
def _check_order(state: BattleState, p: OrderGiven, ctx: Context) -> None:  # noqa: C901
    require_running(state)
    r = ctx.rules
    o = fighter(state, p.officer)
    require_fit(state, o, r)  # the officer's own status before turn order
    require_own_turn(state, o.side)
    if not is_officer(o):
        raise refuse("V-OFF-1", f"{o.id} — не офицер.", f"{o.id} is not an officer.")
    u = state.units.get(p.unit)
    if u is None or u.side != o.side:
        raise refuse("S-UNKNOWN", f"Подразделение {p.unit!r} не ваше.", f"No unit {p.unit!r} of yours.")
    cmd = unit_commander(state, p.unit)
    cmd_rank = cmd.rank if cmd is not None else ""
    side_has_lt = any(f.rank == "lieutenant" and f.side == o.side and not f.dead and not f.captured
                      for f in state.fighters.values())
    # V-OFF-2..4: who orders whom
    if o.rank in ("sergeant", "corporal"):
        own = state.units.get(o.unit)
        if p.unit != o.unit and not (own is not None and state.units[p.unit].parent == o.unit):
            raise refuse("V-OFF-2", "Сержант непосредственно руководит бойцами своего отделения.",
                         "A sergeant directly leads the fighters of his own squad.")
    elif o.rank == "lieutenant":
        if cmd_rank != "sergeant":
            raise refuse("V-OFF-3", "Лейтенант отдаёт приказы сержантскому составу.", "A lieutenant orders sergeants.")
    elif o.rank == "captain":
        if cmd_rank == "lieutenant" or (cmd_rank == "sergeant" and not side_has_lt):
            pass
        elif cmd_rank == "sergeant":
            raise refuse("V-OFF-4", "Капитан отдаёт приказы сержантам, только если нет лейтенантов.",
                         "A captain orders sergeants only when there are no lieutenants.")
        elif p.unit != o.unit:
            raise refuse("V-OFF-4", "Капитан отдаёт приказы лейтенантам (или сержантам).",
                         "A captain orders lieutenants (or sergeants).")
    over_officers = commanded_by_officers(state, o, p.unit)
    if p.radio_operators:
        if len(p.radio_operators) != 2 or len(p.talk_distances) != 2:
            raise refuse("V-RADIO-4", "Связь обеспечивают два радиста.", "Two radio operators provide the link.")
        for rid in p.radio_operators:
            ro = fighter(state, rid)
            if ro.cls != "radio_operator" or ro.side != o.side:
                raise refuse("V-RADIO-4", f"{rid} — не ваш радист.", f"{rid} is not your radio operator.")
            require_fit(state, ro, r)
        first, last = p.talk_distances
        tank = state.vehicles.get(cmd.aboard) if cmd is not None and cmd.aboard else None
        if tank is not None and tank.armour >= r["radio_orders_min_armour"]:
            last = 0.0  # V-VEH-9: the basic tank radio receives orders through a radio operator
        if first > r["talk_distance"] or last > r["talk_distance"]:
            raise refuse("V-RADIO-3", "Радист передаёт информацию в пределах разговорной дистанции 6\".",
                         "A radio operator passes information within the talking distance of 6\".")
        return
    if p.distance is None:
        raise refuse("V-CMD-1", "Укажите дистанцию от офицера.", "State the distance from the officer.")
    both_tanks = o.aboard and cmd is not None and cmd.aboard and all(
        state.vehicles[x].armour >= r["radio_link_min_armour"] for x in (o.aboard, cmd.aboard))
    if both_tanks:
        return  # V-MOTOR-8
    limit = command_distance(o, r, over_officers=over_officers)
    if p.distance > limit:
        rule = {"captain": "V-CMD-5" if over_officers else "V-CMD-6", "lieutenant": "V-CMD-3"}.get(o.rank, "V-CMD-4")
        raise refuse(rule, f"Командная дистанция {o.rank} здесь — {limit}\".", f"The {o.rank}'s command distance here is {limit}\".")


@order_given.mutator
def _apply_order(state: BattleState, p: OrderGiven, ctx: Context) -> None:
    u = state.units[p.unit]
    u.under = p.officer
    if u.morale and u.morale_officer != p.officer and u.morale != "surrendered":
        u.morale = ""  # V-MORALE-2: under another friendly officer the result lapses


# --- prisoners ----------------------------------------------------------------------------------
class PrisonerTaken(Payload):
    """A fighter at melee distance of a wounded enemy, with no unwounded enemy
    within 4" of him, takes him prisoner (V-POW-1)."""

    captor: Id
    prisoner: Id
    distance: Annotated[float, Meta(ge=0)]
    nearest_fit_enemy: Annotated[float, Meta(
        ge=0, description="Nearest unwounded enemy of the captor to the prisoner; null if none")] | None = None


prisoner_taken = event_type(
    "prisoner_taken", PrisonerTaken, rules=("V-POW-1", "V-POW-2", "V-POW-3", "V-MELEE-1"),
    title_ru="Взят пленный", title_en="Prisoner taken",
)


@prisoner_taken.check
def _check_prisoner(state: BattleState, p: PrisonerTaken, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    c, x = fighter(state, p.captor), fighter(state, p.prisoner)
    require_fit(state, c, r)  # the captor's own status before turn order
    require_own_turn(state, c.side)
    require_alive(x)
    if not enemy(c.side, x.side):
        raise refuse("S-TARGET", "Пленным берут противника.", "Only an enemy can be taken prisoner.")
    if not x.wounded:
        raise refuse("V-POW-1", "Пленным берут только раненого.", "Only a wounded soldier can be taken prisoner.")
    if p.distance > r["melee_distance"]:
        raise refuse("V-POW-1", "Нужна дистанция рукопашного боя (1\").", "The captor must be at melee distance (1\").")
    if p.nearest_fit_enemy is not None and p.nearest_fit_enemy <= r["prisoner_enemy_clear"]:
        raise refuse("V-POW-1", "В радиусе 4\" есть боеспособный солдат противника.",
                     "A combat-capable enemy soldier is within 4\".")


@prisoner_taken.mutator
def _apply_prisoner(state: BattleState, p: PrisonerTaken, ctx: Context) -> None:
    c, x = state.fighters[p.captor], state.fighters[p.prisoner]
    capture(state, x, c.side, c.unit, c)  # V-POW-2; he stays wounded (V-POW-3)


class PrisonerHandled(Payload):
    """The captors kill a prisoner without the firing rules, leave him, or send
    him anywhere on the map (V-POW-4)."""

    prisoner: Id
    action: Literal["kill", "leave", "send"] = "leave"


prisoner_handled = event_type(
    "prisoner_handled", PrisonerHandled, rules=("V-POW-4", "V-POW-5"),
    title_ru="Решение о пленном", title_en="Prisoner handled",
)


@prisoner_handled.check
def _check_handled(state: BattleState, p: PrisonerHandled, ctx: Context) -> None:
    require_running(state)
    x = fighter(state, p.prisoner)
    if not x.captured or x.dead:
        raise refuse("V-POW-4", f"{x.id} — не пленный.", f"{x.id} is not a prisoner.")
    require_own_turn(state, x.captor_side)


@prisoner_handled.mutator
def _apply_handled(state: BattleState, p: PrisonerHandled, ctx: Context) -> None:
    x = state.fighters[p.prisoner]
    if p.action == "kill":
        # credited to the capturing unit's commander (V-POW-2) while he commands it, else to none
        captor = unit_commander(state, x.captor_unit) if x.captor_unit else None
        x.dead = True
        for c in credit_of(state, captor):
            c.kills += 1
        for c in credit_of(state, x):
            c.killed += 1


class PrisonerFreed(Payload):
    """A prisoner with no enemy within 4" who has entered the command distance
    of a friendly officer is freed (V-POW-7)."""

    prisoner: Id
    officer: Id
    officer_distance: Annotated[float, Meta(ge=0)]
    nearest_enemy: Annotated[float, Meta(ge=0)] | None = None


prisoner_freed = event_type(
    "prisoner_freed", PrisonerFreed, rules=("V-POW-7",), title_ru="Пленный освобождён", title_en="Prisoner freed",
)


@prisoner_freed.check
def _check_freed(state: BattleState, p: PrisonerFreed, ctx: Context) -> None:
    require_running(state)
    r = ctx.rules
    x, o = fighter(state, p.prisoner), fighter(state, p.officer)
    if not x.captured or x.dead:
        raise refuse("V-POW-7", f"{x.id} — не пленный.", f"{x.id} is not a prisoner.")
    if o.side != x.side or not is_officer(o):
        raise refuse("V-POW-7", "Нужен офицер дружественной армии.", "A friendly officer is needed.")
    require_fit(state, o, r)
    if p.nearest_enemy is not None and p.nearest_enemy <= r["release_enemy_clear"]:
        raise refuse("V-POW-7", "В 4\" от пленного есть солдат противника.", "An enemy soldier is within 4\" of him.")
    if p.officer_distance > command_distance(o, r, over_officers=False):
        raise refuse("V-POW-7", "Пленный должен войти в командную дистанцию офицера.",
                     "The prisoner must be within the officer's command distance.")


@prisoner_freed.mutator
def _apply_freed(state: BattleState, p: PrisonerFreed, ctx: Context) -> None:
    x = state.fighters[p.prisoner]
    x.captured, x.captor_side, x.captor_unit = False, "", ""

