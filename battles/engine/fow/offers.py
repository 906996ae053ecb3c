"""What the Flames of War table may offer a side now, from the same checks that
would refuse the action ("the table guides, the engine decides").

Each offer runs the event type's own checks on a probe payload (a zero move,
a shot with the dice the rules give, a Skill test that passes), so a new rule
hooked onto an action (``team_moved.check``, ``DICE_MODIFIERS``...) narrows
the page's choices with no page code. The numbers the page shows (Movement,
At the Double, a train's 16"/40 cm, the dice a shot rolls) come from the
helpers the checks use. Pure: no Django; the state is a ``FowState``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from battles.engine.errors import EngineError, RuleViolation
from battles.engine.events import Context

from .registry import REGISTRY
from .rules.actions import TeamShot, dice_expected
from .rules.common import distance, movement
from .rules.trains import off_table
from .state import FowState, Team


def refusal(state: FowState, type_name: str, data: dict[str, Any], rules: dict[str, Any]) -> RuleViolation | None:
    """The refusal ``type_name`` with ``data`` would get now (None: allowed). ``rules`` are the
    battle's merged rules (``fold.merge_rules(..., "fow")``)."""
    entry = REGISTRY[type_name]
    try:
        p = entry.parse(data)
        ctx = Context(state.last_seq + 1, rules)
        for check in entry.checks:
            check(state, p, ctx)
    except RuleViolation as exc:
        return exc
    except EngineError as exc:  # a probe the payload check refuses (a piece the schema does not allow)
        return RuleViolation("S-PAYLOAD", str(exc), str(exc))
    return None


@dataclass(frozen=True)
class Mover:
    team: str
    limit: float  # Movement (G-F1)
    double: float | None  # At the Double (F-DBL-1); None: not allowed now (F-DBL-7)


@dataclass(frozen=True)
class Shooter:
    team: str
    dice: int  # Rate of Fire now: stationary or moved (G-F1, F-DIG-6)
    rule: str


def live(state: FowState, side: str) -> list[Team]:
    """A side's teams that are not Destroyed and are on the table."""
    return [t for t in state.teams.values() if t.side == side and not t.destroyed and off_table(state, t) is None]


def movers(state: FowState, side: str, rules: dict[str, Any]) -> list[Mover]:
    """Teams that may move now (G-F1, F-DBL-8, F-DIG-1, F-TRAIN-21, F-TRAIN-25, F-BLD...), with their limits."""
    ctx = Context(state.last_seq + 1, rules)
    out = []
    for t in live(state, side):
        if t.moved_ply == state.ply or refusal(state, "team_moved", {"team": t.id, "distance": 0}, rules):
            continue
        limit = movement(ctx, state, t)
        double = None
        if not refusal(state, "team_moved", {"team": t.id, "distance": 0, "at_the_double": True}, rules):
            double = limit * float(rules["double_factor"])
        out.append(Mover(t.id, limit, double))
    return out


def shot_dice(state: FowState, shooter: str, target: str, kind: str, rules: dict[str, Any]) -> tuple[int, str]:
    """The dice ``shooter`` rolls at ``target`` now, and the rule that says so (G-F1 Rate of
    Fire, F-DIG-6, F-DBL-10 doubled, F-DBL-11, F-RECON-17/23)."""
    probe = TeamShot(shooter=shooter, target=target, dice=[], kind=kind)  # type: ignore[arg-type]  (a Literal)
    return dice_expected(state, probe, state.teams[shooter], state.teams[target], rules)


def targets(state: FowState, side: str) -> list[Team]:
    """The enemy's live teams on the table."""
    return live(state, "defender" if side == "attacker" else "attacker")


def shooters(state: FowState, side: str, rules: dict[str, Any]) -> list[Shooter]:
    """Teams that may shoot now (G-F1, F-DBL-8, F-TRAIN-22...), with the dice they roll at a
    target that did not move At the Double (F-DBL-10 doubles it against one that did)."""
    enemies = targets(state, side)
    if not enemies:
        return []
    plain = next((e for e in enemies if e.double_ply != state.ply - 1), enemies[0])
    out = []
    for t in live(state, side):
        n, rule = shot_dice(state, t.id, plain.id, "direct", rules)
        dice = [{"value": 1, "source": "entered"}] * max(n, 1)
        if n >= 1 and not refusal(state, "team_shot", {"shooter": t.id, "target": plain.id, "dice": dice}, rules):
            out.append(Shooter(t.id, n, rule))
    return out


def doubled(state: FowState, target: str) -> bool:
    """F-DBL-10: the target moved At the Double in its last turn."""
    t = state.teams.get(target)
    return t is not None and t.double_ply >= 0 and t.double_ply == state.ply - 1


def assaulters(state: FowState, side: str, rules: dict[str, Any]) -> list[str]:
    return [t.id for t in live(state, side) if not refusal(state, "assault_launched", {"teams": [t.id]}, rules)]


def grounders(state: FowState, side: str, rules: dict[str, Any]) -> list[str]:
    """Teams that may Go to Ground: neither moved nor shot this turn (G-F1, F-DIG-16)."""
    return [t.id for t in live(state, side) if not refusal(state, "went_to_ground", {"teams": [t.id]}, rules)]


def diggers(state: FowState, side: str, rules: dict[str, Any]) -> list[str]:
    """Platoons that may try to Dig In instead of moving (F-DIG-1, F-DIG-7)."""
    passed = {"value": 6, "source": "entered"}
    return [pid for pid, p in state.platoons.items() if p.side == side
            and not refusal(state, "dig_in_attempted", {"platoon": pid, "die": passed}, rules)]


def rerollers(state: FowState, side: str, rules: dict[str, Any]) -> list[str]:
    """Platoons whose Dig In test failed this turn and may re-roll it with a Pioneer Supply vehicle near
    (F-DIG-10; the table enters the distance, so a vehicle of the side is all that is looked for here)."""
    die = {"value": 6, "source": "entered"}
    return [pid for pid, p in state.platoons.items() if p.side == side and not refusal(
        state, "dig_in_rerolled", {"platoon": pid, "die": die, "pioneer_supply_distance": 0}, rules)]


def trains(state: FowState, side: str, rules: dict[str, Any]) -> list[tuple[str, float]]:
    """Armoured trains that may move along their line now, with the most they move (F-TRAIN-19..22)."""
    ctx = Context(state.last_seq + 1, rules)
    return [(k, distance(ctx, state, "train_move")) for k, tr in state.trains.items() if tr.side == side
            and not refusal(state, "train_moved", {"train": k, "distance": 0}, rules)]


__all__ = ["Mover", "Shooter", "assaulters", "diggers", "doubled", "grounders", "live", "movers", "refusal",
           "rerollers", "shooters", "shot_dice", "targets", "trains"]
