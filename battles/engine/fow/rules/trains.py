"""Armoured trains (seed 000, rulebook pp. 206–208; catalog F-TRAIN).

Laying the Railway Line (table rows, recorded as events so the order and who
chooses are checked): the table's own line is used if it has one (F-TRAIN-2);
otherwise, at the start of the game before any team acts (F-TRAIN-3), the
player with the train chooses two opposite table edges (F-TRAIN-4), the
opponent a point on one of them (F-TRAIN-5), the train's player a point on
the opposite edge (F-TRAIN-6) and lays the line between them (F-TRAIN-7):
through woods, fields and flat terrain (F-TRAIN-8), rivers and streams
bridged (F-TRAIN-9), buildings moved aside (F-TRAIN-10), bending around hills
(F-TRAIN-11); with trains on both sides, both lay a line, the attacker first
(F-TRAIN-12). A line is keyed by its player's side; each train stays on its
own player's line (F-TRAIN-13).

The train moves only along its line (F-TRAIN-1) and only as a whole
(F-TRAIN-21: a wagon never moves by itself). Off the table until its first
Movement Step (F-TRAIN-14) unless in Reserve (F-TRAIN-18; never in Ambush,
F-TRAIN-17), it enters far enough for the whole train and its Tank Support
Platoons (F-TRAIN-15, even beyond 16"/40 cm) from where the line crosses its
Deployment Area, or the nearest table edge if it does not cross it
(F-TRAIN-16, reading). Then up to 16"/40 cm a turn, forward or back
(F-TRAIN-19), not with its Locomotive Bogged Down, Bailed Out or Destroyed
(F-TRAIN-20); any part off the table and the whole train has left for good
(F-TRAIN-22). It pushes any tank Wreckage off the track (F-TRAIN-23; the
table moves it the least distance, F-TRAIN-24). Its Tank Support Platoons
ride it and leave it with an extra 4"/10 cm (F-TRAIN-25).

``ArmouredTrain.position`` is the distance along the line from its entry
point to the train's front; the rear is ``position - length``. The front past
the line's far end (when its length is known) or the rear behind the entry
point is off the table (F-TRAIN-22).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta

from battles.engine.events import Context
from battles.engine.fow.registry import OFF_TURN, POLICY, REGISTRY, Recorder, named_side, platoon_side
from battles.engine.fow.state import ArmouredTrain, FowState, RailwayLine, Team
from battles.engine.schema import Payload

from .actions import assault_launched, team_moved, team_shot
from .common import distance, fmt, platoon, refuse, require_own_turn, require_step, team

Side = Literal["attacker", "defender"]
Edge = Literal["north", "south", "east", "west"]
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}
EDGE_PAIRS = {"north_south": ("north", "south"), "east_west": ("east", "west")}


# --- helpers ---------------------------------------------------------------------------------
def train_of(state: FowState, tid: str) -> ArmouredTrain:
    tr = state.trains.get(tid)
    if tr is None:
        refuse("S-UNKNOWN", f"Бронепоезда {tid!r} нет.", f"No armoured train {tid!r}.")
    return tr


def _require_not_ended(state: FowState) -> None:
    if state.status == "ended":
        refuse("S-ENDED", "Бой окончен.", "The battle is over.")


def _before_play(state: FowState) -> None:
    """F-TRAIN-3: the line is laid at the start of the game, before anything happens on the table."""
    started = state.ply > 0 or any(tr.where != "off_table" for tr in state.trains.values()) or any(
        max(t.moved_ply, t.shot_ply, t.assault_ply, t.dig_ply) >= 0 for t in state.teams.values())
    if started:
        refuse("F-TRAIN-3", "Железнодорожную Линию располагают в начале игры, до первых действий.",
               "The Railway Line is placed at the start of the game, before anything else happens.")


def _has_train(state: FowState, side: str) -> bool:
    return any(tr.side == side for tr in state.trains.values())


def _line_being_laid(state: FowState) -> RailwayLine | None:
    return next((ln for ln in state.railway_lines.values() if not ln.laid), None)


def _check_lay_order(state: FowState, side: str) -> None:
    """F-TRAIN-12 (one line per player, the attacker's first) on top of F-TRAIN-4."""
    if not _has_train(state, side):
        refuse("F-TRAIN-4", "Железнодорожную Линию размещает игрок с Бронепоездом.",
               "The Railway Line is placed by a player with an armoured train.")
    line = state.railway_lines.get(side)
    if line is not None and line.laid:
        refuse("F-TRAIN-12", "У каждого игрока одна Железнодорожная Линия; ваша уже размещена.",
               "Each player has one Railway Line; yours is already placed.")
    if side == "defender" and _has_train(state, "attacker"):
        att = state.railway_lines.get("attacker")
        if att is None or not att.laid:
            refuse("F-TRAIN-12", "У обоих игроков Бронепоезда: первым Линию размещает атакующий игрок.",
                   "Both players have armoured trains: the attacking player places his line first.")


def _line_length_known(line: RailwayLine | None) -> bool:
    return line is not None and line.length > 0


def _left(state: FowState, tr: ArmouredTrain) -> bool:
    line = state.railway_lines.get(tr.side)
    if tr.position - tr.length < 0:
        return True
    return _line_length_known(line) and tr.position > line.length  # type: ignore[union-attr]


def _leave(state: FowState, tr: ArmouredTrain) -> None:
    """F-TRAIN-22: the whole train (and the Tank Support Platoons riding it) leaves for good."""
    tr.where = "left"


def off_table(state: FowState, t: Team) -> tuple[str, str] | None:
    """(rule, why) when the team is not on the table because of its train."""
    tr = state.trains.get(t.platoon)
    if tr is None:
        pl = state.platoons.get(t.platoon)
        tr = state.trains.get(pl.train) if pl is not None and pl.train else None
        if tr is None or (tr.where == "left" and t.platoon not in tr.escorts_aboard):
            return None
    if tr.where == "off_table":
        return "F-TRAIN-14", "ещё не въехал на стол"
    if tr.where == "left":
        return "F-TRAIN-22", "покинул стол и не может вернуться"
    return None


def _require_on_table(state: FowState, t: Team, role_ru: str, role_en: str) -> None:
    why = off_table(state, t)
    if why is not None:
        rule, ru = why
        en = "has not entered the table yet" if rule == "F-TRAIN-14" else "has left the table and may not return"
        refuse(rule, f"{role_ru} {t.id!r}: бронепоезд {ru}.", f"{role_en} {t.id!r}: its armoured train {en}.")


# --- railway_edges_chosen (F-TRAIN-4) ---------------------------------------------------------
class RailwayEdgesChosen(Payload):
    """Step 1: the player with the armoured train chooses two opposite table edges."""

    side: Annotated[Side, Meta(description="The player with the armoured train")]
    edges: Annotated[Literal["north_south", "east_west"], Meta(description="Two opposite table edges")]


railway_edges_chosen = REGISTRY.event_type("railway_edges_chosen", RailwayEdgesChosen,
                                           rules=("F-TRAIN-3", "F-TRAIN-4", "F-TRAIN-12"),
                                           title_ru="Края стола для Железнодорожной Линии",
                                           title_en="Railway Line: table edges chosen")
POLICY["railway_edges_chosen"] = Recorder("actor", named_side, "Игрок с Бронепоездом",
                                          "The player with the armoured train")


@railway_edges_chosen.check
def _check_edges(state: FowState, p: RailwayEdgesChosen, ctx: Context) -> None:
    _require_not_ended(state)
    _before_play(state)
    _check_lay_order(state, p.side)
    pending = _line_being_laid(state)
    if pending is not None:
        refuse("F-TRAIN-12", "Сначала доложите начатую Железнодорожную Линию.",
               "Finish the Railway Line being placed first.")


@railway_edges_chosen.mutator
def _apply_edges(state: FowState, p: RailwayEdgesChosen, ctx: Context) -> None:
    state.railway_lines[p.side] = RailwayLine(id=p.side, side=p.side, edges=p.edges)
    for tr in state.trains.values():
        if tr.side == p.side:
            tr.line = p.side  # F-TRAIN-13


# --- railway_point_chosen (F-TRAIN-5, F-TRAIN-6) ------------------------------------------------
class RailwayPointChosen(Payload):
    """Step 2: the opponent chooses a point on one of the two edges; step 3:
    the player with the train a point on the opposite edge."""

    side: Annotated[Side, Meta(description="The player choosing the point")]
    edge: Annotated[Edge, Meta(description="The table edge the point is on")]
    position: Annotated[float, Meta(ge=0, description="Along that edge from its left corner (battle's units)")]


railway_point_chosen = REGISTRY.event_type("railway_point_chosen", RailwayPointChosen,
                                           rules=("F-TRAIN-5", "F-TRAIN-6"),
                                           title_ru="Точка Железнодорожной Линии",
                                           title_en="Railway Line: point chosen")
POLICY["railway_point_chosen"] = Recorder("actor", named_side, "Противник (первая точка), затем игрок с Бронепоездом",
                                          "The opponent (first point), then the player with the train")


@railway_point_chosen.check
def _check_point(state: FowState, p: RailwayPointChosen, ctx: Context) -> None:
    _require_not_ended(state)
    line = _line_being_laid(state)
    if line is None:
        refuse("F-TRAIN-4", "Сначала игрок с Бронепоездом выбирает два противоположных края стола.",
               "First the player with the armoured train chooses two opposite table edges.")
    if line.opponent_point is None:
        if p.side == line.side:
            refuse("F-TRAIN-5", "Первую точку выбирает противник игрока с Бронепоездом.",
                   "The first point is chosen by the opponent of the player with the train.")
        if p.edge not in EDGE_PAIRS[line.edges]:
            refuse("F-TRAIN-5", "Точка выбирается на одном из двух выбранных краёв стола.",
                   "The point must be on one of the two chosen table edges.")
    elif line.own_point is None:
        if p.side != line.side:
            refuse("F-TRAIN-6", "Вторую точку выбирает игрок с Бронепоездом.",
                   "The second point is chosen by the player with the armoured train.")
        if p.edge != OPPOSITE[line.opponent_edge]:
            refuse("F-TRAIN-6", "Вторая точка — на противоположном краю стола.",
                   "The second point must be on the opposite table edge.")
    else:
        refuse("F-TRAIN-7", "Обе точки выбраны: игрок с Бронепоездом прокладывает Линию.",
               "Both points are chosen: the player with the train lays the line.")


@railway_point_chosen.mutator
def _apply_point(state: FowState, p: RailwayPointChosen, ctx: Context) -> None:
    line: Any = _line_being_laid(state)
    if line.opponent_point is None:
        line.opponent_edge, line.opponent_point = p.edge, p.position
    else:
        line.own_edge, line.own_point = p.edge, p.position


# --- railway_line_laid (F-TRAIN-2, F-TRAIN-7..11) -----------------------------------------------
class RailwayLineLaid(Payload):
    """Step 4: the player with the train lays the line between the two points,
    or names the line already on the table (F-TRAIN-2)."""

    side: Annotated[Side, Meta(description="The player with the armoured train")]
    length: Annotated[float, Meta(ge=0, description="Length of the line on the table (0: not measured)")] = 0.0
    existing: Annotated[bool, Meta(description="The table already has a Railway Line (F-TRAIN-2)")] = False
    crosses_deployment_area: Annotated[bool, Meta(
        description="The line crosses this player's Deployment Area (F-TRAIN-16)")] = True
    bridges: Annotated[int, Meta(ge=0, le=20, description="Rivers and streams crossed (each has a bridge)")] = 0
    buildings_moved: Annotated[list[str], Meta(
        max_length=30, description="Buildings moved aside by the least distance")] = []
    through_hills: Annotated[bool, Meta(description="Runs over a hill instead of around it")] = False
    through_buildings: Annotated[bool, Meta(description="A building is left standing on the line")] = False


railway_line_laid = REGISTRY.event_type("railway_line_laid", RailwayLineLaid,
                                        rules=("F-TRAIN-2", "F-TRAIN-7", "F-TRAIN-8", "F-TRAIN-9", "F-TRAIN-10",
                                               "F-TRAIN-11", "F-TRAIN-12"),
                                        title_ru="Железнодорожная Линия проложена", title_en="Railway Line laid")
POLICY["railway_line_laid"] = Recorder("actor", named_side, "Игрок с Бронепоездом",
                                       "The player with the armoured train")
OFF_TURN.update({"railway_edges_chosen", "railway_point_chosen", "railway_line_laid"})


@railway_line_laid.check
def _check_laid(state: FowState, p: RailwayLineLaid, ctx: Context) -> None:
    _require_not_ended(state)
    _before_play(state)
    line = state.railway_lines.get(p.side)
    if p.existing:
        _check_lay_order(state, p.side)
        if line is not None or _line_being_laid(state) is not None:
            refuse("F-TRAIN-2", "Линия уже размещается по шагам; готовую линию стола называют до них.",
                   "A line is already being placed step by step; the table's own line is named before that.")
    else:
        if line is None or line.opponent_point is None or line.own_point is None:
            refuse("F-TRAIN-7", "Линию прокладывают между двумя выбранными точками: сначала края и точки.",
                   "The line is laid between the two chosen points: edges and points come first.")
        if line.laid:
            refuse("F-TRAIN-12", "Ваша Железнодорожная Линия уже проложена.", "Your Railway Line is already laid.")
    if p.through_hills:
        refuse("F-TRAIN-11", "Линия изгибается, чтобы обойти холмы, даже пологие.",
               "The line bends to go around hills, even gentle ones.")
    if p.through_buildings:
        refuse("F-TRAIN-10", "Здания на пути Линии сдвигают в сторону на минимальное расстояние.",
               "Buildings in the line's path are moved aside by the least distance.")


@railway_line_laid.mutator
def _apply_laid(state: FowState, p: RailwayLineLaid, ctx: Context) -> None:
    line = state.railway_lines.get(p.side)
    if line is None:
        line = state.railway_lines[p.side] = RailwayLine(id=p.side, side=p.side)
    line.laid, line.existing, line.length = True, p.existing, p.length
    line.crosses_deployment_area, line.bridges = p.crosses_deployment_area, p.bridges  # F-TRAIN-9
    line.buildings_moved = list(p.buildings_moved)  # F-TRAIN-10
    for tr in state.trains.values():
        if tr.side == p.side:
            tr.line = p.side  # F-TRAIN-13


# --- train_held_back (F-TRAIN-17, F-TRAIN-18) ----------------------------------------------------
class TrainHeldBack(Payload):
    """Before the battle: the train's player holds it in Reserve (allowed) or
    in Ambush (refused: too large and conspicuous)."""

    train: Annotated[str, Meta(min_length=1, max_length=60)]
    held_in: Annotated[Literal["reserve", "ambush"], Meta(description="Reserve (p. 268) or Ambush (p. 266)")]


train_held_back = REGISTRY.event_type("train_held_back", TrainHeldBack, rules=("F-TRAIN-17", "F-TRAIN-18"),
                                      title_ru="Бронепоезд оставлен вне стола", title_en="Armoured train held back")
POLICY["train_held_back"] = Recorder("actor", platoon_side("train"), "Сторона бронепоезда", "The train's side")
OFF_TURN.add("train_held_back")


@train_held_back.check
def _check_held(state: FowState, p: TrainHeldBack, ctx: Context) -> None:
    _require_not_ended(state)
    tr = train_of(state, p.train)
    if p.held_in == "ambush":
        refuse("F-TRAIN-17", "Бронепоезд нельзя оставить в Засаде: он слишком велик и заметен.",
               "An armoured train cannot be held in Ambush: it is too large and conspicuous.")
    if state.ply > 0 or tr.where != "off_table":
        refuse("F-TRAIN-18", "В Резерв бронепоезд оставляют до начала игры.",
               "An armoured train is held in Reserve before the game begins.")


@train_held_back.mutator
def _apply_held(state: FowState, p: TrainHeldBack, ctx: Context) -> None:
    state.trains[p.train].reserve = True  # F-TRAIN-18


# --- train_entered (F-TRAIN-1, 13..16) --------------------------------------------------------------
class TrainEntered(Payload):
    """The train enters the table at the start of its Movement Step along its
    own Railway Line, far enough for itself and its Tank Support Platoons."""

    train: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance moved onto the table (battle's units)")]
    train_length: Annotated[float, Meta(ge=0, description="The whole train with its Tank Support Platoons")]
    entry: Annotated[Literal["deployment_area", "nearest_edge"], Meta(
        description="Enters where the line crosses the Deployment Area, or the table edge nearest it")] = "deployment_area"


train_entered = REGISTRY.event_type("train_entered", TrainEntered,
                                    rules=("F-TRAIN-1", "F-TRAIN-13", "F-TRAIN-14", "F-TRAIN-15", "F-TRAIN-16",
                                           "F-TRAIN-18", "F-TRAIN-22"),
                                    title_ru="Бронепоезд въехал на стол", title_en="Armoured train entered")
POLICY["train_entered"] = Recorder("actor", platoon_side("train"), "Сторона бронепоезда", "The train's side")


def _first_ply(state: FowState, side: str) -> int:
    return 0 if side == state.first_mover else 1


def _require_own_line(state: FowState, tr: ArmouredTrain) -> RailwayLine:
    line = state.railway_lines.get(tr.side)
    if line is None or not line.laid:
        if any(ln.laid for ln in state.railway_lines.values()):
            refuse("F-TRAIN-13", "Бронепоезд обязан оставаться на собственном пути, а ваша Линия не проложена.",
                   "A train must stay on its own player's Railway Line, and yours is not laid.")
        refuse("F-TRAIN-1", "Без Железнодорожной Линии бронепоезд действовать не может.",
               "An armoured train cannot operate without a Railway Line.")
    return line


@train_entered.check
def _check_entered(state: FowState, p: TrainEntered, ctx: Context) -> None:
    tr = train_of(state, p.train)
    require_own_turn(state, tr.side)
    # F-TRAIN-14: it enters at the start of its Movement Step, not once the side has shot or assaulted
    require_step(state, "movement", "F-TRAIN-14", "Бронепоезд въезжает на стол", "An armoured train enters")
    if tr.where == "left":
        refuse("F-TRAIN-22", "Бронепоезд покинул стол и не может вернуться.",
               "The armoured train has left the table and may not return.")
    if tr.where == "on_table":
        refuse("F-TRAIN-14", "Бронепоезд уже на столе.", "The armoured train is already on the table.")
    line = _require_own_line(state, tr)
    if not tr.reserve and state.ply != _first_ply(state, tr.side):
        refuse("F-TRAIN-14", "Бронепоезд въезжает на стол в начале своего первого Шага Движения (или из Резерва).",
               "An armoured train enters at the start of its first Movement Step (or from Reserve).")
    if (p.entry == "nearest_edge") == line.crosses_deployment_area:
        if line.crosses_deployment_area:
            ru, en = ("Линия пересекает вашу Зону Расстановки: бронепоезд въезжает оттуда.",
                      "The line crosses your Deployment Area: the train enters there.")
        else:
            ru, en = ("Линия не пересекает вашу Зону Расстановки: бронепоезд въезжает с ближайшего к ней края стола.",
                      "The line does not cross your Deployment Area: the train enters from the table edge nearest it.")
        refuse("F-TRAIN-16", ru, en)
    if p.distance < p.train_length:
        ru, en = fmt(p.train_length, state)
        refuse("F-TRAIN-15", f"Въезжая, бронепоезд проходит не меньше {ru}: весь поезд и его Танковые Взводы "
                             "Поддержки на столе.",
               f"Entering, the train moves at least {en}: the whole train and its Tank Support Platoons on the table.")
    move = distance(ctx, state, "train_move")
    limit = max(move, p.train_length)  # F-TRAIN-15 reading: even beyond 16"/40 cm
    if p.distance > limit:
        ru, en = fmt(limit, state)
        refuse("F-TRAIN-19" if limit == move else "F-TRAIN-15", f"Бронепоезд въезжает не дальше {ru}.",
               f"The train enters at most {en}.")


@train_entered.mutator
def _apply_entered(state: FowState, p: TrainEntered, ctx: Context) -> None:
    tr = state.trains[p.train]
    tr.where, tr.line, tr.length, tr.position = "on_table", tr.side, p.train_length, p.distance
    tr.entered_ply = tr.moved_ply = state.ply
    tr.entered_from = p.entry
    tr.escorts_aboard = list(tr.escorts)
    _mark_moved(state, tr)
    if _left(state, tr):
        _leave(state, tr)


def _mark_moved(state: FowState, tr: ArmouredTrain) -> None:
    for tid in tr.wagons:
        state.teams[tid].moved_ply = state.ply
    for pid in tr.escorts_aboard:
        for tid in state.platoons[pid].teams:
            state.teams[tid].moved_ply = state.ply


# --- train_moved (F-TRAIN-19..24) -------------------------------------------------------------------
class TrainMoved(Payload):
    """The train moves forward or back along its line, pushing any Wreckage
    on the track aside; off the table (any part of it), it has left."""

    train: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Distance along the Railway Line (battle's units)")]
    direction: Annotated[Literal["forward", "backward"], Meta(
        description="Forward (away from its entry point) or backward")] = "forward"
    wrecks_pushed: Annotated[list[str], Meta(
        max_length=20, description="Wrecked tanks pushed off the track")] = []
    leaves_table: Annotated[bool, Meta(description="Some part of the train goes off the table")] = False
    off_line: Annotated[bool, Meta(
        description="The train leaves its Railway Line (refused: it moves only along its line)")] = False


train_moved = REGISTRY.event_type("train_moved", TrainMoved,
                                  rules=("F-TRAIN-1", "F-TRAIN-13", "F-TRAIN-14", "F-TRAIN-19", "F-TRAIN-20",
                                         "F-TRAIN-21", "F-TRAIN-22", "F-TRAIN-23", "F-TRAIN-24"),
                                  title_ru="Бронепоезд передвинулся", title_en="Armoured train moved")
POLICY["train_moved"] = Recorder("actor", platoon_side("train"), "Сторона бронепоезда", "The train's side")


@train_moved.check
def _check_train_moved(state: FowState, p: TrainMoved, ctx: Context) -> None:
    tr = train_of(state, p.train)
    require_own_turn(state, tr.side)
    require_step(state, "movement", "G-F1", "Бронепоезд движется", "An armoured train moves")  # its Movement Step
    _require_own_line(state, tr)
    if p.off_line:
        refuse("F-TRAIN-1", "Бронепоезд движется только по Железнодорожной Линии: без пути он действовать не может.",
               "An armoured train moves only along its Railway Line: it cannot operate without track.")
    if tr.where == "left":
        refuse("F-TRAIN-22", "Бронепоезд покинул стол и не может вернуться.",
               "The armoured train has left the table and may not return.")
    if tr.where == "off_table":
        refuse("F-TRAIN-14", "Бронепоезд ещё вне стола: сначала он въезжает.",
               "The armoured train is still off the table: it must enter first.")
    loco = state.teams[tr.locomotive]
    for status, ru, en in (("destroyed", "Уничтожен", "Destroyed"), ("bailed_out", "Покинут", "Bailed Out"),
                           ("bogged", "Застрял", "Bogged Down")):
        if getattr(loco, status):
            refuse("F-TRAIN-20", f"Локомотив {ru}: бронепоезд не может двигаться.",
                   f"The Locomotive is {en}: the armoured train may not move.")
    if tr.moved_ply == state.ply:
        refuse("F-TRAIN-19", "Бронепоезд уже двигался в этот ход.", "The armoured train has already moved this turn.")
    limit = distance(ctx, state, "train_move")
    if p.distance > limit:
        ru, en = fmt(limit, state)
        refuse("F-TRAIN-19", f"Бронепоезд двигается по Линии не дальше {ru} за ход.",
               f"The armoured train moves at most {en} a turn along its line.")
    for wid in p.wrecks_pushed:
        w = team(state, wid)
        if not (w.wreck and w.destroyed):
            refuse("F-TRAIN-23", f"{wid!r} — не Обломки танка.", f"{wid!r} is not the Wreckage of a tank.")


@train_moved.mutator
def _apply_train_moved(state: FowState, p: TrainMoved, ctx: Context) -> None:
    tr = state.trains[p.train]
    tr.position += p.distance if p.direction == "forward" else -p.distance
    tr.moved_ply = state.ply
    tr.wrecks_pushed.extend(w for w in p.wrecks_pushed if w not in tr.wrecks_pushed)  # F-TRAIN-23, F-TRAIN-24
    _mark_moved(state, tr)  # F-TRAIN-21: the whole train moves
    if p.leaves_table or _left(state, tr):
        _leave(state, tr)  # F-TRAIN-22


# --- escort_left_train (F-TRAIN-25) ---------------------------------------------------------------------
class EscortLeftTrain(Payload):
    """At the end of the Movement Step a Tank Support Platoon leaves the train,
    moving an extra 4"/10 cm."""

    platoon: Annotated[str, Meta(min_length=1, max_length=60)]
    distance: Annotated[float, Meta(ge=0, description="Extra distance moved off the train (battle's units)")]


escort_left_train = REGISTRY.event_type("escort_left_train", EscortLeftTrain, rules=("F-TRAIN-25",),
                                        title_ru="Танковый Взвод Поддержки сошёл с поезда",
                                        title_en="Tank Support Platoon left the train")
POLICY["escort_left_train"] = Recorder("actor", platoon_side("platoon"), "Сторона взвода", "The platoon's side")


@escort_left_train.check
def _check_escort(state: FowState, p: EscortLeftTrain, ctx: Context) -> None:
    pl = platoon(state, p.platoon)
    require_own_turn(state, pl.side)
    # F-TRAIN-25: at the end of the Movement Step, not once the Shooting Step has begun
    require_step(state, "movement", "F-TRAIN-25", "Сходят с поезда", "Leaving the train")
    tr = state.trains.get(pl.train)
    if tr is None:
        refuse("F-TRAIN-25", "Это не Танковый Взвод Поддержки бронепоезда.",
               "This is not a Tank Support Platoon of an armoured train.")
    if tr.where != "on_table":
        rule = "F-TRAIN-14" if tr.where == "off_table" else "F-TRAIN-22"
        refuse(rule, "Бронепоезда нет на столе.", "The armoured train is not on the table.")
    if p.platoon not in tr.escorts_aboard:
        refuse("F-TRAIN-25", "Взвод уже сошёл с поезда.", "The platoon has already left the train.")
    extra = distance(ctx, state, "train_escort_extra")
    if p.distance > extra:
        ru, en = fmt(extra, state)
        refuse("F-TRAIN-25", f"Сходя с поезда, взвод двигается дополнительно не дальше {ru}.",
               f"Leaving the train, the platoon moves at most an extra {en}.")


@escort_left_train.mutator
def _apply_escort(state: FowState, p: EscortLeftTrain, ctx: Context) -> None:
    pl = state.platoons[p.platoon]
    tr = state.trains[pl.train]
    tr.escorts_aboard.remove(p.platoon)
    tr.escort_left_ply = state.ply  # F-TRAIN-25: the end of the Movement Step (rules/steps.py)
    for tid in pl.teams:
        state.teams[tid].moved_ply = state.ply


# --- the train's parts on the common actions ---------------------------------------------------------------
@team_moved.check
def _check_part_moved(state: FowState, p: Any, ctx: Context) -> None:
    t = team(state, p.team)
    if t.platoon in state.trains and t.locomotive:
        # F-TRAIN-1: the locomotive moving freely is the train leaving its line; a wagon alone splits it
        refuse("F-TRAIN-1", f"Бронепоезд движется только по Железнодорожной Линии («{train_moved.title_ru}»).",
               f"An armoured train moves only along its Railway Line («{train_moved.title_en}»).")
    if t.platoon in state.trains:
        refuse("F-TRAIN-21", f"Бронепоезд не разделяется: он двигается целиком по Линии («{train_moved.title_ru}»).",
               f"An armoured train is never split: it moves as a whole along its line («{train_moved.title_en}»).")
    _require_on_table(state, t, "Отделение", "Team")
    pl = state.platoons.get(t.platoon)
    tr = state.trains.get(pl.train) if pl is not None and pl.train else None
    if tr is not None and t.platoon in tr.escorts_aboard:
        refuse("F-TRAIN-25", f"Танковый Взвод Поддержки едет на поезде: сначала он сходит с него "
                             f"(«{escort_left_train.title_ru}»).",
               f"The Tank Support Platoon rides the train: it leaves it first («{escort_left_train.title_en}»).")


@team_shot.check
def _check_part_shot(state: FowState, p: Any, ctx: Context) -> None:
    _require_on_table(state, team(state, p.shooter), "Стрелок", "Shooter")
    _require_on_table(state, team(state, p.target), "Цель", "Target")


@assault_launched.check
def _check_part_assault(state: FowState, p: Any, ctx: Context) -> None:
    for tid in p.teams:
        _require_on_table(state, team(state, tid), "Отделение", "Team")


__all__ = ["off_table", "train_of"]
